// What a command or view acts on, as plain data: the one declaration every feature shares.
import type { DatabaseRef } from '../shared/wire';

/** A database on a host. */
export interface DatabaseTarget {
  readonly hostId: string;
  readonly db: DatabaseRef;
}

/** A pull request of a database on a host. */
export interface PullTarget extends DatabaseTarget {
  readonly pullNumber: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function databaseRefOf(v: unknown): DatabaseRef | undefined {
  return isRecord(v) && typeof v['owner'] === 'string' && typeof v['name'] === 'string'
    ? { owner: v['owner'], name: v['name'] }
    : undefined;
}

/**
 * The one parser of a command argument that names a database as plain data: `{ hostId, db }` or
 * `{ hostId, database }` (views, programmatic callers, requests' `target`). Tree nodes are read by
 * src/tree/databaseTargets.ts first, which falls back to this.
 */
export function parseDatabaseTarget(v: unknown): DatabaseTarget | undefined {
  if (!isRecord(v) || typeof v['hostId'] !== 'string' || v['hostId'] === '') return undefined;
  const db = databaseRefOf(v['db']) ?? databaseRefOf(v['database']);
  return db ? { hostId: v['hostId'], db } : undefined;
}
