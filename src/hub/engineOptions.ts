// The engine's options and defaults, and the memory a worker may reach before it is replaced.
import type { Logger } from '../core/logger';
import type { FairQueueLimits } from './scheduler';

/** The engine's lanes, each with workers of its own (engine.ts says what runs in which). */
export type Lane = 'meta' | 'query' | 'operation';

export interface QueryLaneLimits extends FairQueueLimits {
  /** How long a query may wait for a worker before it is refused. */
  maxWaitMs: number;
}

export interface EngineOptions {
  /** Script that, started as a worker with workerData.role 'doltlite-engine', runs runEngineWorker(). */
  workerScript: string;
  workerExecArgv?: string[];
  /**
   * Workers per lane (default meta 1, query 2, operation 1). The meta and query workers start
   * with the engine; the operation worker on its first job or when an import's upload begins
   * (Engine.warm).
   */
  workers?: Partial<Record<Lane, number>>;
  queryLimits?: Partial<QueryLaneLimits>;
  /** Budget of one query result, in bytes of cell text (default 32 MiB). */
  resultBytes?: number;
  /** Largest single value a query may produce or read, in bytes (default 16 MiB). */
  valueBytes?: number;
  /**
   * Memory one query may allocate for sorting, grouping and building values, besides the page
   * caches it reads through (default 256 MiB; queryMemory.ts).
   */
  queryMemoryBytes?: number;
  /**
   * A worker whose memory passes this after a job, plus room for the database files it holds
   * (workerMemoryLimit), is replaced (default 512 MiB).
   */
  workerMemoryBytes?: number;
  logger: Logger;
}

export const ENGINE_DEFAULTS = {
  workers: { meta: 1, query: 2, operation: 1 } as Record<Lane, number>,
  maxQueuedPerCaller: 32,
  maxQueued: 256,
  maxWaitMs: 2000,
  /** A query that ran longer makes its caller heavy (scheduler.ts). */
  heavyQueryMs: 1000,
  resultBytes: 32 * 1024 * 1024,
  valueBytes: 16 * 1024 * 1024,
  queryMemoryBytes: 256 * 1024 * 1024,
  workerMemoryBytes: 512 * 1024 * 1024,
};

/** Workers each lane may have: the defaults, as configured, at least one. */
export function laneCounts(workers: Partial<Record<Lane, number>> = {}): Record<Lane, number> {
  const c = { ...ENGINE_DEFAULTS.workers, ...workers };
  return { meta: Math.max(1, c.meta), query: Math.max(1, c.query), operation: Math.max(1, c.operation) };
}

/** The query lane's fair queue for `queryWorkers` workers. */
export function queryQueueLimits(queryWorkers: number, q: Partial<QueryLaneLimits>): FairQueueLimits {
  return {
    // With one query worker a caller may use it; with more, one is always left to the others.
    maxRunningPerCaller: q.maxRunningPerCaller ?? Math.max(1, queryWorkers - 1),
    maxQueuedPerCaller: q.maxQueuedPerCaller ?? ENGINE_DEFAULTS.maxQueuedPerCaller,
    maxQueued: q.maxQueued ?? ENGINE_DEFAULTS.maxQueued,
    maxRunningHeavy: Math.max(1, queryWorkers - 1),
    heavyMs: ENGINE_DEFAULTS.heavyQueryMs,
  };
}

/**
 * The memory a worker may reach before it is replaced: the configured limit for the engine
 * itself, plus room for the largest database it holds (`dataBytes`: that file and the worker's
 * scratch copies). The file is in its memory once, and a kept connection's page cache may hold
 * about as much again (engineWorker.ts); with a fixed limit, a worker reading a large database
 * passed it on every job and was replaced, paying a fresh start and a fresh load on the next page.
 */
export function workerMemoryLimit(workerMemoryBytes: number, dataBytes: number): number {
  return workerMemoryBytes + 3 * dataBytes;
}
