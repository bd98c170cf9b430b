// Runs one SQL statement at a target and packages the answer for the grid. No vscode here:
// the notebook controller and the .sql result panel both call it, and unit tests drive it
// with a fake client.
import type { Branch, QueryResult, Tag } from '../shared/wire';
import type { DbRef, Page, PageOptions, RequestOptions } from '../api/index';
import type { SqlPort } from '../core/sql/sqlPort';
import { paginate } from '../api/pagination';
import type { QueryOutput, QueryTarget } from '../shared/queryResultOutput';
import { looksLikeCommit, type RefResolution } from '../core/sql/refs';

/** The part of HubClient ref resolution uses. */
export interface RefLister {
  listBranches(db: DbRef, page?: PageOptions, opts?: RequestOptions): Promise<Page<Branch>>;
  listTags(db: DbRef, page?: PageOptions, opts?: RequestOptions): Promise<Page<Tag>>;
}

async function findIn<T>(fetch: (token: string | undefined) => Promise<Page<T>>, match: (t: T) => boolean): Promise<T | undefined> {
  for await (const item of paginate(fetch)) if (match(item)) return item;
  return undefined;
}

/**
 * What a ref names and the commit it points at now. Branches are looked up first (a branch
 * wins over a tag of the same name), stopping at the page that has it. Cached briefly so a
 * notebook of many cells does not list branches once per cell.
 */
export class RefResolver {
  private readonly cache = new Map<string, { at: number; value: RefResolution }>();

  constructor(
    private readonly clientFor: (hostId: string) => RefLister,
    private readonly ttlMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async resolve(target: QueryTarget, opts: RequestOptions & { fresh?: boolean } = {}): Promise<RefResolution> {
    const key = `${target.hostId}\u0000${target.owner}/${target.name}\u0000${target.ref}`;
    const hit = this.cache.get(key);
    if (hit && !opts.fresh && this.now() - hit.at < this.ttlMs) return hit.value;
    const value = await this.lookup(target, opts.signal);
    this.cache.set(key, { at: this.now(), value });
    return value;
  }

  private async lookup(target: QueryTarget, signal?: AbortSignal): Promise<RefResolution> {
    if (looksLikeCommit(target.ref)) return { kind: 'commit', commit: target.ref };
    const client = this.clientFor(target.hostId);
    const db = { owner: target.owner, name: target.name };
    const branch = await findIn(
      (pageToken) => client.listBranches(db, { pageToken, signal }, { signal }),
      (b) => b.name === target.ref,
    );
    if (branch) return { kind: 'branch', commit: branch.head_commit_sha };
    const tag = await findIn(
      (pageToken) => client.listTags(db, { pageToken, signal }, { signal }),
      (t) => t.name === target.ref,
    );
    if (tag) return { kind: 'tag', commit: tag.commit_sha };
    return { kind: 'unknown' };
  }

  forget(): void {
    this.cache.clear();
  }
}

export interface RunQueryOptions {
  signal?: AbortSignal;
  /** The commit the ref pointed at just before the run (from RefResolver), if known. */
  commit?: string;
  hostLabel?: string;
  now?: () => number;
}

/** Runs the user's `sql` at `target` through the SQL port (row limit and timeout from the settings). HTTP failures throw ApiError. */
export async function runQuery(
  port: Pick<SqlPort, 'userQuery' | 'current'>,
  target: QueryTarget,
  sql: string,
  opts: RunQueryOptions = {},
): Promise<QueryOutput> {
  const now = opts.now ?? Date.now;
  const started = now();
  const { rowLimit } = port.current;
  const result = await port.userQuery({ hostId: target.hostId, db: { owner: target.owner, name: target.name }, ref: target.ref }, sql, {
    signal: opts.signal,
  });
  const finished = now();
  return {
    v: 1,
    result: normalizeResult(result),
    sql,
    target: { ...target },
    ...(opts.hostLabel ? { hostLabel: opts.hostLabel } : {}),
    ...(opts.commit ? { commit: opts.commit } : {}),
    ranAt: new Date(finished).toISOString(),
    elapsedMs: finished - started,
    limit: rowLimit,
  };
}

/**
 * Makes a result safe for the grid whatever the server sent: arrays where arrays belong,
 * rows as long as the columns, cells as string or null.
 */
export function normalizeResult(r: QueryResult): QueryResult {
  const columns = Array.isArray(r.columns) ? r.columns : [];
  const rows = Array.isArray(r.rows) ? r.rows : [];
  const width = columns.length;
  const ok = (row: unknown): boolean => Array.isArray(row) && row.length === width && row.every((v) => v === null || typeof v === 'string');
  // Rows are only copied when they need fixing: a large result is not duplicated for nothing.
  const fixed = rows.map((row) => {
    if (ok(row)) return row;
    const src: unknown[] = Array.isArray(row) ? row : [];
    const out = new Array<string | null>(width);
    for (let i = 0; i < width; i++) {
      const v = src[i];
      out[i] = v === null || v === undefined ? null : typeof v === 'string' ? v : String(v);
    }
    return out;
  });
  const status = typeof r.status === 'string' ? r.status : 'error';
  const message = typeof r.message === 'string' ? r.message : status === 'success' ? '' : `The server answered with status ${status}.`;
  return { ...r, columns, rows: fixed, status, message };
}
