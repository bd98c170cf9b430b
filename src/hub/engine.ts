// Main-thread side of the DoltLite engine: a small pool of worker threads, a write lock per
// database and a version per database so each worker knows when its cached copy is stale.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../core/logger';
import type { QueryResult } from '../shared/wire';
import type { Author, BranchRow, DbFile, EngineRequest, EngineResponse, Revision, TagRow, WriteResult, WriteScript } from './engineProtocol';

interface Job {
  id: number;
  req: EngineRequest;
  hardLimitMs?: number;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  isReady: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

export interface EngineOptions {
  /** Script that, started as a worker with workerData.role 'doltlite-engine', runs runEngineWorker(). */
  workerScript: string;
  workerExecArgv?: string[];
  poolSize?: number;
  logger: Logger;
}

export class EngineTimeoutError extends Error {}

export class Engine {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly versions = new Map<string, number>();
  private readonly locks = new Map<string, Promise<unknown>>();
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
    const n = opts.poolSize ?? 2;
    for (let i = 0; i < n; i++) this.slots.push(this.spawn());
  }

  /** Resolves when every worker has loaded DoltLite; rejects if they cannot. */
  ready(): Promise<void> {
    return Promise.race([Promise.all(this.slots.map((s) => s.ready)).then(() => undefined), this.brokenSignal]);
  }

  private spawn(): Slot {
    const worker = new Worker(this.opts.workerScript, {
      workerData: { role: 'doltlite-engine' },
      execArgv: this.opts.workerExecArgv ?? [],
      stdout: true,
      stderr: true,
    });
    // Engine chatter must never reach the CLI's stdout (it prints exactly one line).
    worker.stdout.resume();
    worker.stderr.on('data', (d: Buffer) => this.opts.logger.debug(`engine: ${d.toString().trim()}`));
    let markReady: () => void = () => undefined;
    const ready = new Promise<void>((r) => (markReady = r));
    const slot: Slot = { worker, ready, isReady: false };
    worker.on('message', (msg: EngineResponse | { ready: true }) => {
      if ('ready' in msg) {
        slot.isReady = true;
        this.startFailures = 0;
        markReady();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      this.finish(slot);
      if (msg.ok) job.resolve(msg.value);
      else job.reject(new Error(msg.message));
      this.pump();
    });
    const onDeath = (err?: Error): void => {
      const job = slot.job;
      this.finish(slot);
      if (job) job.reject(err ?? new Error('The database engine stopped unexpectedly.'));
      if (!slot.isReady && this.slots.includes(slot) && ++this.startFailures >= 3 && !this.broken) {
        this.broken = new Error(`The database engine could not start: ${err?.message ?? 'its worker exited'}`);
        this.markBroken(this.broken);
        for (const j of this.queue.splice(0)) j.reject(this.broken);
      }
      if (!this.closed && !this.broken) {
        const i = this.slots.indexOf(slot);
        if (i >= 0) this.slots[i] = this.spawn();
        this.pump();
      }
    };
    worker.on('error', (e) => {
      this.opts.logger.error(e);
      onDeath(e);
    });
    worker.on('exit', () => onDeath());
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift() as Job;
      slot.job = job;
      void slot.ready.then(() => {
        if (slot.job !== job) return;
        slot.worker.postMessage({ id: job.id, req: job.req });
        if (job.hardLimitMs !== undefined) {
          // The progress handler stops a query at its deadline; this is the backstop for
          // anything it cannot reach: end the thread and start a fresh one.
          slot.timer = setTimeout(() => {
            if (slot.job !== job) return;
            slot.job = undefined;
            job.reject(new EngineTimeoutError('The query did not stop at its deadline and was killed.'));
            void slot.worker.terminate();
          }, job.hardLimitMs);
        }
      });
    }
  }

  private run<T>(req: EngineRequest, hardLimitMs?: number): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The engine is shut down.'));
    if (this.broken) return Promise.reject(this.broken);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, req, hardLimitMs, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  file(key: string, path: string): DbFile {
    return { key, path, version: this.versions.get(key) ?? 1 };
  }

  /** Runs `fn` while holding the write lock of every key, in a fixed order to avoid deadlock. */
  async withLocks<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const acquire = async (i: number): Promise<T> => {
      if (i >= sorted.length) return fn();
      const key = sorted[i] as string;
      const prev = this.locks.get(key) ?? Promise.resolve();
      let release: () => void = () => undefined;
      const mine = new Promise<void>((r) => (release = r));
      const chained = prev.then(() => mine);
      this.locks.set(key, chained);
      await prev.catch(() => undefined);
      try {
        return await acquire(i + 1);
      } finally {
        release();
        if (this.locks.get(key) === chained) this.locks.delete(key);
      }
    };
    return acquire(0);
  }

  query(key: string, path: string, dbName: string, ref: Revision, sql: string, limit: number, timeoutMs: number): Promise<QueryResult> {
    return this.run<QueryResult>({ op: 'query', db: this.file(key, path), ref, sql, limit, timeoutMs, dbName }, timeoutMs + 5000);
  }

  branches(key: string, path: string): Promise<BranchRow[]> {
    return this.run<BranchRow[]>({ op: 'read', db: this.file(key, path), what: 'branches' });
  }

  tags(key: string, path: string): Promise<TagRow[]> {
    return this.run<TagRow[]>({ op: 'read', db: this.file(key, path), what: 'tags' });
  }

  async resolve(key: string, path: string, ref: Revision): Promise<string | null> {
    const r = await this.run<{ hashHex: string | null }>({ op: 'read', db: this.file(key, path), what: 'commit', ref });
    return r.hashHex;
  }

  /** Callers hold the lock of `key` (see withLocks). */
  async write(key: string, path: string, author: Author, script: WriteScript): Promise<WriteResult> {
    const next = (this.versions.get(key) ?? 1) + 1;
    const result = await this.run<WriteResult>({ op: 'write', db: this.file(key, path), nextVersion: next, author, script });
    // Success: the writing worker holds `next`; failure: it dropped its copy. Either way every
    // other worker reloads from disk on its next use.
    this.versions.set(key, next);
    return result;
  }

  /** Marks a database file as replaced behind the engine's back (fork copy, restore). */
  invalidate(key: string): void {
    this.versions.set(key, (this.versions.get(key) ?? 1) + 1);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(new Error('The engine is shut down.'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
