// What the hub's endpoint modules share with the server that hosts them. Nothing here imports
// the server, so endpoint modules and the server never import each other.
import type { Ctx } from './http';
import type { Author } from './engineProtocol';
import type { Engine, EngineOptions } from './engine';
import type { Logger } from '../core/logger';
import type { BranchRef, Operation, OperationRef, OperationResult } from '../shared/wire';
import type { DatabaseRecord, OperationRecord, PullRecord, Store, UserRecord } from './store';
import type { Paginator } from './pagination';

export interface HubOptions {
  dataDir: string;
  host: string;
  port: number;
  uploadPort?: number;
  pageSize: number;
  maxRows: number;
  uploadTtlSeconds: number;
  logger: Logger;
  workerScript: string;
  workerExecArgv?: string[];
  /** The origin (and path prefix) clients reach the hub at, for `href`s; default the listening address. */
  publicUrl?: string;
  /** Request bodies (JSON, forms) the hub holds at once, in all; past it 503 (bodyBudget.ts). */
  bodyMemoryBytes?: number;
  /** Lanes, caller shares and byte budgets of the engine (see engine.ts). */
  engine?: Omit<EngineOptions, 'workerScript' | 'workerExecArgv' | 'logger'>;
  /**
   * Milliseconds since the epoch, for upload sessions and their part URLs' expiry. Default
   * `Date.now`; a test that runs the hub in its process passes its own to move time on without
   * sleeping. No command-line flag sets it.
   */
  clock?: () => number;
}

export const API = '/api/v2';

/** Every database-scoped route starts with this template. */
export const DB = '/databases/:owner/:db';

export interface Caller {
  user: UserRecord;
}

/** A database the caller was allowed to reach, and who the caller is. */
export interface Access {
  rec: DatabaseRecord;
  key: string;
  path: string;
  caller?: Caller;
}

/** The server as endpoint modules see it. */
export interface EndpointHost {
  readonly store: Store;
  readonly engine: Engine;
  readonly opts: HubOptions;
  readonly uploadUrl: string;
  readonly paginator: Paginator;
  caller(ctx: Ctx): Caller | undefined;
  requireCaller(ctx: Ctx): Caller;
  canRead(rec: DatabaseRecord, caller?: Caller): boolean;
  canWrite(rec: DatabaseRecord, caller?: Caller): boolean;
  /** May `username` create databases (or forks) under `owner`? */
  canCreateUnder(owner: string, username: string): boolean;
  access(ctx: Ctx, p: Record<string, string>, need: 'read' | 'write' | 'auth-read'): Access;
  author(c: Caller): Author;
  touch(key: string): void;
  branchNames(a: Access): Promise<Set<string>>;
  newOperation(key: string, type: Operation['type'], c: Caller): OperationRecord;
  runOperation(op: OperationRecord, work: () => Promise<OperationResult>): void;
  operationRef(ctx: Ctx, op: OperationRecord): OperationRef;
  addPull(key: string, creator: string, title: string, description: string, from: BranchRef, to: BranchRef): PullRecord;
}

/** A failure an operation records as its OperationError. */
export class OpFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    detail: string,
  ) {
    super(detail);
  }
}

export function now(): string {
  return new Date().toISOString();
}

export function pageToken(ctx: Ctx): string | null {
  const u = new URL(ctx.req.url ?? '/', 'http://hub.invalid');
  const t = u.searchParams.get('page_token');
  return t === null || t === '' ? null : t;
}

/** DoltLite prints `YYYY-MM-DD HH:MM:SS` in UTC. */
export function doltDateToIso(d: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(d);
  return m ? `${m[1]}T${m[2]}Z` : undefined;
}
