// Types of waitFor.cjs (see there why it is CommonJS).

/** What a probe returns when the wait is over: anything but undefined, null or false. */
export type Ready<T> = Exclude<T, undefined | null | false>;

export interface WaitOptions {
  /** How long a slow machine may take before the wait fails (default 10 s). */
  timeoutMs?: number;
  /** How often the probe runs (default 50 ms). */
  intervalMs?: number;
}

/** A wait that ran out of time; its message says what never happened. */
export declare class WaitTimeoutError extends Error {
  constructor(what: string, timeoutMs: number);
}

/**
 * Calls `probe` until it returns something other than undefined, null or false, and resolves that
 * value; rejects with a WaitTimeoutError naming `what` after `timeoutMs`. An error the probe throws
 * ends the wait with that error.
 */
export declare function waitFor<T>(what: string | (() => string), probe: () => T | Promise<T>, options?: WaitOptions): Promise<Ready<T>>;
