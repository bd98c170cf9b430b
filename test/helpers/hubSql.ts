// Read-only SQL through a test hub's API, the way the extension sends it: POST …/sql at a ref.
// `query` returns the QueryResult whatever its status; `ok` also asserts the status is success.
// With `retryBusy`, a 429 is sent again after its Retry-After, as the extension's client does
// (src/api/hubClient.ts): for tests that send more reads at once than the hub admits. The SQL port
// (`hubSqlPort`) always does, as the extension's features run through that client.
import assert from 'node:assert/strict';
import type { QueryResult } from '../../src/shared/wire';
import type { HubHandle } from './hub';
import { SqlPort, type SqlEndpoint } from '../../src/core/sql/sqlPort';

export interface HubSql {
  query(q: string, ref?: string, limit?: number): Promise<QueryResult>;
  ok(q: string, ref?: string, limit?: number): Promise<QueryResult>;
}

/** POST …/sql; with `retryBusy`, a 429 is sent again after its Retry-After (1-60 s), up to 20 times. */
async function postSql(
  hub: () => HubHandle,
  db: string,
  user: string,
  json: { ref: string; q: string; limit?: number; timeout_ms?: number },
  retryBusy: boolean,
): Promise<QueryResult> {
  let r = await hub().fetch(`/databases/${db}/sql`, { user, json });
  for (let attempt = 1; retryBusy && r.status === 429 && attempt <= 20; attempt++) {
    const after = Number(r.headers.get('retry-after'));
    assert.ok(after >= 1 && after <= 60, `a 429 carries a Retry-After of 1-60 s, got ${r.headers.get('retry-after')}`);
    await new Promise((done) => setTimeout(done, after * 1000));
    r = await hub().fetch(`/databases/${db}/sql`, { user, json });
  }
  assert.equal(r.status, 200, `HTTP ${r.status} for ${json.q}: ${r.text}`);
  return r.body.data as QueryResult;
}

export function hubSql(hub: () => HubHandle, db: string, user = 'alice', opts: { retryBusy?: boolean } = {}): HubSql {
  const query = async (q: string, ref = 'main', limit = 10000): Promise<QueryResult> =>
    postSql(hub, db, user, { ref, q, limit }, !!opts.retryBusy);
  const ok = async (q: string, ref = 'main', limit = 10000): Promise<QueryResult> => {
    const d = await query(q, ref, limit);
    assert.equal(d.status, 'success', `${q} at ${ref}: ${d.message}`);
    return d;
  };
  return { query, ok };
}

/**
 * The extension's SQL port (src/core/sql/sqlPort.ts) over a test hub, as `user`: what features
 * use, with the hub's answer as it comes (a 429 waited out as the extension's client does; any
 * other non-200 answer fails the test). `timeoutMs` is the
 * setting every request carries; `sent` records each request's body.
 */
export function hubSqlPort(
  hub: () => HubHandle,
  opts: { user?: string; timeoutMs?: number; rowLimit?: number; sent?: Record<string, unknown>[] } = {},
): SqlPort {
  const endpoint: SqlEndpoint = {
    runSql: async (db, query) => {
      const json = { ref: query.ref, q: query.q, limit: query.limit, timeout_ms: query.timeoutMs };
      opts.sent?.push(json);
      return postSql(hub, `${db.owner}/${db.name}`, opts.user ?? 'alice', json, true);
    },
  };
  return new SqlPort(
    () => endpoint,
    () => ({ timeoutMs: opts.timeoutMs ?? 30_000, rowLimit: opts.rowLimit ?? 1000 }),
  );
}
