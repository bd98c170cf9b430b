// Read-only SQL through a test hub's API, the way the extension sends it: POST …/sql at a ref.
// `query` returns the QueryResult whatever its status; `ok` also asserts the status is success.
import assert from 'node:assert/strict';
import type { QueryResult } from '../../src/shared/wire';
import type { HubHandle } from './hub';

export interface HubSql {
  query(q: string, ref?: string, limit?: number): Promise<QueryResult>;
  ok(q: string, ref?: string, limit?: number): Promise<QueryResult>;
}

export function hubSql(hub: () => HubHandle, db: string, user = 'alice'): HubSql {
  const query = async (q: string, ref = 'main', limit = 10000): Promise<QueryResult> => {
    const r = await hub().fetch(`/databases/${db}/sql`, { user, json: { ref, q, limit } });
    assert.equal(r.status, 200, `HTTP ${r.status} for ${q}: ${r.text}`);
    return r.body.data as QueryResult;
  };
  const ok = async (q: string, ref = 'main', limit = 10000): Promise<QueryResult> => {
    const d = await query(q, ref, limit);
    assert.equal(d.status, 'success', `${q} at ${ref}: ${d.message}`);
    return d;
  };
  return { query, ok };
}
