// What a refused query is told (EngineBusyError, the hub's 429): why, and when to come back.
import type { FairQueue, Queued } from './scheduler';

/** A job running in the lane, as far as an estimate of its end goes. */
export interface RunningJob extends Queued {
  startedAt?: number;
  /** How long the job may run (its deadline). */
  expectedMs?: number;
}

/** Whether `caller` waits on its own running queries, or (heavy) on the heavy callers' share. */
function blockedBy(queue: FairQueue<Queued>, caller: string): 'self' | 'heavy' | 'all' {
  if (queue.runningOf(caller) >= queue.limits.maxRunningPerCaller) return 'self';
  return queue.isHeavy(caller) && queue.heavyFull() ? 'heavy' : 'all';
}

export function busyMessage(queue: FairQueue<Queued>, caller: string): string {
  const max = queue.limits.maxRunningPerCaller;
  const anonymous = caller.startsWith('anonymous:');
  const who = anonymous ? `Anonymous callers from ${caller.slice('anonymous:'.length)} (together)` : 'This user';
  switch (blockedBy(queue, caller)) {
    case 'self':
      return `${who} already run${anonymous ? '' : 's'} ${max} ${max === 1 ? 'query' : 'queries'}, the most one caller may run at once; try again when ${max === 1 ? 'it ends' : 'one ends'}.`;
    case 'heavy':
      return 'Long queries of several callers already use every worker they may share (one is kept for short queries); try again shortly.';
    default:
      return 'Every query worker is busy; try again shortly.';
  }
}

/**
 * Seconds until the soonest running job that blocks `caller` is likely to end (1-60): a job is
 * expected to run about as long again as it has run so far, and never past its deadline. (The
 * deadline alone told a caller whose own page read had just started to come back in 30 s.)
 */
export function retryAfterSeconds(queue: FairQueue<Queued>, caller: string, running: readonly RunningJob[], now: number): number {
  const blocked = blockedBy(queue, caller);
  let soonest = Infinity;
  for (const j of running) {
    if (j.startedAt === undefined) continue;
    if (blocked === 'self' && j.caller !== caller) continue;
    if (blocked === 'heavy' && !queue.isHeavy(j.caller)) continue;
    soonest = Math.min(soonest, j.startedAt + (j.expectedMs ?? 1000) - now, Math.max(1000, now - j.startedAt));
  }
  if (!Number.isFinite(soonest)) return 1;
  return Math.min(60, Math.max(1, Math.ceil(soonest / 1000)));
}
