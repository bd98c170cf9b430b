// The one classification of failures into what a user reads and what they can do about it.
// Classified by type, HTTP status and error code, never by message text. No vscode here so it is
// unit-testable; src/commands/reportError.ts turns the result into a notification.
import type { Operation } from '../shared/wire';
import * as l10n from '../shared/l10n';

/**
 * What this module reads of the api layer's ApiError (src/api/errors.ts). Declared here because
 * core sits below api; test/unit/core/errorMessages.test.ts holds ApiError assignable to it.
 */
export interface ApiErrorFields {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly proxy: string | undefined;
}

/** What this module reads of the api layer's OperationFailedError. */
export interface OperationFailedFields {
  readonly operation: Operation;
  readonly requestId: string | undefined;
}

// Recognised by their `name` (set by the api layer's classes) rather than `instanceof`, so this
// module does not load the API client (and undici) at activation, and errors from another bundle
// copy of the client (tests, sibling bundles) classify the same way.
function isApiError(e: unknown): e is Error & ApiErrorFields {
  return e instanceof Error && e.name === 'ApiError' && typeof (e as { status?: unknown }).status === 'number';
}

function isOperationFailedError(e: unknown): e is Error & OperationFailedFields {
  return e instanceof Error && e.name === 'OperationFailedError' && typeof (e as { operation?: unknown }).operation === 'object';
}

/** ClientErrorCodes.timeout of the api layer. */
const CLIENT_TIMEOUT = 'TIMEOUT';

export type ErrorAction =
  | { readonly kind: 'signIn'; readonly hostId: string | undefined }
  | { readonly kind: 'copyRequestId'; readonly requestId: string }
  | { readonly kind: 'showLog' }
  /** Opens the question again with what was written (ErrorContext.unsent). */
  | { readonly kind: 'writeAgain'; readonly again: () => unknown }
  /** Copies what was written to the clipboard. */
  | { readonly kind: 'copyText'; readonly text: string };

export interface ErrorPresentation {
  readonly message: string;
  readonly actions: readonly ErrorAction[];
  /**
   * True for outcomes the API defines and the user can fix (4xx: sign in, permission, not found,
   * conflict; a failed operation): logged as a warning. Anything else is logged as an error.
   */
  readonly expected: boolean;
}

export interface ErrorContext {
  /** What the user tried, as a verb phrase: "create branch dev", "load branches". */
  readonly action?: string;
  /** The host the request went to, so "Sign in" signs in there. */
  readonly hostId?: string;
  readonly hostLabel?: string;
  /** What the person wrote for the request (a comment, a description): kept, never lost with the failure. */
  readonly unsent?: UnsentText;
}

/** A text written for a request that failed, and how to ask for it again (starting from it). */
export interface UnsentText {
  readonly text: string;
  readonly again?: () => unknown;
}

/**
 * True when the error only says the user (or VS Code) cancelled. Cancelling is a normal outcome:
 * callers return quietly instead of showing anything.
 */
export function isCancellation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { name?: unknown; code?: unknown; message?: unknown };
  // AbortSignal aborts (DOMException AbortError / undici), and vscode.CancellationError ("Canceled").
  return e.name === 'AbortError' || e.name === 'Canceled' || e.code === 'ABORT_ERR';
}

/** A user-facing message and fixing actions, or undefined for a cancellation (show nothing). */
export function describeError(error: unknown, context: ErrorContext = {}): ErrorPresentation | undefined {
  const presentation = describeFailure(error, context);
  const unsent = context.unsent;
  const hasText = !!unsent?.text.trim();
  if (!presentation || !unsent || (!hasText && !unsent.again)) return presentation;
  // The text goes with the message: offered again (starting from it) and to copy, never only gone.
  const actions: ErrorAction[] = [
    ...(unsent.again ? [{ kind: 'writeAgain' as const, again: unsent.again }] : []),
    ...(hasText ? [{ kind: 'copyText' as const, text: unsent.text }] : []),
    ...presentation.actions,
  ];
  return { ...presentation, message: `${presentation.message} ${l10n.t('What you wrote was not sent; it is kept here.')}`, actions };
}

