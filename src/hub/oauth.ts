// OAuth 2.0 authorization code flow with PKCE (S256 only) for registered clients:
// GET /oauth/authorize shows a small login + consent page, POST /oauth/authorize redirects back
// with a one-time code, POST /oauth/token trades code + verifier for a bearer token.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store, OAuthClientRecord } from './store';
import type { Ctx } from './http';
import { readBody } from './http';
import { hashToken, newToken, verifyPassword } from './credentials';

export const EXTENSION_CLIENT_ID = 'versioned-db-vscode';

/** The client the extension uses; seeded into every data folder. */
export function extensionClient(): OAuthClientRecord {
  return {
    client_id: EXTENSION_CLIENT_ID,
    name: 'Versioned DB for VS Code',
    redirect_uris: [
      'vscode://versioned-db.versioned-db/auth-callback',
      'vscode-insiders://versioned-db.versioned-db/auth-callback',
      // Loopback: any port and path on 127.0.0.1 / localhost / [::1] (RFC 8252 section 7.3);
      // this is also how a local code-server hands the redirect back to the extension.
      'http://127.0.0.1/',
      // A browser VS Code (code-server, VS Code for the Web) hands a vscode:// redirect back
      // through its own `<origin>/…/callback?vscode-reqid=N&vscode-scheme=…&vscode-authority=<extension id>&vscode-path=/auth-callback`,
      // on whatever host it is served from (see codeServerCallbackAllowed).
      'code-server:versioned-db.versioned-db',
    ],
  };
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  username: string;
  expires: number;
}

const CODE_TTL_MS = 2 * 60 * 1000;

export class OAuthService {
  private readonly codes = new Map<string, PendingCode>();

  constructor(private readonly store: Store) {}

  async handle(ctx: Ctx, url: URL): Promise<void> {
    const method = ctx.req.method ?? 'GET';
    if (url.pathname === '/oauth/authorize' && method === 'GET') return this.authorizePage(ctx, url.searchParams, '');
    if (url.pathname === '/oauth/authorize' && method === 'POST') return this.authorizeSubmit(ctx);
    if (url.pathname === '/oauth/token' && method === 'POST') return this.token(ctx);
    if (url.pathname === '/oauth/authorize' || url.pathname === '/oauth/token') {
      ctx.res.writeHead(405, {
        Allow: url.pathname === '/oauth/token' ? 'POST' : 'GET, POST',
        'Content-Type': 'text/plain',
        'X-Request-Id': ctx.requestId,
      });
      ctx.res.end('Method not allowed');
      return;
    }
    ctx.res.writeHead(404, { 'Content-Type': 'text/plain', 'X-Request-Id': ctx.requestId });
    ctx.res.end('Not found');
  }

  private client(id: string | null): OAuthClientRecord | undefined {
    return id ? this.store.state.oauth_clients[id] : undefined;
  }

  redirectAllowed(client: OAuthClientRecord, uri: string): boolean {
    let u: URL;
    try {
      u = new URL(uri);
    } catch {
      return false;
    }
    if (u.hash !== '') return false;
    for (const reg of client.redirect_uris) {
      if (reg === uri) return true;
      if (reg.startsWith('code-server:')) {
        if (codeServerCallbackAllowed(u, reg.slice('code-server:'.length))) return true;
        continue;
      }
      const r = new URL(reg);
      if (r.protocol === 'http:' && isLoopback(r.hostname) && u.protocol === 'http:' && isLoopback(u.hostname)) return true;
      if ((r.protocol === 'vscode:' || r.protocol === 'vscode-insiders:') && u.protocol === r.protocol && u.host === r.host) return true;
    }
    return false;
  }

  private csrf(params: string): string {
    return createHmac('sha256', this.store.state.secret).update(`oauth-form:${params}`).digest('base64url');
  }

