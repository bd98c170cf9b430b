import type { Operation, OperationRef } from '../shared/wire';
import { OperationFailedError } from './errors';
import { jitter } from './timing';
import type { Transport } from './transport';

export interface WaitForOperationOptions {
  signal?: AbortSignal;
  /** Called with every polled state, including the final one. */
  onUpdate?: (operation: Operation) => void;
}

/** Poll delays: 1 s doubling to 10 s, each ±20% jitter (as the service's own CLI does). */
export const POLL_INITIAL_MS = 1000;
export const POLL_MAX_MS = 10_000;
export const POLL_JITTER = 0.2;

export function pollDelay(attempt: number, random: () => number): number {
  return jitter(Math.min(POLL_INITIAL_MS * 2 ** attempt, POLL_MAX_MS), POLL_JITTER, random);
}

/**
 * Polls `ref.href` (never a path built from the id) until the operation succeeds or fails.
 * The href must be on the configured origin: it is checked before the first request.
 */
export async function pollOperation(transport: Transport, ref: OperationRef, options: WaitForOperationOptions = {}): Promise<Operation> {
  const { signal, onUpdate } = options;
  if (typeof ref?.href !== 'string' || ref.href === '') {
    throw new TypeError(`Operation ${ref?.id ?? '?'} has no href to poll`);
  }
  // Throws RefusedUrlError for a foreign origin before anything is sent.
  transport.resolvePath({ url: ref.href });
  for (let attempt = 0; ; attempt++) {
    const { envelope, requestId } = await transport.exchange<Operation>({ method: 'GET', url: ref.href, signal });
    const op = envelope.data;
    onUpdate?.(op);
    if (op.status === 'succeeded') return op;
    if (op.status === 'failed') throw new OperationFailedError(op, requestId);
    // queued, running, or a status this client does not know yet: keep polling.
    await transport.timing.sleep(
      pollDelay(attempt, () => transport.timing.random()),
      signal,
    );
  }
}