function describeFailure(error: unknown, context: ErrorContext): ErrorPresentation | undefined {
  if (isCancellation(error)) return undefined;
  const prefix = context.action ? l10n.t('Could not {0}', context.action) : l10n.t('The request failed');
  const host = context.hostLabel ?? context.hostId ?? l10n.t('the host');
  if (isOperationFailedError(error)) return describeOperationFailure(error, context);
  if (isApiError(error) && error.status === 0) return describeUnreachable(error, prefix, host);
  if (isApiError(error)) {
    const message = `${statusMessage(error, prefix, host)} (${error.code})`;
    const actions: ErrorAction[] = error.status === 401 ? [{ kind: 'signIn', hostId: context.hostId }] : [];
    if (error.requestId) actions.push({ kind: 'copyRequestId', requestId: error.requestId });
    return { message, actions, expected: error.status >= 400 && error.status < 500 };
  }
  if (isNetworkError(error)) {
    return {
      message: l10n.t(
        '{0}: cannot reach {1} ({2}). Check the address in versionedDb.hosts or start the local hub.',
        prefix,
        host,
        networkCode(error) ?? '',
      ),
      actions: [{ kind: 'showLog' }],
      expected: false,
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { message: `${prefix}: ${text}`, actions: [{ kind: 'showLog' }], expected: false };
}

/** An operation the server ran and reported failed: its own error, and the poll's request id. */
function describeOperationFailure(error: Error & OperationFailedFields, context: ErrorContext): ErrorPresentation {
  const op = error.operation;
  const e = op.error;
  const what = context.action ? l10n.t('{0} failed', capitalize(context.action)) : l10n.t('The {0} operation failed', op.type);
  const message = e
    ? `${what}: ${e.title}${e.detail ? ` — ${e.detail}` : ''} (${e.code})`
    : l10n.t('{0} without a reason from the server (operation {1}).', what, op.id);
  // The poll that reported the failure: what the service's support looks up.
  const requestId = (error as { requestId?: unknown }).requestId;
  const actions: ErrorAction[] =
    typeof requestId === 'string' && requestId ? [{ kind: 'copyRequestId', requestId }, { kind: 'showLog' }] : [{ kind: 'showLog' }];
  return { message, actions, expected: true };
}

/** No HTTP answer at all (status 0): the proxy, when there is one, is the first suspect. */
function describeUnreachable(error: Error & ApiErrorFields, prefix: string, host: string): ErrorPresentation {
  if (error.proxy) {
    const why = error.code === CLIENT_TIMEOUT ? l10n.t('no answer in time') : error.code;
    return {
      message:
        l10n.t('{0}: cannot reach {1} through the proxy {2} ({3}). ', prefix, host, error.proxy, why) +
        l10n.t(
          'Check the http.proxy, http.noProxy, http.proxyStrictSSL and http.proxyAuthorization settings (or HTTPS_PROXY and NO_PROXY).',
        ),
      actions: [{ kind: 'showLog' }],
      expected: false,
    };
  }
  const why = error.code === CLIENT_TIMEOUT ? l10n.t('it did not answer in time') : l10n.t('cannot connect ({0})', error.code);
  return {
    message: l10n.t('{0}: {1} is unreachable — {2}. Check the address in versionedDb.hosts, or start the local hub.', prefix, host, why),
    actions: [{ kind: 'showLog' }],
    expected: false,
  };
}

/** What an HTTP error status means to the user (without the code, which the caller appends). */
function statusMessage(error: Error & ApiErrorFields, prefix: string, host: string): string {
  const detail = error.detail ? ` ${ensurePeriod(error.detail)}` : '';
  switch (error.status) {
    case 401:
      return l10n.t('{0}: {1} needs you to sign in (the token is missing, expired or revoked).', prefix, host);
    case 403:
      return l10n.t('{0}: you need {1}.{2}', prefix, missingPermission(error.method, error.path), detail);
    case 404:
      return l10n.t(
        '{0}: not found.{1}',
        prefix,
        detail || l10n.t(' The database may not exist, or it is private and this account has no access.'),
      );
    case 409:
      return l10n.t('{0}: it already exists or conflicts with the current state.{1}', prefix, detail);
    case 422:
      return `${prefix}: ${error.title}.${detail}`;
    case 429:
      return l10n.t('{0}: {1} is rate limiting requests; try again in a moment.', prefix, host);
    default:
      return error.status >= 500
        ? l10n.t('{0}: {1} had an internal problem ({2}).{3}', prefix, host, error.status, detail)
        : `${prefix}: ${error.title}.${detail}`;
  }
}

/**
 * Which permission a 403 means, from the request the client sent. The API only says "forbidden";
 * telling the user what to ask for is what makes the message useful.
 */
export function missingPermission(method: string | undefined, path: string | undefined): string {
  const p = (path ?? '').replace(/^.*?\/databases/, '/databases').split('?')[0]!;
  const m = (method ?? '').toUpperCase();
  const db = /^\/databases\/([^/]+)\/([^/]+)/.exec(p);
  const name = db ? `${safeDecode(db[1]!)}/${safeDecode(db[2]!)}` : l10n.t('this database');
  if (m === 'POST' && p === '/databases') {
    return l10n.t('permission to create databases under that owner (yourself, or an organization where your role may create databases)');
  }
  if (m === 'POST' && /\/forks$/.test(p)) return l10n.t('read access to {0} and ownership of the namespace you fork into', name);
  if (m === 'POST' && /\/pulls\/[^/]+\/merge$/.test(p)) return l10n.t('write access to {0} to merge', name);
  if (m === 'PATCH' && /\/pulls\/[^/]+$/.test(p)) return l10n.t("to be the pull request's creator or have write access to {0}", name);
  if (m === 'POST' && /\/pulls\/[^/]+\/comments$/.test(p)) return l10n.t('read access to {0} to comment', name);
  if (m === 'POST' && /\/pulls$/.test(p)) return l10n.t('read access to both databases of the pull request');
  if (m === 'POST' && /\/(branches|tags|releases|imports|imports\/uploads)$/.test(p)) return l10n.t('write access to {0}', name);
  if (m === 'GET' && /^\/operations\//.test(p)) return l10n.t('access to the database this operation belongs to');
  return l10n.t('a permission this account lacks on {0}', name);
}

function isNetworkError(error: unknown): boolean {
  return networkCode(error) !== undefined;
}

function networkCode(error: unknown): string | undefined {
  const codes = ['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET'];
  let e: unknown = error;
  for (let depth = 0; depth < 4 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && codes.includes(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function ensurePeriod(s: string): string {
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
