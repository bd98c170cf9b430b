import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { authorizeUrl, codeChallengeS256, createCodeVerifier, parseAuthorizationResponse, tokenRequestBody } from '../../../src/core/pkce';

describe('PKCE', () => {
  it('matches the RFC 7636 appendix B example', () => {
    assert.equal(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes 43-character verifiers from the unreserved alphabet, different each time', () => {
    const a = createCodeVerifier();
    const b = createCodeVerifier();
    assert.match(a, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a, b);
    const expected = createHash('sha256').update(a).digest('base64url');
    assert.equal(codeChallengeS256(a), expected);
  });

  it('builds the authorize URL with S256 and the exact redirect', () => {
    const url = new URL(
      authorizeUrl({
        siteUrl: 'http://127.0.0.1:9/x',
        clientId: 'c',
        redirectUri: 'vscode://p/auth-callback',
        codeChallenge: 'ch',
        state: 'st',
      }),
    );
    assert.equal(url.pathname, '/x/oauth/authorize');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('redirect_uri'), 'vscode://p/auth-callback');
    assert.equal(url.searchParams.get('response_type'), 'code');
    const body = new URLSearchParams(tokenRequestBody({ code: 'k', redirectUri: 'r', clientId: 'c', codeVerifier: 'v' }));
    assert.equal(body.get('grant_type'), 'authorization_code');
    assert.equal(body.get('code_verifier'), 'v');
  });

  it('accepts only the answer to this attempt', () => {
    assert.deepEqual(parseAuthorizationResponse('code=abc&state=s1', 's1'), { code: 'abc' });
    assert.throws(() => parseAuthorizationResponse('code=abc&state=other', 's1'), /different sign-in attempt/);
    assert.throws(() => parseAuthorizationResponse('error=access_denied&state=s1', 's1'), /denied/);
    assert.throws(() => parseAuthorizationResponse('state=s1', 's1'), /no authorization code/);
  });
});
