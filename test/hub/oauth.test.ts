// OAuth 2.0 authorization code + PKCE (S256) against the running hub, as the extension does it.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { startHub, type HubHandle } from '../helpers/hub';

const CLIENT = 'versioned-db-vscode';

describe('hub OAuth (authorization code + PKCE)', function () {
  let hub: HubHandle;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  before(async function () {
    hub = await startHub({ users: ['alice'] });
  });
  after(async () => hub?.stop());

  const authorizeUrl = (redirect: string, extra: Record<string, string> = {}): string => {
    const p = new URLSearchParams({
      response_type: 'code',
      client_id: CLIENT,
      redirect_uri: redirect,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's-123',
      ...extra,
    });
    return `${hub.url}/oauth/authorize?${p}`;
  };

  async function login(redirect: string, password = 'alice-password', decision = 'allow'): Promise<Response> {
    const page = await fetch(authorizeUrl(redirect));
    const html = await page.text();
    const form = new URLSearchParams();
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      form.set(m[1] as string, decodeHtml(m[2] as string));
    form.set('username', 'alice');
    form.set('password', password);
    form.set('decision', decision);
    return fetch(`${hub.url}/oauth/authorize`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  const token = (code: string, redirect: string, v = verifier): Promise<Response> =>
    fetch(`${hub.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: CLIENT, code_verifier: v }),
    });

  it('shows a login and consent page with a strict CSP and escaped server text', async () => {
    const r = await fetch(authorizeUrl('http://127.0.0.1:53682/callback', { state: '"><script>alert(1)</script>' }));
    assert.equal(r.status, 200);
    const csp = r.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|script-src/);
    const html = await r.text();
    assert.match(html, /Versioned DB for VS Code/);
    assert.match(html, /type="password"/);
    assert.equal(html.includes('<script>alert(1)</script>'), false);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  });

  it('never redirects to an unregistered redirect URI and rejects requests without S256 PKCE', async () => {
    const r = await fetch(authorizeUrl('https://evil.example/cb'), { redirect: 'manual' });
    assert.equal(r.status, 400);
    assert.equal(r.headers.get('location'), null);
    const unknownClient = await fetch(authorizeUrl('http://127.0.0.1:1/cb', { client_id: 'nope' }), { redirect: 'manual' });
    assert.equal(unknownClient.status, 400);
    const plain = await fetch(authorizeUrl('http://127.0.0.1:5000/cb', { code_challenge_method: 'plain' }), { redirect: 'manual' });
    assert.equal(plain.status, 302);
    const loc = new URL(plain.headers.get('location') as string);
    assert.equal(loc.searchParams.get('error'), 'invalid_request');
    assert.equal(loc.searchParams.get('state'), 's-123');
  });

  it('refuses a wrong password, and reports a denial to the client', async () => {
    const bad = await login('http://127.0.0.1:5000/cb', 'wrong');
    assert.equal(bad.status, 401);
    assert.match(await bad.text(), /Wrong username or password/);
    const denied = await login('http://127.0.0.1:5000/cb', 'alice-password', 'deny');
    assert.equal(denied.status, 302);
    assert.equal(new URL(denied.headers.get('location') as string).searchParams.get('error'), 'access_denied');
  });

  it('redirects to loopback with a code and state; the code + verifier give a working bearer token, once', async () => {
    const redirect = 'http://127.0.0.1:53682/callback';
    const r = await login(redirect);
    assert.equal(r.status, 302);
    const loc = new URL(r.headers.get('location') as string);
    assert.equal(loc.origin + loc.pathname, redirect);
    assert.equal(loc.searchParams.get('state'), 's-123');
    const code = loc.searchParams.get('code') as string;
    assert.ok(code);
    const wrong = await token(code, redirect, randomBytes(32).toString('base64url'));
    assert.equal(wrong.status, 400);
    assert.equal(((await wrong.json()) as any).error, 'invalid_grant');
    // The code was spent by the failed attempt.
    assert.equal((await token(code, redirect)).status, 400);

    const r2 = await login(redirect);
    const code2 = new URL(r2.headers.get('location') as string).searchParams.get('code') as string;
    assert.equal((await token(code2, 'http://127.0.0.1:9999/other')).status, 400, 'redirect_uri must match');
    const r3 = await login(redirect);
    const code3 = new URL(r3.headers.get('location') as string).searchParams.get('code') as string;
    const ok = await token(code3, redirect);
    assert.equal(ok.status, 200);
    const body = (await ok.json()) as any;
    assert.equal(body.token_type, 'Bearer');
    const me = await hub.fetch('/user', { authorization: `Bearer ${body.access_token}` });
    assert.equal(me.status, 200);
    assert.equal(me.body.data.username, 'alice');
  });

  it('accepts the code-server form of the extension callback, and no other extension', async () => {
    const redirect =
      'http://localhost:8080/stable-abc/callback?vscode-reqid=1&vscode-scheme=vscode&vscode-authority=versioned-db.versioned-db&vscode-path=%2Fauth-callback';
    const r = await login(redirect);
    assert.equal(r.status, 302);
    const loc = new URL(r.headers.get('location') as string);
    assert.equal(loc.searchParams.get('vscode-authority'), 'versioned-db.versioned-db');
    assert.ok(loc.searchParams.get('code'));
    const other = await fetch(authorizeUrl('https://remote.example/callback?vscode-authority=evil.extension'), { redirect: 'manual' });
    assert.equal(other.status, 400);
  });

  it('accepts a browser VS Code served over https from any host and base path (code-server behind a proxy)', async () => {
    const redirect =
      'https://dev.example.com/proxy/8080/callback?vscode-reqid=7&vscode-scheme=code-oss&vscode-authority=versioned-db.versioned-db&vscode-path=%2Fauth-callback';
    const page = await fetch(authorizeUrl(redirect));
    assert.equal(page.status, 200);
    const html = await page.text();
    // The page names where the code goes, and warns because it is not this machine.
    assert.match(html, /You will be sent back to <code>https:\/\/dev\.example\.com<\/code>/);
    assert.match(html, /Continue only if <code>https:\/\/dev\.example\.com<\/code> is the address of your own VS Code/);
    // The form posts relative to the page, so it also works when the page itself is reached
    // through code-server's port proxy (/proxy/<port>/oauth/authorize).
    assert.match(html, /<form method="post" action="authorize">/);
    assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self' https:\/\/dev\.example\.com;/);

    const r = await login(redirect);
    assert.equal(r.status, 302);
    const loc = new URL(r.headers.get('location') as string);
    assert.equal(loc.origin + loc.pathname, 'https://dev.example.com/proxy/8080/callback');
    // code-server's callback page keeps its own vscode-* parameters and passes the rest (code, state) on.
    assert.equal(loc.searchParams.get('vscode-reqid'), '7');
    assert.equal(loc.searchParams.get('vscode-path'), '/auth-callback');
    assert.equal(loc.searchParams.get('state'), 's-123');
    const code = loc.searchParams.get('code') as string;
    const ok = await token(code, redirect);
    assert.equal(ok.status, 200);
    const me = await hub.fetch('/user', { authorization: `Bearer ${((await ok.json()) as { access_token: string }).access_token}` });
    assert.equal(me.body.data.username, 'alice');
  });

  it('refuses callback look-alikes: plain http off this machine, another extension or path, credentials, fragments', async () => {
    const q = 'vscode-reqid=1&vscode-scheme=vscode&vscode-authority=versioned-db.versioned-db&vscode-path=%2Fauth-callback';
    const refused = [
      `http://dev.example.com/callback?${q}`, // a code must not cross a network in clear text
      `https://evil.example/callback?${q.replace('versioned-db.versioned-db', 'evil.extension')}`,
      `https://evil.example/callback?${q.replace('%2Fauth-callback', '%2Fsteal')}`,
      `https://evil.example/callback?${q.replace('vscode-reqid=1&', '')}`,
      `https://evil.example/not-callback?${q}`,
      `https://user:pw@dev.example.com/callback?${q}`,
      `https://dev.example.com/callback?${q}#x`,
      'https://evil.example/cb',
      'javascript:alert(1)',
    ];
    for (const redirect of refused) {
      const r = await fetch(authorizeUrl(redirect), { redirect: 'manual' });
      assert.equal(r.status, 400, redirect);
      assert.equal(r.headers.get('location'), null, redirect);
      assert.match(await r.text(), /redirect address is not registered/, redirect);
    }
    // A form posted with a refused address (bypassing the page) is refused too, and issues no code.
    const form = new URLSearchParams({
      client_id: CLIENT,
      redirect_uri: `http://dev.example.com/callback?${q}`,
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      response_type: 'code',
      username: 'alice',
      password: 'alice-password',
      decision: 'allow',
      csrf: 'x',
    });
    const post = await fetch(`${hub.url}/oauth/authorize`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(post.status, 400);
    assert.equal(post.headers.get('location'), null);
  });

  it('redirects to vscode:// URIs of the registered client', async () => {
    const redirect = 'vscode://versioned-db.versioned-db/auth-callback';
    const r = await login(redirect);
    assert.equal(r.status, 302);
    const loc = r.headers.get('location') as string;
    assert.ok(loc.startsWith(`${redirect}?`), loc);
    const code = new URL(loc).searchParams.get('code') as string;
    assert.equal((await token(code, redirect)).status, 200);
  });
});

function decodeHtml(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
