// Which engine job runs next, and who may queue at all. Each lane of the engine (metadata, user
// SQL, operations) has one FairQueue: a FIFO per caller, served round-robin across callers, with
// a cap on how many jobs one caller may have running and on how many may wait. A caller is a
// signed-in user (whatever token) or `anonymous:<address>` (anonymous requests from one address),
// so one caller's long queries can hold at most `maxRunningPerCaller` workers of the lane and the
// others keep getting served. Pure logic: the engine owns the workers and the clocks.
//
// Heavy callers (issue 26): a caller whose last query in the lane ran longer than `heavyMs` is
// heavy until one of its queries runs short again. Heavy callers together run at most
// `maxRunningHeavy` jobs (the engine sets workers − 1), so with several callers repeating long
// queries one worker always stays free for everybody else's short ones, which would otherwise wait
// behind them until refused. Chosen over "heavy jobs may take the last worker when nothing short
// waits": a long job started there holds it for seconds, and the short queries arriving meanwhile
// wait exactly as before; the cost is that heavy callers alone leave that worker idle. A lone long
// query still runs (the cap is at least 1) and heavy callers never starve: they keep `maxRunningHeavy`
// workers between them, served round-robin like everyone. A new caller is not heavy until a query
// of its ran long, so the first long queries of fresh callers may still fill every worker once.

export interface FairQueueLimits {
  /** Jobs of one caller running at once in this lane. */
  maxRunningPerCaller: number;
  /** Jobs of one caller waiting in this lane; past it a new job is refused at once. */
  maxQueuedPerCaller: number;
  /** Jobs waiting in this lane in all; past it a new job is refused at once. */
  maxQueued: number;
  /** Jobs of heavy callers running at once in this lane, all of them together (default no cap). */
  maxRunningHeavy?: number;
  /** A job that ran longer than this makes its caller heavy (default 1000 ms). */
  heavyMs?: number;
}

/** Heavy callers remembered at most; past it the longest-remembered is forgotten. */
const HEAVY_REMEMBERED = 1024;

export interface Queued {
  readonly caller: string;
}

export class FairQueue<J extends Queued> {
  private readonly waiting = new Map<string, J[]>();
  private readonly running = new Map<string, number>();
  /** Callers in the order they get their next turn. */
  private order: string[] = [];
  private size = 0;
  /** Callers whose last job ran long, oldest first. */
  private readonly heavy = new Set<string>();

  constructor(readonly limits: FairQueueLimits) {}

  get queuedCount(): number {
    return this.size;
  }

  runningOf(caller: string): number {
    return this.running.get(caller) ?? 0;
  }

  queuedOf(caller: string): number {
    return this.waiting.get(caller)?.length ?? 0;
  }

  isHeavy(caller: string): boolean {
    return this.heavy.has(caller);
  }

  /** Jobs of heavy callers running now. */
  get heavyRunning(): number {
    let n = 0;
    for (const [caller, count] of this.running) if (this.heavy.has(caller)) n += count;
    return n;
  }

  /** Whether heavy callers fill their share of the lane, so a heavy caller's job must wait. */
  heavyFull(): boolean {
    return this.heavyRunning >= (this.limits.maxRunningHeavy ?? Infinity);
  }

  /** Adds a job, or returns false when its caller's queue or the lane's queue is full. */
  push(job: J): boolean {
    if (this.size >= this.limits.maxQueued || this.queuedOf(job.caller) >= this.limits.maxQueuedPerCaller) return false;
    const list = this.waiting.get(job.caller);
    if (list) list.push(job);
    else {
      this.waiting.set(job.caller, [job]);
      if (!this.order.includes(job.caller)) this.order.push(job.caller);
    }
    this.size++;
    return true;
  }

  /**
   * The next job to start: the first caller in turn order that has a job waiting and is under
   * its running cap (and, if heavy, whose heavy callers together are under theirs). That caller
   * moves to the back of the order, so callers alternate.
   */
  take(): J | undefined {
    const heavyFull = this.heavyFull();
    for (let i = 0; i < this.order.length; i++) {
      const caller = this.order[i] as string;
      const list = this.waiting.get(caller);
      if (!list || list.length === 0 || this.runningOf(caller) >= this.limits.maxRunningPerCaller) continue;
      if (heavyFull && this.heavy.has(caller)) continue;
      const job = list.shift() as J;
      if (list.length === 0) this.waiting.delete(caller);
      this.size--;
      this.order.splice(i, 1);
      this.order.push(caller);
      this.running.set(caller, this.runningOf(caller) + 1);
      this.prune();
      return job;
    }
    return undefined;
  }

  /**
   * A job that `take` returned has finished (or died) after `ranMs`: past `heavyMs` its caller is
   * heavy, under it no longer. Without `ranMs` (cancelled, killed) the caller's mark stays as it was.
   */
  done(job: J, ranMs?: number): void {
    const n = this.runningOf(job.caller) - 1;
    if (n > 0) this.running.set(job.caller, n);
    else this.running.delete(job.caller);
    if (ranMs !== undefined) this.markRun(job.caller, ranMs);
    this.prune();
  }

  private markRun(caller: string, ranMs: number): void {
    this.heavy.delete(caller);
    if (ranMs <= (this.limits.heavyMs ?? 1000)) return;
    this.heavy.add(caller);
    if (this.heavy.size > HEAVY_REMEMBERED) this.heavy.delete(this.heavy.values().next().value as string);
  }

  /** Takes a job out of the queue before it started (it waited too long, or the engine closes). */
  remove(job: J): boolean {
    const list = this.waiting.get(job.caller);
    const i = list ? list.indexOf(job) : -1;
    if (!list || i < 0) return false;
    list.splice(i, 1);
    if (list.length === 0) this.waiting.delete(job.caller);
    this.size--;
    this.prune();
    return true;
  }

  /** Empties the queue, returning what waited. */
  drain(): J[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.size = 0;
    this.prune();
    return all;
  }

  /** Callers with nothing waiting and nothing running leave the turn order. */
  private prune(): void {
    this.order = this.order.filter((c) => this.waiting.has(c) || this.running.has(c));
  }
}
