// OAuth 2.0 PKCE (RFC 7636, S256) and the authorization URL. Pure apart from randomness.
import { createHash, randomBytes } from 'node:crypto';

export function base64Url(bytes: Buffer): string {
  return bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A verifier of 43 unreserved characters (32 random bytes), as RFC 7636 §4.1 recommends. */
export function createCodeVerifier(random: (n: number) => Buffer = randomBytes): string {
  return base64Url(random(32));
}

export function codeChallengeS256(verifier: string): string {
  return base64Url(createHash('sha256').update(verifier, 'ascii').digest());
}

export function createState(random: (n: number) => Buffer = randomBytes): string {
  return base64Url(random(16));
}

export interface AuthorizeParams {
  readonly siteUrl: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly state: string;
}

export function authorizeUrl(p: AuthorizeParams): string {
  const url = new URL(`${p.siteUrl}/oauth/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri);
  url.searchParams.set('code_challenge', p.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', p.state);
  return url.toString();
}

/** The body of the token request (application/x-www-form-urlencoded, RFC 6749 §4.1.3). */
export function tokenRequestBody(p: { code: string; redirectUri: string; clientId: string; codeVerifier: string }): string {
  return new URLSearchParams({
    grant_type: 'authorization_code',
    code: p.code,
    redirect_uri: p.redirectUri,
    client_id: p.clientId,
    code_verifier: p.codeVerifier,
  }).toString();
}

/** Parses the redirect's query: the code when `state` matches, else an Error saying why. */
export function parseAuthorizationResponse(query: string, expectedState: string): { code: string } {
  const params = new URLSearchParams(query);
  const error = params.get('error');
  if (error) {
    const description = params.get('error_description');
    throw new Error(
      error === 'access_denied'
        ? 'Access was denied in the browser.'
        : `Authorization failed: ${error}${description ? ` (${description})` : ''}.`,
    );
  }
  if (params.get('state') !== expectedState) throw new Error('The browser answered for a different sign-in attempt; try again.');
  const code = params.get('code');
  if (!code) throw new Error('The browser answer carried no authorization code.');
  return { code };
}
