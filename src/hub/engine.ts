// Main-thread side of the DoltLite engine: worker threads in three lanes, a write lock per
// database and a version per database so each worker knows when its cached copy is stale.
//
// Lanes keep heavy work from freezing light work:
// - `meta`: branch, tag and commit lookups and the small synchronous writes (create a database,
//   a branch, a tag). Branch and tag lists are also cached per database version, so listings
//   rarely reach a worker at all.
// - `query`: callers' SQL. One caller (a user, or the anonymous callers of one address) runs at most
//   `maxRunningPerCaller` queries at once, and callers whose queries run long share all but one
//   worker (scheduler.ts); a query that cannot start within `maxWaitMs`, or finds its caller's
//   queue full, is refused with EngineBusyError (the hub answers 429; engineBusy.ts).
// - `operation`: imports and merges, served round-robin between the users who started them.
// A worker that dies answers its job with EngineUnavailableError and is replaced; a worker whose
// memory grew past `workerMemoryBytes` (plus room for the files it holds) is replaced after its
// job, so the hub's memory stays flat.
// Closing answers every queued and running job with EngineShutDownError (the hub answers 503).
import { Worker } from 'node:worker_threads';
import type { EngineQueryResult } from './selectRunner';
import type {
  Author,
  BranchRow,
  DbFile,
  EngineRequest,
  EngineResponse,
  Revision,
  TagRow,
  WriteResult,
  WriteScript,
} from './engineProtocol';
import { EngineBusyError, EngineCancelledError, EngineShutDownError, EngineTimeoutError, EngineUnavailableError } from './engineErrors';
import { FairQueue } from './scheduler';
import { diffCopyBudget } from './doltSql/diffRowCache';
import type { FairQueueLimits } from './scheduler';
import { KeyLocks } from './keyLocks';
import { busyMessage, retryAfterSeconds } from './engineBusy';
import { ENGINE_DEFAULTS, laneCounts, queryQueueLimits, workerMemoryLimit, type EngineOptions, type Lane } from './engineOptions';

export { ENGINE_DEFAULTS, workerMemoryLimit, type EngineOptions, type Lane, type QueryLaneLimits } from './engineOptions';

const LANES: readonly Lane[] = ['meta', 'query', 'operation'];
/** The lanes whose workers start with the engine (the operation lane's on its first job). */
const STARTED_LANES: readonly Lane[] = ['meta', 'query'];

/** How long a worker has to answer once its job's caller went away, before it is replaced. */
const CANCEL_GRACE_MS = 1000;

/** The caller of internal work (seeding, the hub's own lookups). */
export const HUB_CALLER = 'hub';

interface Job {
  id: number;
  req: EngineRequest;
  lane: Lane;
  caller: string;
  hardLimitMs?: number;
  /** How long the job may run, for Retry-After estimates. */
  expectedMs?: number;
  startedAt?: number;
  waitTimer?: NodeJS.Timeout;
  /** Stops listening to the caller's abort signal. */
  detach?: () => void;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

interface Slot {
  lane: Lane;
  worker: Worker;
  ready: Promise<void>;
  isReady: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
  /**
   * Shared with the worker: set to 1 when the running job's caller went away. The worker's
   * progress handler reads it between steps and stops the query (selectRunner.ts), so the
   * worker and the caller's share are free at once instead of at the query's deadline.
   */
  cancel: Int32Array;
}

export class Engine {
  private readonly slots: Slot[] = [];
  /** Workers each lane may have (ENGINE_DEFAULTS.workers, or as configured). */
  private readonly counts: Record<Lane, number>;
  private readonly queues: Record<Lane, FairQueue<Job>>;
  private readonly queryWaitMs: number;
  private readonly versions = new Map<string, number>();
  private readonly locks = new KeyLocks();
  private readonly listCache = new Map<string, { version: number; branches?: BranchRow[]; tags?: TagRow[] }>();
  private nextId = 1;
  private closed = false;
  /** Workers that died before they were ready, in a row; a few mean the engine cannot start. */
  private startFailures = 0;
  private broken: Error | undefined;
  private markBroken: (e: Error) => void = () => undefined;
  private readonly brokenSignal = new Promise<never>((_, reject) => (this.markBroken = reject));

