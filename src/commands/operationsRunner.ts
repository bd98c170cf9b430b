import type { Operation, OperationError, OperationRef } from '../shared/wire';
import type { Logger } from '../core/logger';
import * as l10n from '../shared/l10n';

// The vscode-free half of the operations watcher: start an async operation, poll it to its end
// and classify the outcome. src/commands/operations.ts puts a progress notification around it.
// No `vscode` import here, so unit tests drive it with a fake client and a plain AbortController.

/** What the watcher needs from the API client (HubClient satisfies it). */
export interface OperationWaiter {
  waitForOperation(ref: OperationRef, opts?: { signal?: AbortSignal; onUpdate?: (op: Operation) => void }): Promise<Operation>;
}

/** The operation to watch: a ref already returned by the server, or the call that starts it. */
export type OperationStart = OperationRef | ((signal: AbortSignal) => Promise<OperationRef>);

export type OperationOutcome =
  | { kind: 'succeeded'; ref: OperationRef; operation: Operation }
  /** The server ran it and it failed; `error` is the OperationError (or a stand-in when none was recorded). */
  | { kind: 'failed'; ref: OperationRef; operation: Operation; error: OperationError; requestId?: string }
  /**
   * The user stopped waiting. The server has no cancel endpoint, so the operation (if it was
   * started) carries on; `ref` is undefined when the start call itself was abandoned.
   */
  | { kind: 'stoppedWaiting'; ref: OperationRef | undefined; last: Operation | undefined };

export interface RunOperationOptions {
  start: OperationStart;
  waiter: OperationWaiter;
  /** Aborted when the user stops waiting. */
  signal: AbortSignal;
  /** Every poll answer, for progress text. */
  onUpdate?: (op: Operation) => void;
  log?: Logger;
}

function isAbort(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError');
}

/** Duck-typed so it works with the api layer's OperationFailedError without importing its class. */
function failedOperationOf(err: unknown): Operation | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const op = (err as { operation?: unknown }).operation;
  if (typeof op !== 'object' || op === null) return undefined;
  const o = op as Partial<Operation>;
  return typeof o.id === 'string' && o.status === 'failed' ? (op as Operation) : undefined;
}

/**
 * Starts (if asked) and polls an operation until it ends. Resolves with the outcome; rejects only
 * for errors that are not about the operation itself (HTTP, network, refused href), which the
 * caller reports through reportError.
 */
export async function runOperation(opts: RunOperationOptions): Promise<OperationOutcome> {
  const { signal } = opts;
  let ref: OperationRef | undefined;
  let last: Operation | undefined;
  try {
    ref = typeof opts.start === 'function' ? await opts.start(signal) : opts.start;
    opts.log?.info(`operation ${ref.id}: started, polling`);
    const onUpdate = (op: Operation): void => {
      last = op;
      opts.onUpdate?.(op);
    };
    const operation = await opts.waiter.waitForOperation(ref, { signal, onUpdate });
    if (operation.status === 'failed') {
      // A client that returns instead of throwing on failure is handled the same way.
      return { kind: 'failed', ref, operation, error: operation.error ?? missingError(operation) };
    }
    opts.log?.info(`operation ${ref.id}: ${operation.status}`);
    return { kind: 'succeeded', ref, operation };
  } catch (err) {
    const failed = failedOperationOf(err);
    if (failed && ref) {
      opts.log?.warn(`operation ${ref.id}: failed (${failed.error?.code ?? 'no error recorded'})`);
      const requestId = (err as { requestId?: unknown }).requestId;
      return {
        kind: 'failed',
        ref,
        operation: failed,
        error: failed.error ?? missingError(failed),
        ...(typeof requestId === 'string' && requestId ? { requestId } : {}),
      };
    }
    if (isAbort(err, signal)) {
      opts.log?.info(`operation ${ref?.id ?? '(not started)'}: stopped waiting; the server is not asked to cancel`);
      return { kind: 'stoppedWaiting', ref, last };
    }
    throw err;
  }
}

function missingError(op: Operation): OperationError {
  return {
    status: 500,
    code: 'OPERATION_FAILED',
    title: l10n.t('The {0} operation failed', op.type),
    detail: l10n.t('The server recorded no error.'),
  };
}
