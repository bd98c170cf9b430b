// Which engine job runs next, and who may queue at all. Each lane of the engine (metadata, user
// SQL, operations) has one FairQueue: a FIFO per caller, served round-robin across callers, with
// a cap on how many jobs one caller may have running and on how many may wait. A caller is a
// signed-in user (whatever token) or `anonymous:<address>` (anonymous requests from one address),
// so one caller's long queries can hold at most `maxRunningPerCaller` workers of the lane and the
// others keep getting served. Pure logic: the engine owns the workers and the clocks.

export interface FairQueueLimits {
  /** Jobs of one caller running at once in this lane. */
  maxRunningPerCaller: number;
  /** Jobs of one caller waiting in this lane; past it a new job is refused at once. */
  maxQueuedPerCaller: number;
  /** Jobs waiting in this lane in all; past it a new job is refused at once. */
  maxQueued: number;
}

export interface Queued {
  readonly caller: string;
}

export class FairQueue<J extends Queued> {
  private readonly waiting = new Map<string, J[]>();
  private readonly running = new Map<string, number>();
  /** Callers in the order they get their next turn. */
  private order: string[] = [];
  private size = 0;

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
   * its running cap. That caller moves to the back of the order, so callers alternate.
   */
  take(): J | undefined {
    for (let i = 0; i < this.order.length; i++) {
      const caller = this.order[i] as string;
      const list = this.waiting.get(caller);
      if (!list || list.length === 0 || this.runningOf(caller) >= this.limits.maxRunningPerCaller) continue;
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

  /** A job that `take` returned has finished (or died). */
  done(job: J): void {
    const n = this.runningOf(job.caller) - 1;
    if (n > 0) this.running.set(job.caller, n);
    else this.running.delete(job.caller);
    this.prune();
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
