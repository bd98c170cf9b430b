// The one SQL port (src/core/sql/sqlPort.ts) over the real API client and a loopback server: the
// settings of the moment go with every request, in both the GET and the large-query POST form; a
// 429 with Retry-After is waited out and sent again in both forms; a cancelled run sends nothing
// more and rejects with the abort.
import { strict as assert } from 'node:assert';
import { HubClient } from '../../../../src/api/index';
import { SqlPort, type SqlRunSettings } from '../../../../src/core/sql/sqlPort';
import { sendJson, startLoopback, type Loopback } from '../../../helpers/loopback';
import { FakeTiming } from '../../api/fakes';

const db = { owner: 'alice', name: 'prices' };
const answer = { data: { status: 'success', columns: [{ name: 'n', type: 'int' }], rows: [['1']] } };
const problem = (status: number, code: string) => ({ title: code, status, code, request_id: 'r' });

/** What the server saw of one request: method, ref, q, limit and timeout_ms from the query string or the body. */
interface Seen {
  method: string;
  ref: unknown;
  q: unknown;
  limit: unknown;
  timeout: unknown;
}

function seenOf(method: string, url: string, body: string): Seen {
  if (method === 'GET') {
    const p = new URL(url, 'http://x').searchParams;
    const n = (k: string) => (p.get(k) === null ? undefined : Number(p.get(k)));
    return { method, ref: p.get('ref'), q: p.get('q'), limit: n('limit'), timeout: n('timeout_ms') };
  }
  const j = JSON.parse(body) as Record<string, unknown>;
  return { method, ref: j['ref'], q: j['q'], limit: j['limit'], timeout: j['timeout_ms'] };
}

describe('SqlPort: one way to run SQL at a target', () => {
  let server: Loopback | undefined;
  const seen: Seen[] = [];
  let script: ((res: import('node:http').ServerResponse) => void)[] = [];

  beforeEach(async () => {
    seen.length = 0;
    script = [];
    server = await startLoopback((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push(seenOf(req.method ?? '', req.url ?? '', body));
        const step = script.shift();
        if (step) step(res);
        else sendJson(res, 200, answer);
      });
    });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  function port(settings: { current: SqlRunSettings }, timing = new FakeTiming()): SqlPort {
    const client = new HubClient({ baseUrl: server!.origin, timing });
    return new SqlPort(
      () => client,
      () => settings.current,
    );
  }

  it("sends the timeout setting of the moment with every run, and the feature's own limit", async () => {
    const settings = { current: { timeoutMs: 5000, rowLimit: 7 } };
    const p = port(settings);
    await p.run({ hostId: 'h', db, ref: 'main' }, 'SELECT 1', { limit: 501 });
    settings.current = { timeoutMs: 1234, rowLimit: 7 };
    await p.at({ hostId: 'h', db, ref: 'v1' })('SELECT 2', { limit: 10 });
    assert.deepEqual(seen, [
      { method: 'GET', ref: 'main', q: 'SELECT 1', limit: 501, timeout: 5000 },
      { method: 'GET', ref: 'v1', q: 'SELECT 2', limit: 10, timeout: 1234 },
    ]);
  });

  it("bounds the user's own query by the row-limit setting; a review query without a limit gets the API's default", async () => {
    const p = port({ current: { timeoutMs: 2000, rowLimit: 42 } });
    await p.userQuery({ hostId: 'h', db, ref: 'main' }, 'SELECT * FROM t');
    await p.review('h', db)({ sql: 'SELECT * FROM dolt_log', at: 'abc' });
    assert.deepEqual(
      seen.map((s) => [s.ref, s.limit, s.timeout]),
      [
        ['main', 42, 2000],
        ['abc', 1000, 2000],
      ],
    );
  });

  it('a statement too long for a URL goes as POST with the same settings', async () => {
    const p = port({ current: { timeoutMs: 3333, rowLimit: 5 } });
    const long = `SELECT '${'x'.repeat(6000)}'`;
    await p.userQuery({ hostId: 'h', db, ref: 'main' }, long);
    assert.deepEqual(seen, [{ method: 'POST', ref: 'main', q: long, limit: 5, timeout: 3333 }]);
  });

  it('waits out a 429 with Retry-After and sends again, as GET and as POST', async () => {
    const timing = new FakeTiming();
    const p = port({ current: { timeoutMs: 3000, rowLimit: 5 } }, timing);
    script = [(res) => sendJson(res, 429, problem(429, 'RATE_LIMITED'), { 'retry-after': '2' })];
    const r = await p.run({ hostId: 'h', db, ref: 'main' }, 'SELECT 1', { limit: 1 });
    assert.equal(r.status, 'success');
    script = [(res) => sendJson(res, 429, problem(429, 'RATE_LIMITED'), { 'retry-after': '3' })];
    await p.run({ hostId: 'h', db, ref: 'main' }, `SELECT '${'y'.repeat(6000)}'`, { limit: 1 });
    assert.deepEqual(
      seen.map((s) => s.method),
      ['GET', 'GET', 'POST', 'POST'],
    );
    assert.deepEqual(timing.sleeps, [2000, 3000]);
  });

  it('a run cancelled before it starts sends nothing and rejects with the abort', async () => {
    const p = port({ current: { timeoutMs: 3000, rowLimit: 5 } });
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(p.run({ hostId: 'h', db, ref: 'main' }, 'SELECT 1', { limit: 1, signal: abort.signal }), { name: 'AbortError' });
    assert.equal(seen.length, 0);
  });
});
