// The one way every feature runs SQL at a target: notebooks, Load All Rows, the tree's Tables and
// Commits, the table browser, the Changes view, history, row history, pull checks and previews,
// imports' questions, proposing changes. It applies the user's settings once, on every run, so a
// changed setting reaches the next query of every feature:
//
// - `timeoutMs` (versionedDb.sql.timeoutMs) goes with every request as the server's deadline;
// - `rowLimit` (versionedDb.sql.rowLimit) bounds the user's own queries (`userQuery`: notebook
//   cells, the SQL panel); a feature's own query states its limit (a page of 500 rows asks for 501,
//   a review query without one gets the API's default, 1000), so a small row-limit setting never
//   cuts the tree's or a diff's lists short;
// - cancellation: the caller's AbortSignal reaches the request, and a cancelled run rejects with
//   the signal's reason (an AbortError), never with a result;
// - 429/503 with Retry-After: the API transport waits and sends again (GET and, for SQL, POST,
//   which only reads), so no feature writes a retry loop of its own.
//
// No vscode, no API import: the API client satisfies `SqlEndpoint` structurally; unit tests pass a
// fake, and src/auth/accountServices.ts builds the one instance the extension uses.
import type { DatabaseRef, QueryResult } from '../../shared/wire';

/** Where SQL runs: one database of one host (its active account signs), at a branch, tag or commit hash. */
export interface SqlTarget {
  readonly hostId: string;
  readonly db: DatabaseRef;
  /** A branch, tag or commit hash: the API's `ref`. */
  readonly ref: string;
}

/** The settings that shape every run. */
export interface SqlRunSettings {
  readonly timeoutMs: number;
  readonly rowLimit: number;
}

export interface SqlRunOptions {
  /** Rows the server may send. */
  readonly limit: number;
  readonly signal?: AbortSignal | undefined;
}

/** The API's default row limit (seed-api-v2.md 4.2): what a review query gets when it names none. */
export const DEFAULT_SQL_LIMIT = 1000;

/** The API call the port sends through (HubClient's `runSql`). */
export interface SqlEndpoint {
  runSql(
    db: DatabaseRef,
    query: { ref: string; q: string; limit?: number; timeoutMs?: number },
    opts?: { signal?: AbortSignal },
  ): Promise<QueryResult>;
}

/** SQL at one fixed target (a table browser's commit, a catalog read). */
export type SqlRunner = (sql: string, opts: SqlRunOptions) => Promise<QueryResult>;

/** A statement with the ref it must run at (the review builders' `DoltQuery`). */
export interface SqlAt {
  readonly sql: string;
  readonly at: string;
}

/** Review queries on one database: each query names its own ref. Non-success answers come back as they are. */
export type ReviewRunner = (query: SqlAt, opts?: Partial<SqlRunOptions>) => Promise<QueryResult>;

export class SqlPort {
  constructor(
    private readonly endpointFor: (hostId: string) => SqlEndpoint,
    private readonly settings: () => SqlRunSettings,
  ) {}

  /** The settings a run starts with now (the notebook shows the limit it ran with). */
  get current(): SqlRunSettings {
    return this.settings();
  }

  /** Runs a feature's statement at `target`. HTTP failures reject with the API's error; SQL failures are results. */
  async run(target: SqlTarget, sql: string, opts: SqlRunOptions): Promise<QueryResult> {
    const { timeoutMs } = this.settings();
    opts.signal?.throwIfAborted();
    return this.endpointFor(target.hostId).runSql(
      { owner: target.db.owner, name: target.db.name },
      { ref: target.ref, q: sql, limit: opts.limit, timeoutMs },
      opts.signal ? { signal: opts.signal } : {},
    );
  }

  /** Runs the user's own statement (a notebook cell, the SQL panel), bounded by the row-limit setting. */
  userQuery(target: SqlTarget, sql: string, opts: { signal?: AbortSignal | undefined } = {}): Promise<QueryResult> {
    return this.run(target, sql, { limit: this.settings().rowLimit, signal: opts.signal });
  }

  /** A runner bound to one target. */
  at(target: SqlTarget): SqlRunner {
    return (sql, opts) => this.run(target, sql, opts);
  }

  /** Review queries on one database, each at the ref its builder chose. */
  review(hostId: string, db: DatabaseRef): ReviewRunner {
    return (query, opts = {}) =>
      this.run({ hostId, db, ref: query.at }, query.sql, { limit: opts.limit ?? DEFAULT_SQL_LIMIT, signal: opts.signal });
  }
}
