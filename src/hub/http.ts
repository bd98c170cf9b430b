// HTTP plumbing for the hub: envelopes, Problems with stable codes and request ids, and body reading.
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
  422: 'Unprocessable request',
  500: 'Internal server error',
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
  const text = JSON.stringify(body);
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

export function sendProblem(ctx: Ctx, p: HttpProblem): void {
  const body: Problem = {
    type: PROBLEM_TYPE_BASE + String(p.code).toLowerCase().replace(/_/g, '-'),
    title: TITLES[p.status] ?? 'Error',
    status: p.status,
    detail: p.detail,
    instance: ctx.path,
    code: p.code,
    request_id: ctx.requestId,
  };
  sendJson(ctx, p.status, body, p.headers);
}

export const MAX_JSON_BODY = 8 * 1024 * 1024;

export async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > max) throw new HttpProblem(413, 'VALIDATION_FAILED', `The request body is larger than ${max} bytes.`);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
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
