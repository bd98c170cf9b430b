/**
 * Time as the client sees it. Injectable so polling and retry tests run in milliseconds
 * and can assert the exact delays that were asked for.
 */
export interface Timing {
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1), for jitter. */
  random(): number;
  /** Milliseconds, for measuring durations in logs. */
  now(): number;
}

export const realTiming: Timing = {
  sleep: abortableSleep,
  random: Math.random,
  now: () => performance.now(),
};

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The reason an aborted signal carries, always an Error named AbortError unless the caller chose one. */
export function abortReason(signal: AbortSignal | undefined): unknown {
  const r: unknown = signal?.reason;
  return r ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** `base` ±`fraction`, e.g. jitter(1000, 0.2, r) is in [800, 1200). */
export function jitter(base: number, fraction: number, random: () => number): number {
  return Math.round(base * (1 - fraction + 2 * fraction * random()));
}

/** One attempt's deadline, linked to the caller's signal. */
export class TimeoutController {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort: () => void;
  timedOut = false;

  constructor(
    timeoutMs: number,
    private readonly outer: AbortSignal | undefined,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new DOMException('The request timed out.', 'TimeoutError'));
    }, timeoutMs);
    this.onAbort = () => this.controller.abort(abortReason(outer));
    if (outer?.aborted) this.onAbort();
    else outer?.addEventListener('abort', this.onAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onAbort);
  }
}