  constructor(private readonly opts: EngineOptions) {
    // Nobody may be waiting on ready() yet; the rejection is still observed there.
    this.brokenSignal.catch(() => undefined);
    this.counts = laneCounts(opts.workers);
    const q = opts.queryLimits ?? {};
    const unbounded: FairQueueLimits = { maxRunningPerCaller: Infinity, maxQueuedPerCaller: Infinity, maxQueued: Infinity };
    this.queues = {
      meta: new FairQueue<Job>(unbounded),
      operation: new FairQueue<Job>(unbounded),
      query: new FairQueue<Job>(queryQueueLimits(this.counts.query, q)),
    };
    this.queryWaitMs = q.maxWaitMs ?? ENGINE_DEFAULTS.maxWaitMs;
    // Each worker costs about 0.2 s of CPU to start (it loads the hub bundle and DoltLite) and
    // tens of MB: the operation lane's worker starts when its first job comes (pump) or an
    // import's upload begins (warm). Every query worker starts now: started on demand, a burst of
    // queries right after the start waited for it past --queue-wait-ms under load and got 429s
    // (a client's first view would then wait a Retry-After).
    for (const lane of STARTED_LANES) {
      for (let i = 0; i < this.counts[lane]; i++) this.slots.push(this.spawn(lane));
    }
  }

  /** Starts the first worker of `lane` now, if it has none yet (an upload's import is coming). */
  warm(lane: Lane): void {
    if (!this.closed && !this.broken && !this.slots.some((s) => s.lane === lane)) this.slots.push(this.spawn(lane));
  }

  /** Resolves when the workers started so far have loaded DoltLite; rejects if they cannot. */
  ready(): Promise<void> {
    return Promise.race([Promise.all(this.slots.map((s) => s.ready)).then(() => undefined), this.brokenSignal]);
  }

  private spawn(lane: Lane): Slot {
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(this.opts.workerScript, {
      workerData: {
        role: 'doltlite-engine',
        cancel,
        diffCopyBytes: diffCopyBudget(this.opts.workerMemoryBytes ?? ENGINE_DEFAULTS.workerMemoryBytes),
      },
      execArgv: this.opts.workerExecArgv ?? [],
      stdout: true,
      stderr: true,
    });
    // Engine chatter must never reach the CLI's stdout (it prints exactly one line).
    worker.stdout.resume();
    worker.stderr.on('data', (d: Buffer) => this.opts.logger.debug(`engine: ${d.toString().trim()}`));
    let markReady: () => void = () => undefined;
    const ready = new Promise<void>((r) => (markReady = r));
    const slot: Slot = { lane, worker, ready, isReady: false, cancel };
    worker.on('message', (msg: EngineResponse | { ready: true }) => this.onWorkerMessage(slot, msg, markReady));
    const onDeath = (err?: Error): void => this.onWorkerDeath(slot, err);
    worker.on('error', (e) => {
      this.opts.logger.error(e);
      onDeath(e);
    });
    worker.on('exit', () => onDeath());
    return slot;
  }

  /** A worker said it is ready, or answered its job (and may have grown past its memory budget). */
  private onWorkerMessage(slot: Slot, msg: EngineResponse | { ready: true }, markReady: () => void): void {
    if ('ready' in msg) {
      slot.isReady = true;
      this.startFailures = 0;
      markReady();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== msg.id) return;
    this.finish(slot, job, job.startedAt === undefined ? undefined : Date.now() - job.startedAt);
    if (msg.ok) job.resolve(msg.value);
    else job.reject(new Error(msg.message));
    const limit = workerMemoryLimit(this.opts.workerMemoryBytes ?? ENGINE_DEFAULTS.workerMemoryBytes, msg.dataBytes ?? 0);
    if ((msg.memoryBytes ?? 0) > limit) {
      this.opts.logger.debug(`engine: replacing a ${slot.lane} worker that grew to ${msg.memoryBytes} bytes (limit ${limit})`);
      this.replace(slot);
    }
    this.pump(slot.lane);
  }

  /** A worker died (or failed to start): its job fails, and it is replaced unless the engine cannot start at all. */
  private onWorkerDeath(slot: Slot, err?: Error): void {
    const lane = slot.lane;
    const job = slot.job;
    if (job) {
      this.finish(slot, job);
      if (this.closed) job.reject(new EngineShutDownError());
      else {
        this.opts.logger.warn(`engine: a ${lane} worker stopped while running a request${err ? `: ${err.message}` : ''}`);
        job.reject(new EngineUnavailableError('The database engine stopped while running this request; it has been restarted, try again.'));
      }
    }
    if (!slot.isReady && this.slots.includes(slot) && ++this.startFailures >= 3 && !this.broken) {
      this.broken = new Error(`The database engine could not start: ${err?.message ?? 'its worker exited'}`);
      this.markBroken(this.broken);
      for (const l of LANES) for (const j of this.queues[l].drain()) this.reject(j, this.broken);
    }
    if (!this.closed && !this.broken) this.replace(slot);
  }

