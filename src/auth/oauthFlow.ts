import * as vscode from 'vscode';
import { EXTENSION_ID } from '../shared/ids';
import type { Logger } from '../core/logger';
import {
  authorizeUrl,
  codeChallengeS256,
  createCodeVerifier,
  createState,
  parseAuthorizationResponse,
  tokenRequestBody,
} from '../core/pkce';
import { Disposable } from '../platform/disposable';
import { OAuthDeniedError } from './oauthDeniedError';

/** The OAuth client the local hub registers for this extension (and a hosted service would). */
export const OAUTH_CLIENT_ID = 'versioned-db-vscode';
const CALLBACK_PATH = '/auth-callback'; // registered by the hub (src/hub/oauth.ts)
const WAIT_MS = 5 * 60_000;

/**
 * OAuth 2.0 authorization code + PKCE. The redirect goes through `vscode.env.asExternalUri`
 * and this UriHandler, so it also works in remote and browser (code-server) windows.
 */
export class OAuthFlow extends Disposable implements vscode.UriHandler {
  private readonly pending = new Map<string, (query: string) => void>();

  constructor(
    private readonly log: Logger,
    private readonly options: {
      /** False for a second instance (tests): an extension has one UriHandler. */
      registerUriHandler?: boolean;
      /** Opens the authorize page; the browser by default. */
      openExternal?: (url: string) => Promise<boolean>;
    } = {},
  ) {
    super();
    if (options.registerUriHandler !== false) this._register(vscode.window.registerUriHandler(this));
  }

  handleUri(uri: vscode.Uri): void {
    if (uri.path !== CALLBACK_PATH) return;
    const state = new URLSearchParams(uri.query).get('state') ?? '';
    const resolve = this.pending.get(state);
    if (!resolve) {
      this.log.warn('OAuth redirect for an unknown or finished sign-in attempt ignored');
      return;
    }
    this.pending.delete(state);
    resolve(uri.query);
  }

  /** Runs the browser round trip and resolves the access token. Abort via `signal`. */
  async signIn(siteUrl: string, signal: AbortSignal): Promise<string> {
    const verifier = createCodeVerifier();
    const state = createState();
    const callback = await vscode.env.asExternalUri(vscode.Uri.parse(`${vscode.env.uriScheme}://${EXTENSION_ID}${CALLBACK_PATH}`));
    const redirectUri = callback.toString(true);
    const answered = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(state);
        reject(new Error('No answer from the browser within 5 minutes; sign in again.'));
      }, WAIT_MS);
      const onAbort = (): void => {
        clearTimeout(timer);
        this.pending.delete(state);
        reject(Object.assign(new Error('Sign-in cancelled'), { name: 'AbortError' }));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(state, (query) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(query);
      });
    });
    // The browser may not reach the site where the extension host does (a hub on the remote
    // machine's loopback seen from code-server or Remote-SSH): asExternalUri maps the site to an
    // address the browser can open (code-server's /proxy/<port>/, a forwarded port), or keeps it.
    const browserSite = await externalSiteUrl(siteUrl);
    const url = authorizeUrl({
      siteUrl: browserSite,
      clientId: OAUTH_CLIENT_ID,
      redirectUri,
      codeChallenge: codeChallengeS256(verifier),
      state,
    });
    this.log.info(`OAuth: opening ${browserSite}/oauth/authorize in the browser`);
    const open = this.options.openExternal ?? openExactUrl;
    const opened = await open(url);
    if (!opened) {
      this.pending.delete(state);
      throw new Error('The browser could not be opened for sign-in.');
    }
    const query = await answered;
    if (new URLSearchParams(query).get('error') === 'access_denied') throw new OAuthDeniedError();
    const { code } = parseAuthorizationResponse(query, state);
    const response = await fetch(`${siteUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: tokenRequestBody({ code, redirectUri, clientId: OAUTH_CLIENT_ID, codeVerifier: verifier }),
      redirect: 'error',
      signal,
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown; error_description?: unknown };
    if (!response.ok || typeof body.access_token !== 'string') {
      const why =
        typeof body.error === 'string'
          ? `${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}`
          : `HTTP ${response.status}`;
      throw new Error(`The token exchange failed (${why}).`);
    }
    return body.access_token;
  }
}

async function externalSiteUrl(siteUrl: string): Promise<string> {
  const external = await vscode.env.asExternalUri(vscode.Uri.parse(`${siteUrl.replace(/\/+$/, '')}/`));
  return external.toString(true).replace(/\/+$/, '');
}

/**
 * Opens `url` exactly as written. A `vscode.Uri` would be decoded and re-encoded on the way
 * (`encodeURI(uri.toString(true))` in the workbench), which turns the `%26`/`%3D` inside
 * redirect_uri's own query (code-server's `/callback?vscode-reqid=…&…`) into bare `&`/`=` and
 * breaks the request. The extension host's openUri accepts the string form and hands it to the
 * browser untouched when it needs no further resolution, which the asExternalUri step ensures.
 */
async function openExactUrl(url: string): Promise<boolean> {
  return vscode.env.openExternal(url as unknown as vscode.Uri);
}
