// HTTP plumbing for the hub: envelopes, Problems with stable codes and request ids, and body reading.
import { bodyShare, type BodyRefusal } from './bodyBudget';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { ErrorCode, Meta, Open, Problem } from '../shared/wire';

export const PROBLEM_TYPE_BASE = 'https://versioned-db.invalid/problems/';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: 'Permission denied',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  414: 'URI too long',
  422: 'Unprocessable request',
  429: 'Too many requests',
  431: 'Request header fields too large',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/** An error a handler throws to answer with a Problem. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: Open<ErrorCode>,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string): HttpProblem => new HttpProblem(400, 'VALIDATION_FAILED', detail);
export const unauthenticated = (detail = 'A valid bearer token is required.'): HttpProblem =>
  new HttpProblem(401, 'UNAUTHENTICATED', detail, { 'WWW-Authenticate': 'Bearer' });
export const forbidden = (detail: string): HttpProblem => new HttpProblem(403, 'PERMISSION_DENIED', detail);
export const notFound = (detail: string): HttpProblem => new HttpProblem(404, 'NOT_FOUND', detail);
export const conflict = (detail: string): HttpProblem => new HttpProblem(409, 'CONFLICT', detail);
export const unprocessable = (detail: string): HttpProblem => new HttpProblem(422, 'UNPROCESSABLE', detail);

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  path: string;
}

export function newRequestId(): string {
  return randomUUID();
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(ctx, status, JSON.stringify(body), headers);
}

function sendJsonText(ctx: Ctx, status: number, text: string, headers: Record<string, string> = {}): void {
  ctx.res.writeHead(status, {
    'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Request-Id': ctx.requestId,
    'Cache-Control': 'no-store',
    ...headers,
  });
  ctx.res.end(text);
}

export function sendData(ctx: Ctx, status: number, data: unknown, meta?: Meta): void {
  sendJson(ctx, status, meta ? { data, meta } : { data });
}

/**
 * `data` with its `rows` given as JSON text already (a page the engine answered as one text,
 * selectRunner.ts): written into the response as it is, not parsed and written again.
 */
export function sendDataWithRows(ctx: Ctx, status: number, data: { columns: unknown }, rowsJson: string): void {
  // A placeholder no value can hold (a fresh random token), replaced by the rows' text.
  const slot = `\u0000rows:${randomUUID()}`;
  const { columns, ...rest } = data;
  const text = JSON.stringify({ data: { columns, rows: slot, ...rest } }).replace(JSON.stringify(slot), () => rowsJson);
  sendJsonText(ctx, status, text);
}

export function problemBody(status: number, code: Open<ErrorCode>, detail: string, instance: string, requestId: string): Problem {
  return {
    type: PROBLEM_TYPE_BASE + String(code).toLowerCase().replace(/_/g, '-'),
    title: TITLES[status] ?? 'Error',
    status,
    // Details quote input through quoted(); this is the backstop for anything that did not.
    detail: clip(detail, MAX_DETAIL),
    instance: clip(instance, MAX_INSTANCE),
    code,
    request_id: requestId,
  };
}

export function sendProblem(ctx: Ctx, p: HttpProblem): void {
  if (ctx.res.headersSent) {
    ctx.res.destroy();
    return;
  }
  const headers = { ...p.headers };
  // A refused request whose body was never read: it is drained after the answer (the caller
  // resumes it) unless there is too much of it, then the connection closes instead.
  const declared = declaredLength(ctx.req);
  if (!ctx.req.complete && (declared === undefined ? ctx.req.headers['transfer-encoding'] !== undefined : declared > MAX_DRAIN_BYTES))
    headers['Connection'] = 'close';
  sendJson(ctx, p.status, problemBody(p.status, p.code, p.detail, ctx.path, ctx.requestId), headers);
}

const MAX_DETAIL = 2000;
const MAX_INSTANCE = 1000;

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** Input quoted in a message: at most `max` characters of it, and its length when cut. */
export function quoted(v: string, max = 100): string {
  return v.length > max ? `"${v.slice(0, max)}…" (${v.length} characters)` : `"${v}"`;
}

export const MAX_JSON_BODY = 8 * 1024 * 1024;

/**
 * After a 413 the rest of the body is read and thrown away, so the connection can carry the next
 * request; a body that would take more than this to drain closes the connection instead (the
 * Problem says `Connection: close`).
 */
export const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

function declaredLength(req: IncomingMessage): number | undefined {
  const h = req.headers['content-length'];
  return h !== undefined && /^\d{1,15}$/.test(h) ? Number(h) : undefined;
}

export function payloadTooLarge(max: number, closeConnection: boolean): HttpProblem {
  return new HttpProblem(
    413,
    'VALIDATION_FAILED',
    `The request body is larger than ${max} bytes.`,
    closeConnection ? { Connection: 'close' } : {},
  );
}

/**
 * Lets the rest of a refused body flow past unread, or, when there is too much of it, marks the
 * answer `Connection: close`. Returns the Problem to send.
 */
export function refuseBody(req: IncomingMessage, max: number, alreadyRead: number): HttpProblem {
  const declared = declaredLength(req);
  const left = declared === undefined ? Infinity : declared - alreadyRead;
  if (left > MAX_DRAIN_BYTES) return payloadTooLarge(max, true);
  let drained = 0;
  req.on('data', (c: Buffer) => {
    drained += c.length;
    if (drained > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.resume();
  return payloadTooLarge(max, false);
}

/**
 * The whole body, at most `max` bytes. A larger body is refused with 413 as soon as it is known
 * (from Content-Length, or when the bytes pass `max`), without holding what was sent.
 */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > max) return Promise.reject(refuseBody(req, max, 0));
  // The hub's budget for bodies in flight (bodyBudget.ts): a declared length is taken at once.
  const share = bodyShare(req);
  if (declared !== undefined && !share.take(declared)) return Promise.reject(refusedBody(share.refusal(declared)));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (problem: HttpProblem): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      chunks.length = 0;
      reject(problem);
    };
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size > max) return stop(refuseBody(req, max, size));
      if (declared === undefined && !share.take(c.length)) return stop(refusedBody(share.refusal(size)));
      chunks.push(c);
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}

function refusedBody(r: BodyRefusal): HttpProblem {
  return new HttpProblem(r.status, r.code, r.detail, r.headers);
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const buf = await readBody(req, MAX_JSON_BODY);
  const text = buf.toString('utf8');
  if (text.trim() === '') throw badRequest('The request body must be a JSON object.');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw badRequest(`The request body is not valid JSON: ${(e as Error).message}`);
  }
}
