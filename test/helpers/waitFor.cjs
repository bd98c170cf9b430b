// The one way tests wait for something to become true: every runtime of the tests uses this file
// (unit, hub and contract tests through tsx, the integration suite bundled by esbuild, and the
// plain-Node .mjs harnesses of e2e and integration). It is CommonJS with its types beside it
// (waitFor.d.cts) because that is the one form all of them can load: the TypeScript tests are
// CommonJS modules (Node16 resolution refuses an ES module there) and the .mjs harnesses run on
// the system Node without a TypeScript loader.
//
// Wait for a signal, never for a time: ask the thing itself (a file that parses whole, a status,
// a log line), and let the timeout only bound how long a slow machine may take.
'use strict';

/** A wait that ran out of time; `what` says what never happened. */
class WaitTimeoutError extends Error {
  constructor(what, timeoutMs) {
    super(`timed out after ${timeoutMs} ms waiting for ${what}`);
    this.name = 'WaitTimeoutError';
  }
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls `probe` until it returns something other than undefined, null or false, and resolves that
 * value. The probe runs at once, then every `intervalMs` until `timeoutMs` has passed, when the
 * wait rejects with a WaitTimeoutError naming `what` (a function is called then, to describe the
 * state the wait ended in). An error the probe throws ends the wait with that error: a probe that
 * expects a passing state (a file still being written) catches it and returns undefined.
 */
async function waitFor(what, probe, { timeoutMs = 10_000, intervalMs = 50 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    const left = deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(typeof what === 'function' ? what() : what, timeoutMs);
    await pause(Math.min(intervalMs, left));
  }
}

exports.waitFor = waitFor;
exports.WaitTimeoutError = WaitTimeoutError;
