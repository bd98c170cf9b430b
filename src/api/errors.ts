import type { Operation, Problem } from '../shared/wire';

/**
 * Codes the client itself assigns when there is no Problem body to take one from. They sit
 * beside the server's SCREAMING_SNAKE_CASE codes so callers classify every failure one way.
 */
export const ClientErrorCodes = {
  /** The connection failed (refused, reset, DNS). `status` is 0. */
  network: 'NETWORK_ERROR',
  /** No complete answer within the request timeout. `status` is 0. */
  timeout: 'TIMEOUT',
  /** The body passed the client's response size limit. */
  responseTooLarge: 'RESPONSE_TOO_LARGE',
  /** A 2xx whose body is not JSON or has no `data`. */
  malformedResponse: 'MALFORMED_RESPONSE',
  /** A 3xx: the client never follows redirects for API calls. */
  unexpectedRedirect: 'UNEXPECTED_REDIRECT',
} as const;

export interface ApiErrorInit {
  status: number;
  code: string;
  title: string;
  detail?: string;
  requestId?: string;
  type?: string;
  instance?: string;
  method: string;
  /** The request path; its query (SQL text, page tokens) is dropped. */
  path: string;
  /** True when the body was a Problem; false for proxy pages, empty bodies and transport failures. */
  isProblem: boolean;
  /** A short, redacted excerpt of a body that was not a Problem. */
  excerpt?: string;
  /** From `Retry-After`, when the server sent one. */
  retryAfterMs?: number;
  /** The proxy the request went through (origin only, no credentials), when one was used. */
  proxy?: string;
  cause?: unknown;
}

/**
 * Any failed API call: a Problem body, a non-Problem error body, or a transport failure
 * (then `status` is 0). Classify by `status` and `code`, never by `message`.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  readonly type: string | undefined;
  readonly instance: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly isProblem: boolean;
  readonly excerpt: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly proxy: string | undefined;

  constructor(init: ApiErrorInit) {
    const path = init.path.split('?')[0] ?? init.path;
    super(apiErrorMessage({ ...init, path }), init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.type = init.type;
    this.instance = init.instance;
    this.method = init.method;
    this.path = path;
    this.isProblem = init.isProblem;
    this.excerpt = init.excerpt;
    this.retryAfterMs = init.retryAfterMs;
    this.proxy = init.proxy;
  }

  /** The Problem this error carries (or stands in for), in wire shape. */
  toProblem(): Problem {
    return {
      title: this.title,
      status: this.status,
      code: this.code,
      request_id: this.requestId ?? '',
      ...(this.type !== undefined ? { type: this.type } : {}),
      ...(this.detail !== undefined ? { detail: this.detail } : {}),
      ...(this.instance !== undefined ? { instance: this.instance } : {}),
    };
  }
}

function apiErrorMessage(init: ApiErrorInit): string {
  const what = init.detail ? `${init.title}: ${init.detail}` : init.title;
  const where = `${init.method} ${init.path}`;
  const status = init.status ? `${init.status} ` : '';
  const excerpt = init.excerpt ? ` — ${JSON.stringify(init.excerpt)}` : '';
  return `${what} (${status}${init.code}; ${where})${excerpt}`;
}

/** An async operation finished with `status: failed`; the Operation (and its `error`) is attached. */
export class OperationFailedError extends Error {
  override readonly name = 'OperationFailedError';
  readonly operation: Operation;
  /**
   * `X-Request-Id` of the poll that reported the failure, when the server sent one: what the
   * service's support needs, beside the operation id, to find the failure in its logs.
   */
  readonly requestId: string | undefined;

  constructor(operation: Operation, requestId?: string) {
    const e = operation.error;
    const why = e ? `${e.title}${e.detail ? `: ${e.detail}` : ''} (${e.status} ${e.code})` : 'no error was reported';
    super(`Operation ${operation.id} (${operation.type}) failed: ${why}`);
    this.operation = operation;
    this.requestId = requestId || undefined;
  }
}

export type UploadErrorReason =
  /** Storage answered 400/403: the pre-signed part URLs expired (10 minutes); start the import again. */
  | 'expired'
  /** A part failed after every attempt, or storage answered something unusable. */
  | 'failed'
  /** The input is unusable (empty, changed while reading, session does not match). */
  | 'invalid';

/** A file upload (import step 2) failed. Pre-signed URLs are never part of the message. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  readonly reason: UploadErrorReason;
  readonly partNumber: number | undefined;
  readonly status: number | undefined;

  constructor(reason: UploadErrorReason, message: string, opts: { partNumber?: number; status?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.reason = reason;
    this.partNumber = opts.partNumber;
    this.status = opts.status;
  }
}

/**
 * A URL the client refuses to contact: an operation `href` on another origin than the configured
 * site (it would otherwise receive the token), or a scheme other than http(s). Thrown before any request.
 */
export class RefusedUrlError extends Error {
  override readonly name = 'RefusedUrlError';
  readonly url: string;

  constructor(message: string, url: string) {
    super(message);
    this.url = url;
  }
}

/** Cancelling is a normal outcome; callers use this to skip error UI. */
export function isAbortError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}