  private sendHtml(ctx: Ctx, status: number, html: string, nonce: string, formTarget?: string): void {
    const formAction = ["'self'", formTarget].filter(Boolean).join(' ');
    ctx.res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Request-Id': ctx.requestId,
    });
    ctx.res.end(html);
  }

  private authorizePage(ctx: Ctx, q: URLSearchParams, error: string, status = 200): void {
    const nonce = randomBytes(12).toString('base64');
    const client = this.client(q.get('client_id'));
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!client || !this.redirectAllowed(client, redirectUri)) {
      // Never redirect to an unregistered target: say so on the page instead.
      this.sendHtml(
        ctx,
        400,
        page(nonce, 'Authorization failed', `<p>The application is unknown or its redirect address is not registered.</p>`),
        nonce,
      );
      return;
    }
    const fail = (code: string, desc: string): void =>
      this.redirect(ctx, redirectUri, { error: code, error_description: desc, state: q.get('state') });
    if (q.get('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    const challenge = q.get('code_challenge') ?? '';
    if (!/^[A-Za-z0-9_-]{43,128}$/.test(challenge)) return fail('invalid_request', 'code_challenge (PKCE) is required');
    if (q.get('code_challenge_method') !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    const fields = ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'scope', 'response_type'];
    const kept = new URLSearchParams();
    for (const f of fields) {
      const v = q.get(f);
      if (v !== null) kept.set(f, v);
    }
    const hidden = [...kept.entries()].map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`).join('');
    const target = new URL(redirectUri);
    const destination = target.origin !== 'null' ? target.origin : `${target.protocol}//${target.host}`;
    // A browser VS Code on another machine is allowed on any https origin, so the origin shown
    // here is what stands between the user and a look-alike page: say so plainly.
    const remote = (target.protocol === 'https:' || target.protocol === 'http:') && !isLoopback(target.hostname);
    const body = `
<p><strong>${esc(client.name)}</strong> wants to access the local hub as you.</p>
<p>You will be sent back to <code>${esc(destination)}</code>.</p>
${remote ? `<p class="warning">Continue only if <code>${esc(destination)}</code> is the address of your own VS Code in the browser: that page receives access to your account.</p>` : ''}
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="authorize">
${hidden}<input type="hidden" name="csrf" value="${esc(this.csrf(kept.toString()))}">
<label>Username <input name="username" autocomplete="username" required autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<div class="buttons"><button name="decision" value="allow" type="submit">Sign in and allow</button>
<button name="decision" value="deny" type="submit" formnovalidate>Deny</button></div>
</form>`;
    this.sendHtml(ctx, status, page(nonce, 'Sign in to the local hub', body), nonce, cspSource(redirectUri));
  }

  private async authorizeSubmit(ctx: Ctx): Promise<void> {
    const form = new URLSearchParams((await readBody(ctx.req, 64 * 1024)).toString('utf8'));
    const kept = new URLSearchParams();
    for (const f of ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'scope', 'response_type']) {
      const v = form.get(f);
      if (v !== null) kept.set(f, v);
    }
    const client = this.client(kept.get('client_id'));
    const redirectUri = kept.get('redirect_uri') ?? '';
    const csrfOk = safeEqual(form.get('csrf') ?? '', this.csrf(kept.toString()));
    if (
      !client ||
      !this.redirectAllowed(client, redirectUri) ||
      !csrfOk ||
      kept.get('code_challenge_method') !== 'S256' ||
      !kept.get('code_challenge')
    ) {
      const nonce = randomBytes(12).toString('base64');
      this.sendHtml(
        ctx,
        400,
        page(nonce, 'Authorization failed', '<p>The sign-in form was not valid. Start again from the application.</p>'),
        nonce,
      );
      return;
    }
    if (form.get('decision') !== 'allow') {
      return this.redirect(ctx, redirectUri, {
        error: 'access_denied',
        error_description: 'The user denied access',
        state: kept.get('state'),
      });
    }
    const username = form.get('username') ?? '';
    const user = this.store.state.users[username];
    if (!user || !verifyPassword(form.get('password') ?? '', user.password_hash)) {
      return this.authorizePage(ctx, kept, 'Wrong username or password.', 401);
    }
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, {
      clientId: client.client_id,
      redirectUri,
      challenge: kept.get('code_challenge') as string,
      username,
      expires: Date.now() + CODE_TTL_MS,
    });
    this.redirect(ctx, redirectUri, { code, state: kept.get('state') });
  }

  private redirect(ctx: Ctx, target: string, params: Record<string, string | null>): void {
    const u = new URL(target);
    for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
    ctx.res.writeHead(302, { Location: u.toString(), 'Cache-Control': 'no-store', 'X-Request-Id': ctx.requestId });
    ctx.res.end();
  }

  private async token(ctx: Ctx): Promise<void> {
    const raw = (await readBody(ctx.req, 64 * 1024)).toString('utf8');
    let p: URLSearchParams;
    if ((ctx.req.headers['content-type'] ?? '').includes('application/json')) {
      p = new URLSearchParams();
      try {
        for (const [k, v] of Object.entries(JSON.parse(raw) as Record<string, unknown>)) if (typeof v === 'string') p.set(k, v);
      } catch {
        return this.tokenError(ctx, 'invalid_request', 'The body is not valid JSON.');
      }
    } else {
      p = new URLSearchParams(raw);
    }
    if (p.get('grant_type') !== 'authorization_code')
      return this.tokenError(ctx, 'unsupported_grant_type', 'Only authorization_code is supported.');
    const code = p.get('code') ?? '';
    const pending = this.codes.get(code);
    // A code is single use, whatever happens next.
    this.codes.delete(code);
    if (!pending || pending.expires < Date.now()) return this.tokenError(ctx, 'invalid_grant', 'The code is unknown, used or expired.');
    if (p.get('client_id') !== pending.clientId) return this.tokenError(ctx, 'invalid_grant', 'The code was issued to another client.');
    if (p.get('redirect_uri') !== pending.redirectUri)
      return this.tokenError(ctx, 'invalid_grant', 'redirect_uri does not match the authorization request.');
    const verifier = p.get('code_verifier') ?? '';
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier))
      return this.tokenError(ctx, 'invalid_request', 'code_verifier is missing or malformed.');
    const computed = createHash('sha256').update(verifier).digest('base64url');
    if (!safeEqual(computed, pending.challenge))
      return this.tokenError(ctx, 'invalid_grant', 'code_verifier does not match the code challenge.');
    const token = newToken('vdbo');
    this.store.mutateAccounts((s) =>
      s.tokens.push({
        hash: hashToken(token),
        username: pending.username,
        kind: 'oauth',
        client_id: pending.clientId,
        created_at: new Date().toISOString(),
      }),
    );
    const body = JSON.stringify({ access_token: token, token_type: 'Bearer', scope: 'read write' });
    ctx.res.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      Pragma: 'no-cache',
      'X-Request-Id': ctx.requestId,
    });
    ctx.res.end(body);
  }

  private tokenError(ctx: Ctx, error: string, description: string): void {
    ctx.res.writeHead(400, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Request-Id': ctx.requestId });
    ctx.res.end(JSON.stringify({ error, error_description: description }));
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

/**
 * The callback page of a browser VS Code (code-server, VS Code for the Web), wherever it is served:
 * `https://<any host>/<any base path>/callback`, or plain http on loopback only (a code must not
 * cross a network in clear text), naming this extension and its `/auth-callback` path, with no
 * credentials or fragment in the address. Any site can publish such a path, so this alone does
 * not make a redirect trustworthy: PKCE keeps a code intercepted from the extension's own sign-in
 * useless without the verifier that never leaves VS Code, and for a sign-in someone else started,
 * the consent page names the destination origin (and warns when it is not this machine).
 */
function codeServerCallbackAllowed(u: URL, extensionId: string): boolean {
  const secure = u.protocol === 'https:' || (u.protocol === 'http:' && isLoopback(u.hostname));
  const q = u.searchParams;
  return (
    secure &&
    u.username === '' &&
    u.password === '' &&
    u.pathname.endsWith('/callback') &&
    /^\d+$/.test(q.get('vscode-reqid') ?? '') &&
    /^[a-z][a-z0-9+.-]*$/i.test(q.get('vscode-scheme') ?? '') &&
    q.get('vscode-authority')?.toLowerCase() === extensionId &&
    q.get('vscode-path') === '/auth-callback'
  );
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function cspSource(uri: string): string {
  const u = new URL(uri);
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : u.protocol;
}

function page(nonce: string, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">body{font:15px system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem}
label{display:block;margin:.75rem 0}input:not([type=hidden]){display:block;width:100%;padding:.4rem;box-sizing:border-box}
.buttons{display:flex;gap:.5rem;margin-top:1rem}.error{color:#b00020}.warning{border-left:3px solid #b26a00;padding-left:.5rem}</style></head>
<body><h1>${esc(title)}</h1>${body}</body></html>`;
}