  /** Puts a fresh worker in the slot's place (if it still has one) and ends the old one. */
  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots[i] = this.spawn(slot.lane);
    void slot.worker.terminate();
    this.pump(slot.lane);
  }

  /**
   * The caller of a running job went away: the worker stops at its next check of the cancel flag
   * and answers at once. One that does not answer within CANCEL_GRACE_MS (deep in a step nothing
   * checks) is replaced, so a departed caller never keeps its share or the worker.
   */
  private cancelRunning(slot: Slot, job: Job): void {
    Atomics.store(slot.cancel, 0, 1);
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      if (slot.job !== job) return;
      this.finish(slot, job);
      job.reject(new EngineCancelledError('The caller went away.'));
      this.replace(slot);
    }, CANCEL_GRACE_MS);
  }

  /** `ranMs`: how long a job that answered ran (the scheduler marks callers of long ones heavy). */
  private finish(slot: Slot, job: Job, ranMs?: number): void {
    job.detach?.();
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    this.queues[job.lane].done(job, ranMs);
  }

  private reject(job: Job, e: Error): void {
    job.detach?.();
    if (job.waitTimer) clearTimeout(job.waitTimer);
    job.reject(e);
  }

  /** Starts waiting jobs on the lane's free workers, starting a worker while the lane has fewer than its count. */
  private pump(lane: Lane): void {
    for (;;) {
      const free = this.slots.find((s) => s.lane === lane && !s.job);
      if (!free && this.slots.filter((s) => s.lane === lane).length >= this.counts[lane]) return;
      const job = this.queues[lane].take();
      if (!job) return;
      const slot = free ?? this.spawn(lane);
      if (!free) this.slots.push(slot);
      if (job.waitTimer) clearTimeout(job.waitTimer);
      slot.job = job;
      this.opts.logger.debug(`engine: ${lane} job ${job.id} of ${job.caller} started`);
      void slot.ready.then(() => {
        if (slot.job !== job) return;
        // From here, not from the wait for a starting worker: how long it ran marks its caller heavy.
        job.startedAt = Date.now();
        Atomics.store(slot.cancel, 0, 0);
        slot.worker.postMessage({ id: job.id, req: job.req });
        if (job.hardLimitMs !== undefined) {
          // The progress handler stops a query at its deadline; this is the backstop for
          // anything it cannot reach: end the thread and start a fresh one.
          slot.timer = setTimeout(() => {
            if (slot.job !== job) return;
            this.finish(slot, job);
            job.reject(new EngineTimeoutError('The query did not stop at its deadline and was killed.'));
            this.replace(slot);
          }, job.hardLimitMs);
        }
      });
    }
  }

  private run<T>(
    lane: Lane,
    caller: string,
    req: EngineRequest,
    timing: { hardLimitMs?: number; expectedMs?: number } = {},
    signal?: AbortSignal,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new EngineShutDownError());
    if (this.broken) return Promise.reject(this.broken);
    if (signal?.aborted) return Promise.reject(new EngineCancelledError('The caller went away.'));
    return new Promise<T>((resolve, reject) => {
      const job: Job = { id: this.nextId++, req, lane, caller, ...timing, resolve: resolve as (v: unknown) => void, reject };
      const queue = this.queues[lane];
      if (signal) {
        // Waiting: leave the queue. Running: ask the worker to stop; it answers at once.
        const onAbort = (): void => {
          if (queue.remove(job)) {
            this.reject(job, new EngineCancelledError('The caller went away.'));
            return;
          }
          const slot = this.slots.find((s) => s.job === job);
          if (slot) this.cancelRunning(slot, job);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        job.detach = () => signal.removeEventListener('abort', onAbort);
      }
      if (!queue.push(job)) {
        job.detach?.();
        reject(this.busy(lane, caller));
        return;
      }
      this.opts.logger.debug(`engine: ${lane} job ${job.id} of ${job.caller} queued`);
      if (lane === 'query') {
        job.waitTimer = setTimeout(() => {
          if (queue.remove(job)) this.reject(job, this.busy(lane, caller));
        }, this.queryWaitMs);
        job.waitTimer.unref();
      }
      this.pump(lane);
    });
  }

  private busy(lane: Lane, caller: string): EngineBusyError {
    const running = this.slots.flatMap((s) => (s.lane === lane && s.job ? [s.job] : []));
    return new EngineBusyError(busyMessage(this.queues[lane], caller), retryAfterSeconds(this.queues[lane], caller, running, Date.now()));
  }

  file(key: string, path: string): DbFile {
    return { key, path, version: this.versions.get(key) ?? 1 };
  }

  /** Runs `fn` while holding the write lock of every key, in a fixed order to avoid deadlock. */
  withLocks<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
    return this.locks.withLocks(keys, fn);
  }

  /**
   * A caller's read-only SQL, in the query lane under that caller's share. `signal` aborts it
   * when the caller goes away: waiting, it leaves the queue; running, it stops at the next step.
   */
  query(
    key: string,
    path: string,
    dbName: string,
    ref: Revision,
    sql: string,
    limit: number,
    timeoutMs: number,
    caller: string = HUB_CALLER,
    signal?: AbortSignal,
  ): Promise<EngineQueryResult> {
    const req: EngineRequest = {
      op: 'query',
      db: this.file(key, path),
      ref,
      sql,
      limit,
      timeoutMs,
      dbName,
      maxBytes: this.opts.resultBytes ?? ENGINE_DEFAULTS.resultBytes,
      maxValueBytes: this.opts.valueBytes ?? ENGINE_DEFAULTS.valueBytes,
      maxMemoryBytes: this.opts.queryMemoryBytes ?? ENGINE_DEFAULTS.queryMemoryBytes,
      rawRows: true,
    };
    return this.run<EngineQueryResult>('query', caller, req, { hardLimitMs: timeoutMs + 5000, expectedMs: timeoutMs }, signal);
  }

  async branches(key: string, path: string): Promise<BranchRow[]> {
    const version = this.versions.get(key) ?? 1;
    const cached = this.listCache.get(key);
    if (cached?.version === version && cached.branches) return [...cached.branches];
    const rows = await this.run<BranchRow[]>('meta', HUB_CALLER, { op: 'read', db: this.file(key, path), what: 'branches' });
    this.remember(key, version, { branches: rows });
    return [...rows];
  }

  async tags(key: string, path: string): Promise<TagRow[]> {
    const version = this.versions.get(key) ?? 1;
    const cached = this.listCache.get(key);
    if (cached?.version === version && cached.tags) return [...cached.tags];
    const rows = await this.run<TagRow[]>('meta', HUB_CALLER, { op: 'read', db: this.file(key, path), what: 'tags' });
    this.remember(key, version, { tags: rows });
    return [...rows];
  }

  /** Caches a listing read at `version`; a write since then makes it stale and it is not kept. */
  private remember(key: string, version: number, lists: { branches?: BranchRow[]; tags?: TagRow[] }): void {
    if ((this.versions.get(key) ?? 1) !== version) return;
    const cur = this.listCache.get(key);
    this.listCache.set(key, cur?.version === version ? { ...cur, ...lists } : { version, ...lists });
  }

  async resolve(key: string, path: string, ref: Revision): Promise<string | null> {
    const r = await this.run<{ hashHex: string | null }>('meta', HUB_CALLER, { op: 'read', db: this.file(key, path), what: 'commit', ref });
    return r.hashHex;
  }

  /** Callers hold the lock of `key` (see withLocks). Imports and merges run in the operation lane. */
  async write(key: string, path: string, author: Author, script: WriteScript): Promise<WriteResult> {
    const next = (this.versions.get(key) ?? 1) + 1;
    const lane: Lane = script.kind === 'import' || script.kind === 'merge' || script.kind === 'sql' ? 'operation' : 'meta';
    try {
      return await this.run<WriteResult>(lane, author.name, { op: 'write', db: this.file(key, path), nextVersion: next, author, script });
    } finally {
      // Success: the writing worker holds `next`; failure: it dropped its copy. Either way every
      // other worker reloads from disk on its next use, and cached listings are stale.
      this.versions.set(key, next);
    }
  }

  /** Marks a database file as replaced behind the engine's back (fork copy, restore). */
  invalidate(key: string): void {
    this.versions.set(key, (this.versions.get(key) ?? 1) + 1);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const l of LANES) for (const j of this.queues[l].drain()) this.reject(j, new EngineShutDownError());
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
