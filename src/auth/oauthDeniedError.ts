/**
 * The person at the browser pressed Deny (OAuth `error=access_denied`). A choice, not a failure:
 * the sign-in flow says so plainly instead of reporting an error.
 */
export class OAuthDeniedError extends Error {
  override readonly name = 'OAuthDeniedError';

  constructor() {
    super('Access was denied in the browser.');
  }
}

export function isOAuthDenied(e: unknown): boolean {
  return e instanceof Error && e.name === 'OAuthDeniedError';
}
