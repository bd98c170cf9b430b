// Sending one review query (src/core/review/doltQueries.ts) to a database's SQL endpoint, at the
// ref the builder names. No vscode, no API import: the API client satisfies `ReviewSqlClient`
// structurally, and unit tests pass a fake.
import type { DatabaseRef, QueryResult } from '../../shared/wire';
import type { DoltQuery } from './doltQueries';

/** The part of the API client a review query needs (HubClient's `runSql`). */
export interface ReviewSqlClient {
  runSql(
    db: DatabaseRef,
    query: { ref: string; q: string; limit?: number; timeoutMs?: number },
    opts?: { signal?: AbortSignal },
  ): Promise<QueryResult>;
}

export interface ReviewRunOptions {
  signal?: AbortSignal;
  /** Rows the server may send (a paged query asks for one more than its page). */
  limit?: number;
}

/** Runs review queries on one database. Non-success answers come back as they are, for the parsers to judge. */
export type RunReview = (query: DoltQuery, opts?: ReviewRunOptions) => Promise<QueryResult>;

export function reviewRunner(client: ReviewSqlClient, db: DatabaseRef, defaults: { limit?: number; timeoutMs?: number } = {}): RunReview {
  return (query, opts = {}) => {
    const limit = opts.limit ?? defaults.limit;
    return client.runSql(
      { owner: db.owner, name: db.name },
      {
        ref: query.at,
        q: query.sql,
        ...(limit !== undefined ? { limit } : {}),
        ...(defaults.timeoutMs !== undefined ? { timeoutMs: defaults.timeoutMs } : {}),
      },
      opts.signal ? { signal: opts.signal } : {},
    );
  };
}
