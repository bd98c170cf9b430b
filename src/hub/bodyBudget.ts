// One memory budget for the request bodies the hub holds: every JSON or form body counts from
// its first byte until its response is sent, at three times its size (its bytes, its text and what
// was parsed from it all live that long; counting the bytes once let a wave of 7.5 MB bodies hold
// about three times the budget). A body that would pass the budget is refused before it is read: 503 with Retry-After
// while others are in flight, 413 when it could never fit. Part uploads stream to disk and are
// not counted (partReceiver.ts holds them to their session's size).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Why a body is refused, for http.ts to answer as a Problem (this module stays below it). */
export interface BodyRefusal {
  status: 503 | 413;
  code: 'SERVICE_UNAVAILABLE' | 'VALIDATION_FAILED';
  detail: string;
  headers: Record<string, string>;
}

/** Default: bodies the hub may hold at once, in all. */
export const DEFAULT_BODY_MEMORY_BYTES = 64 * 1024 * 1024;

/** What a body of n bytes holds until its answer: the bytes, the text decoded from them, the parsed value. */
export const BODY_FOOTPRINT = 3;

/** After a 503 a body is read and dropped only up to this (else the connection closes). */
const MAX_BUSY_DRAIN_BYTES = 1024 * 1024;

export class BodyBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  get inUse(): number {
    return this.used;
  }

  take(n: number): boolean {
    if (this.used + n > this.limit) return false;
    this.used += n;
    return true;
  }

  give(n: number): void {
    this.used = Math.max(0, this.used - n);
  }
}

const held = new WeakMap<IncomingMessage, { res: ServerResponse; budget: BodyBudget }>();

/** Counts the bodies of `req` against `budget` until `res` is sent (the server calls this per request). */
export function countBodies(req: IncomingMessage, res: ServerResponse, budget: BodyBudget): void {
  held.set(req, { res, budget });
}

/**
 * The share of the budget one body reads under: `take(n)` for each part of it (a declared length
 * at once; n bytes cost BODY_FOOTPRINT × n), given back when the response is sent. Without a
 * budget (a request the server did not register) everything fits.
 */
export function bodyShare(req: IncomingMessage): { take(n: number): boolean; refusal(n: number): BodyRefusal } {
  const h = held.get(req);
  if (!h) return { take: () => true, refusal: () => busy(req, 0) };
  let taken = 0;
  h.res.once('close', () => {
    h.budget.give(taken);
    taken = 0;
  });
  return {
    take: (n) => {
      if (!h.budget.take(n * BODY_FOOTPRINT)) return false;
      taken += n * BODY_FOOTPRINT;
      return true;
    },
    refusal: (n) =>
      n * BODY_FOOTPRINT > h.budget.limit
        ? {
            status: 413,
            code: 'VALIDATION_FAILED',
            detail: `The request body is larger than the ${Math.floor(h.budget.limit / BODY_FOOTPRINT)} bytes the hub can hold for one body.`,
            headers: { Connection: 'close' },
          }
        : busy(req, n),
  };
}

/** 503 with Retry-After; a body of more than a little is not drained: the connection closes. */
function busy(req: IncomingMessage, alreadyRead: number): BodyRefusal {
  const declared = Number(req.headers['content-length'] ?? NaN);
  const left = Number.isFinite(declared) ? declared - alreadyRead : Infinity;
  return {
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    detail: 'The hub is holding as many request bodies as its memory budget allows; try again shortly.',
    headers: left > MAX_BUSY_DRAIN_BYTES ? { 'Retry-After': '1', Connection: 'close' } : { 'Retry-After': '1' },
  };
}
