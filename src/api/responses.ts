// Reading an HTTP answer of the API: the body within a size limit, the envelope, a Problem body
// turned into an ApiError, Retry-After, and which network failures are worth a retry. Used by the
// transport (transport.ts) and the part uploads (uploads.ts).
import type { Dispatcher } from 'undici';
import type { Meta } from '../shared/wire';
import { ApiError, ClientErrorCodes } from './errors';
import { excerptOf, redactText } from './redact';
import * as l10n from '../shared/l10n';

const RETRYABLE_NETWORK_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);
const STATUS_CODES: Record<number, string> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Builds the ApiError for a non-2xx answer, from a Problem body when there is one. */
export function errorFromBody(
  status: number,
  text: string,
  ctx: { method: string; path: string; requestId?: string | undefined; retryAfterMs?: number | undefined; secrets: readonly string[] },
): ApiError {
  const problem = parseProblem(text);
  const requestId = (problem?.request_id || undefined) ?? ctx.requestId;
  const common = {
    status,
    method: ctx.method,
    path: ctx.path,
    ...(requestId ? { requestId } : {}),
    ...(ctx.retryAfterMs !== undefined ? { retryAfterMs: ctx.retryAfterMs } : {}),
  };
  if (status >= 300 && status < 400) {
    return new ApiError({
      ...common,
      code: ClientErrorCodes.unexpectedRedirect,
      title: l10n.t('The server redirected ({0}); API requests are never redirected', status),
      isProblem: false,
    });
  }
  if (problem) {
    return new ApiError({
      ...common,
      code: problem.code || STATUS_CODES[status] || (status >= 500 ? 'INTERNAL' : 'UNKNOWN'),
      title: redactText(problem.title || `HTTP ${status}`, ctx.secrets),
      ...(problem.detail ? { detail: redactText(problem.detail, ctx.secrets) } : {}),
      ...(problem.type ? { type: problem.type } : {}),
      ...(problem.instance ? { instance: problem.instance } : {}),
      isProblem: true,
    });
  }
  const excerpt = excerptOf(text, ctx.secrets);
  return new ApiError({
    ...common,
    code: STATUS_CODES[status] ?? (status >= 500 ? 'INTERNAL' : 'UNKNOWN'),
    title: text.trim() ? l10n.t('HTTP {0} (not an API error body)', status) : l10n.t('HTTP {0} with an empty body', status),
    isProblem: false,
    ...(excerpt ? { excerpt } : {}),
  });
}

interface LooseProblem {
  type?: string;
  title?: string;
  detail?: string;
  instance?: string;
  code?: string;
  request_id?: string;
}

function parseProblem(text: string): LooseProblem | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const str = (k: string): string | undefined => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
  // A Problem has at least a code or a title; anything else (e.g. a bare `{ "error": ... }`) is not one.
  if (str('code') === undefined && str('title') === undefined) return undefined;
  const p: LooseProblem = {};
  for (const k of ['type', 'title', 'detail', 'instance', 'code', 'request_id'] as const) {
    const s = str(k);
    if (s !== undefined) p[k] = s;
  }
  return p;
}

export function parseEnvelope(text: string): { data: unknown; meta?: Meta } | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as { data?: unknown; meta?: unknown };
  if (o.data === undefined || o.data === null) return undefined;
  const meta = typeof o.meta === 'object' && o.meta !== null ? (o.meta as Meta) : undefined;
  return meta ? { data: o.data, meta } : { data: o.data };
}

/** readLimited's refusal: the answer is larger than the limit. */
export class TooLargeError extends Error {}

export async function readLimited(res: Dispatcher.ResponseData, limit: number): Promise<string> {
  const declared = Number(headerValue(res.headers, 'content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    res.body.destroy();
    throw new TooLargeError();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body) {
    const b = chunk as Buffer;
    total += b.length;
    if (total > limit) {
      res.body.destroy();
      throw new TooLargeError();
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const date = Date.parse(v);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

export function isTimeout(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
}

export function isRetryableNetworkError(err: unknown): boolean {
  return !isTimeout(err) && RETRYABLE_NETWORK_CODES.has(errorCode(err) ?? '');
}

export function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  // undici wraps socket errors; the OS code may sit on the cause.
  for (let i = 0; i < 3 && typeof e === 'object' && e !== null; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    if (code === 'UND_ERR_SOCKET') {
      const inner = (e as { cause?: unknown }).cause;
      const innerCode = typeof inner === 'object' && inner !== null ? (inner as { code?: unknown }).code : undefined;
      return typeof innerCode === 'string' ? innerCode : code;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MiB` : `${Math.round(n / 1024)} KiB`;
}
