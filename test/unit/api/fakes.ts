import { MockAgent } from 'undici';
import type { Logger } from '../../../src/core/logger';
import type { Timing } from '../../../src/api/timing';

/** Timing whose sleeps return at once but are recorded, so tests assert the delays asked for. */
export class FakeTiming implements Timing {
  readonly sleeps: number[] = [];
  private t = 0;
  constructor(private readonly rand: () => number = () => 0.5) {}

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    this.t += ms;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      setImmediate(() => (signal?.aborted ? reject(signal.reason) : resolve()));
    });
  }
  random(): number {
    return this.rand();
  }
  now(): number {
    return this.t;
  }
}

export class RecordingLogger implements Logger {
  readonly lines: string[] = [];
  private rec =
    (level: string) =>
    (m: unknown, ...a: unknown[]): void => {
      this.lines.push(`${level} ${String(m)}${a.length ? ' ' + a.map((x) => JSON.stringify(x)).join(' ') : ''}`);
    };
  trace = this.rec('trace');
  debug = this.rec('debug');
  info = this.rec('info');
  warn = this.rec('warn');
  error = this.rec('error');
  get text(): string {
    return this.lines.join('\n');
  }
}

export const ORIGIN = 'https://hub.test';

export function mockAgent(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return agent;
}

/** What an intercepted request carried. */
export interface Captured {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Normalises undici's header forms (object, flat array, Headers) into a lower-case record. */
export function headerRecord(h: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (Array.isArray(h)) {
    for (let i = 0; i < h.length; i += 2) out[String(h[i]).toLowerCase()] = String(h[i + 1]);
  } else if (typeof (h as Headers).forEach === 'function' && !(h.constructor === Object)) {
    (h as Headers).forEach((v, k) => (out[k.toLowerCase()] = v));
  } else {
    for (const [k, v] of Object.entries(h as Record<string, unknown>)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

export function parseBody(body: unknown): unknown {
  if (body === undefined || body === null || body === '') return undefined;
  const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : String(body);
  return JSON.parse(text);
}
