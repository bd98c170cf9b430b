// Fair use of the engine: long queries and long imports do not hold up listings or other callers'
// short queries; one caller (a user, or the anonymous callers of one address) past its share gets 429
// RATE_LIMITED with Retry-After. Orderings, never durations, are asserted: a short request must
// finish while the long ones are still running.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startHub, waitForOperation, type HubHandle, type HubResponse } from '../helpers/hub';
import { waitFor } from '../helpers/waitFor.cjs';
import { startImport } from './importFlow';

/**
 * Never ends on its own: stopped by its timeout_ms, or cancelled by the test once it has played its
 * part (a query left to its deadline keeps a worker spinning for the rest of LONG_MS). Running to a
 * deadline is asserted where it is the point (the heavy callers' test, 3 s each).
 */
const ENDLESS = 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r';
const LONG_MS = 15000;
/** How long a query waits for a worker before 429: far above a short query even on a loaded machine. */
const WAIT_MS = 5000;

/** A POST from a given local address (no token), on its own connection. */
function fromAddress(localAddress: string, url: string, json: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(json);
    const req = request(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('hub engine fairness', function () {
  this.timeout(120000);
  let hub: HubHandle;
  const P = '/databases/alice/prices';

  before(async () => {
    // --verbose: the engine logs each job it starts, the signal that a long query is running.
    hub = await startHub({ seed: true, args: ['--queue-wait-ms', String(WAIT_MS), '--verbose'] });
    await Promise.all(['alice', 'bob', 'carol'].map((u) => hub.token(u)));
  });
  after(async () => hub?.stop());

  interface Tracked {
    done: boolean;
    res: Promise<HubResponse>;
    cancel: AbortController;
  }

  /** Starts a long query and records when it settled relative to the others; `cancel` ends it. */
  function longQuery(user: string | null): Tracked {
    const cancel = new AbortController();
    const res = hub.fetch(`${P}/sql`, { user, json: { ref: 'main', q: ENDLESS, timeout_ms: LONG_MS }, signal: cancel.signal });
    const t: Tracked = { done: false, res, cancel };
    const settled = (): void => void (t.done = true);
    res.then(settled, settled);
    return t;
  }

  /** Cancels a long query still running, as a client closing its request does. */
  async function cancelRunning(t: Tracked): Promise<void> {
    assert.equal(t.done, false, 'the long query was still running');
    t.cancel.abort();
    await assert.rejects(t.res, /abort/i);
  }

  /** Made before sending: waits for the engine to start the next query of `caller` (it took a worker). */
  function nextStartOf(caller: string): () => Promise<unknown> {
    const line = new RegExp(`engine: query job \\d+ of ${caller} started`, 'g');
    const count = (): number => hub.output().match(line)?.length ?? 0;
    const before = count();
    return () => waitFor(`a query of ${caller} to start in the engine`, () => count() > before, { timeoutMs: 30_000 });
  }

  it("answers listings and other callers' short queries while three long anonymous queries run", async () => {
    const started = nextStartOf('anonymous:127.0.0.1');
    const longs = [0, 1, 2].map(() => longQuery(null));
    await started();
    const shorts = await Promise.all([
      hub.fetch(`${P}/branches`),
      hub.fetch(`${P}/tags`),
      hub.fetch(`${P}/pulls`),
      hub.fetch(`${P}/branches`, { user: 'bob' }),
      ...['alice', 'bob', 'carol', 'alice', 'bob', 'carol'].map((u, i) =>
        hub.fetch(`${P}/sql`, { user: u, json: { ref: 'main', q: `SELECT count(*) + ${i} FROM products` } }),
      ),
    ]);
    const stillRunning = longs.filter((l) => !l.done).length;
    for (const s of shorts) assert.equal(s.status, 200, s.text);
    assert.ok(shorts[0]!.body.data.some((b: any) => b.name === 'main'));
    for (const s of shorts.slice(4)) assert.equal(s.body.data.status, 'success');
    assert.ok(stillRunning >= 1, 'the short requests finished while the long query was still running');

    // Anonymous callers from one address are one caller: one long query runs, the others are
    // refused once they waited WAIT_MS in the queue (LONG_MS is three times that).
    await waitFor('two long queries to be refused', () => longs.filter((l) => l.done).length >= 2, { timeoutMs: 60_000 });
    const running = longs.filter((l) => !l.done);
    assert.equal(running.length, 1, 'one long query runs');
    const refused = await Promise.all(longs.filter((l) => l.done).map((l) => l.res));
    assert.deepEqual(
      refused.map((o) => o.status),
      [429, 429],
    );
    await cancelRunning(running[0]!);
    for (const r of refused) {
      assert.equal(r.body.code, 'RATE_LIMITED');
      assert.match(r.headers.get('content-type') ?? '', /problem\+json/);
      assert.match(r.body.detail, /Anonymous callers from 127\.0\.0\.1 \(together\) already run 1 query/);
      const after = Number(r.headers.get('retry-after'));
      assert.ok(after >= 1 && after <= Math.ceil(LONG_MS / 1000), `Retry-After ${after}`);
    }
  });

  it('gives each address its own anonymous share: a long anonymous query does not hold up another address', async () => {
    const started = nextStartOf('anonymous:127.0.0.1');
    const long = longQuery(null);
    await started();
    // Another loopback address (Linux routes all of 127/8 to lo): a different anonymous caller.
    const other = await fromAddress('127.0.0.2', `${hub.url}/api/v2${P}/sql`, { ref: 'main', q: 'SELECT 5' });
    assert.equal(other.status, 200, JSON.stringify(other.body));
    assert.deepEqual(other.body.data.rows, [['5']]);
    assert.equal(long.done, false, 'answered while the long query still ran');
    await cancelRunning(long);
  });

  it('stops translating at the deadline: Dolt forms by the thousand answer timeout, not after the backstop', async () => {
    const many = (n: number, item: string): string => `SELECT ${Array.from({ length: n }, () => item).join(', ')}`;
    for (const q of [many(20_000, "HASHOF('main~3')"), many(3_000, "(SELECT count(*) FROM DOLT_LOG('--tables', 'products'))")]) {
      // timeout_ms 1: the deadline has passed by the first check, so where the query stops says
      // which phase checks it (translation, here, long before the engine's backstop would).
      const r = await hub.fetch(`${P}/sql`, { json: { ref: 'main', q, timeout_ms: 1 } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data.status, 'timeout', q.slice(0, 80));
      assert.match(r.body.data.message, /while it was being translated/);
    }
  });

  it("frees a departed caller's share while its query is still being translated", async () => {
    const cancel = new AbortController();
    const started = nextStartOf('anonymous:127.0.0.1');
    const q = `SELECT ${Array.from({ length: 40_000 }, () => "HASHOF('main~3')").join(', ')}`;
    const long = hub.fetch(`${P}/sql`, { json: { ref: 'main', q, timeout_ms: LONG_MS }, signal: cancel.signal });
    long.catch(() => undefined);
    await started();
    cancel.abort();
    await assert.rejects(long, /abort/i);
    // Still translating, it would hold this address's one query: the next one would wait WAIT_MS, then 429.
    const next = await hub.fetch(`${P}/sql`, { json: { ref: 'main', q: 'SELECT 6' } });
    assert.equal(next.status, 200, next.text);
    assert.deepEqual(next.body.data.rows, [['6']]);
  });

  it('holds one user to their share: a second query waits briefly, then 429; other users go on', async () => {
    const started = nextStartOf('user:alice');
    const first = longQuery('alice');
    await started();
    const [second, bobs] = await Promise.all([
      hub.fetch(`${P}/sql`, { user: 'alice', json: { ref: 'main', q: 'SELECT 1' } }),
      hub.fetch(`${P}/sql`, { user: 'bob', json: { ref: 'main', q: 'SELECT 2' } }),
    ]);
    assert.equal(first.done, false);
    assert.equal(second.status, 429);
    assert.equal(second.body.code, 'RATE_LIMITED');
    assert.match(second.body.detail, /This user already runs 1 query/);
    assert.ok(Number(second.headers.get('retry-after')) >= 1);
    assert.equal(bobs.status, 200);
    assert.deepEqual(bobs.body.data.rows, [['2']]);
    await cancelRunning(first);
    // Once it ended, alice's queries run again.
    const again = await hub.fetch(`${P}/sql`, { user: 'alice', json: { ref: 'main', q: 'SELECT 3' } });
    assert.deepEqual(again.body.data.rows, [['3']]);
  });

  it('says to come back about as long as the blocking query has run, not at its deadline: 60 s of timeout_ms is not a 55 s Retry-After', async () => {
    const started = nextStartOf('user:alice');
    const cancel = new AbortController();
    const long = hub.fetch(`${P}/sql`, { user: 'alice', json: { ref: 'main', q: ENDLESS, timeout_ms: 60_000 }, signal: cancel.signal });
    await started();
    // Waits WAIT_MS (5 s) in the queue behind alice's own query, then 429.
    const second = await hub.fetch(`${P}/sql`, { user: 'alice', json: { ref: 'main', q: 'SELECT 1' } });
    assert.equal(second.status, 429);
    const after = Number(second.headers.get('retry-after'));
    assert.ok(
      after >= Math.floor(WAIT_MS / 1000) && after <= 20,
      `Retry-After ${after}: the long query had run about ${WAIT_MS / 1000} s of its 60`,
    );
    cancel.abort();
    await assert.rejects(long, /abort/i);
  });

  it("frees a caller's share the moment the caller goes away: after a cancelled long query, the next one runs at once", async () => {
    const cancel = new AbortController();
    const started = nextStartOf('user:carol');
    const long = hub.fetch(`${P}/sql`, { user: 'carol', json: { ref: 'main', q: ENDLESS, timeout_ms: LONG_MS }, signal: cancel.signal });
    long.catch(() => undefined);
    // Running in the engine, not still queued (cancelling would take it out of the queue instead).
    await started();
    cancel.abort();
    await assert.rejects(long, /abort/i);
    // Still running, it would hold carol's one query until its deadline (LONG_MS): this query
    // would wait WAIT_MS and be refused with 429.
    const next = await hub.fetch(`${P}/sql`, { user: 'carol', json: { ref: 'main', q: 'SELECT 4' } });
    assert.equal(next.status, 200, next.text);
    assert.deepEqual(next.body.data.rows, [['4']]);
    assert.doesNotMatch(hub.output(), /\b500\b|Error:/, 'the hub logged no failure for the closed request');
  });

  it('keeps a worker for short queries while two callers repeat long ones: neither is refused, and the short ones answer first', async () => {
    // Two anonymous callers from two addresses, each with a query that runs ~3 s (to its timeout_ms).
    const heavyMs = 3000;
    const longFrom = (address: string): Promise<{ status: number; body: any }> =>
      fromAddress(address, `${hub.url}/api/v2${P}/sql`, { ref: 'main', q: ENDLESS, timeout_ms: heavyMs });
    const heavy = ['127.0.0.3', '127.0.0.4'];
    // First round: nothing is known of them yet, so both run at once; then both are known to run long.
    for (const r of await Promise.all(heavy.map(longFrom))) assert.equal(r.body.data?.status, 'timeout', JSON.stringify(r.body));

    const line = /engine: query job \d+ of anonymous:127\.0\.0\.[34] started/g;
    const starts = (): number => hub.output().match(line)?.length ?? 0;
    const before = starts();
    const longs = heavy.map((a) => {
      const t = { done: false, res: longFrom(a) };
      void t.res.finally(() => (t.done = true));
      return t;
    });
    await waitFor('a long query to start', () => starts() > before, { timeoutMs: 30_000 });
    // A third caller's short queries, one after another, while the long ones run or wait.
    const shorts: HubResponse[] = [];
    for (let i = 0; i < 5; i++) shorts.push(await hub.fetch(`${P}/sql`, { user: 'bob', json: { ref: 'main', q: `SELECT ${i}` } }));
    const longsDone = longs.filter((l) => l.done).length;
    for (const [i, s] of shorts.entries()) {
      assert.equal(s.status, 200, s.text);
      assert.deepEqual(s.body.data.rows, [[String(i)]]);
    }
    // Before issue 26 both long queries held both workers and each short one waited for one of them.
    assert.equal(longsDone, 0, 'the short queries answered while both long ones were still running or waiting');
    // The long queries share the other worker in turn: both run to their timeout, none is refused.
    for (const r of await Promise.all(longs.map((l) => l.res))) {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.data.status, 'timeout');
    }
  });

  it('serves queries, listings and branch creation while a long import runs', async () => {
    const lines = ['id,v'];
    for (let i = 0; i < 60000; i++) lines.push(`${i},value-${i}`);
    const r = await startImport(hub, 'alice/prices', 'main', 'bulk', 'create', 'csv', Buffer.from(lines.join('\n') + '\n'), {
      primary_keys: ['id'],
    });
    assert.equal(r.status, 202, r.text);
    const id = r.body.data.id as string;
    const status = async (): Promise<string> =>
      (await hub.fetch(`/operations/${encodeURIComponent(id)}`, { user: 'alice' })).body.data.status;
    await waitFor('the import to run', async () => (await status()) === 'running', { intervalMs: 10 });
    const [q, branches, created] = await Promise.all([
      hub.fetch(`${P}/sql`, { user: 'bob', json: { ref: 'main', q: 'SELECT count(*) FROM products' } }),
      hub.fetch('/databases/alice/inventory/branches'),
      hub.fetch('/databases/acme/warehouse/branches', { user: 'alice', json: { name: 'during-import', from: { branch: 'main' } } }),
    ]);
    const after = await status();
    assert.equal(q.body.data.status, 'success');
    assert.equal(branches.status, 200);
    assert.equal(created.status, 201, created.text);
    assert.equal(after, 'running', 'the other requests did not wait for the import');
    const op = await waitForOperation(hub, id, 'alice', 120000);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
  });
});
