// OAuth 2.0 authorization code + PKCE against the hub's real /oauth/authorize and /oauth/token,
// from inside the extension host: the redirect address comes from vscode.env.asExternalUri, the
// answer arrives through the UriHandler path, and the token works as a bearer token. Only the
// person at the browser is simulated: the login form is submitted over HTTP as a browser would.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { OAuthFlow } from '../../src/auth/oauthFlow';
import { HubClient } from '../../src/api/index';
import { silentLogger } from '../../src/core/logger';
import { waitFor } from '../helpers/waitFor.cjs';
import { integrationConfig } from './testEnv';

/**
 * What the browser reaches for `url`. The extension resolves the hub's address with asExternalUri,
 * which here (a VS Code server from the code-server package) maps a loopback port to code-server's
 * `<origin>/proxy/<port>/…`; this bare server does not serve that proxy, so do what code-server's
 * would: strip the prefix and forward to the port.
 */
function throughProxy(url: URL): URL {
  const m = /^\/proxy\/(\d+)(\/.*)$/.exec(url.pathname);
  return m ? new URL(`http://127.0.0.1:${m[1]}${m[2]}${url.search}`) : url;
}

/** Fills the hub's consent form like a person: username, password, "Sign in and allow" (or deny). */
async function browser(url: string, decision: 'allow' | 'deny', password = 'alice-password'): Promise<URL> {
  // The address reaches the browser intact: redirect_uri keeps its own query (code-server's form).
  const redirect = new URL(new URL(url).searchParams.get('redirect_uri') ?? '');
  if (redirect.protocol === 'http:' || redirect.protocol === 'https:') {
    assert.equal(redirect.searchParams.get('vscode-authority'), 'versioned-db.versioned-db', url);
    assert.equal(redirect.searchParams.get('vscode-path'), '/auth-callback', url);
  } else {
    assert.equal(redirect.host, 'versioned-db.versioned-db', url); // desktop: vscode://<extension id>/auth-callback
  }
  const page = await fetch(throughProxy(new URL(url)));
  assert.equal(page.status, 200, `the authorize page answered ${page.status}`);
  const html = await page.text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(
      m[1]!,
      m[2]!
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>'),
    );
  }
  form.set('username', 'alice');
  form.set('password', password);
  form.set('decision', decision);
  // The form posts where the page says, relative to the page (which may sit behind a proxy path).
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  assert.ok(action, 'the page has no sign-in form');
  const answer = await fetch(throughProxy(new URL(action, url)), {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(answer.status, 302, `the consent form answered ${answer.status}`);
  return new URL(answer.headers.get('location')!);
}

describe('OAuth sign-in (auth)', function () {
  this.timeout(60_000);
  const config = integrationConfig();
  let redirectedTo: URL | undefined;
  let decision: 'allow' | 'deny' = 'allow';
  const flow = new OAuthFlow(silentLogger, {
    registerUriHandler: false,
    openExternal: async (url) => {
      redirectedTo = await browser(url, decision);
      // What the editor does with the redirect: hand its query to the extension's UriHandler.
      flow.handleUri(vscode.Uri.parse(`vscode://versioned-db.versioned-db/auth-callback?${redirectedTo.searchParams.toString()}`));
      return true;
    },
  });

  after(() => flow.dispose());

  it('gets a token through authorize + PKCE + token exchange; it works as a bearer token', async () => {
    const token = await flow.signIn(config.hubUrl, new AbortController().signal);
    assert.ok(redirectedTo?.searchParams.get('code'), 'no code in the redirect');
    const me = await new HubClient({ baseUrl: config.hubUrl, token }).getCurrentUser();
    assert.equal(me.username, 'alice');
  });

  it('denying in the browser ends the sign-in with a clear message and no token', async () => {
    decision = 'deny';
    await assert.rejects(
      flow.signIn(config.hubUrl, new AbortController().signal),
      (e: Error) => e.name === 'OAuthDeniedError' && /Access was denied/.test(e.message),
    );
  });

  it('cancelling while waiting for the browser is an AbortError (shown as nothing)', async () => {
    let opened = false;
    const silentFlow = new OAuthFlow(silentLogger, {
      registerUriHandler: false,
      openExternal: async () => (opened = true),
    });
    const controller = new AbortController();
    const pending = silentFlow.signIn(config.hubUrl, controller.signal);
    pending.catch(() => undefined);
    // Cancelled once it waits for the browser: the browser was opened, and nobody answers there.
    await waitFor('the flow to open the browser', () => opened);
    controller.abort();
    await assert.rejects(pending, (e: Error) => e.name === 'AbortError');
    silentFlow.dispose();
  });
});
