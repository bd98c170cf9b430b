// Reads at commits in one engine worker (EngineCore, no hub process): a plain read at a commit
// runs on the connection opened there (no copy of the database), a sort falls back to a snapshot
// of that commit, connections are kept between queries and bounded, and a write is seen by the
// next read. Expected rows come from plain reads at a branch made at each commit (a connection at
// a branch is never detached), sorted and filtered here.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import init from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { EngineCore } from '../../src/hub/engineWorker';
import type { Revision } from '../../src/hub/engineProtocol';
import type { Cell, QueryResult } from '../../src/shared/wire';

const COMMITS = 6;
const BUDGET = { maxBytes: 32 * 1024 * 1024, maxValueBytes: 16 * 1024 * 1024, memoryBytes: 256 * 1024 * 1024 };

describe('reads at commits in an engine worker', function () {
  this.timeout(120_000);
  let dir: string;
  let core: EngineCore;
  /** The commit of each step, oldest first; branch `b<k>` points at hexes[k]. */
  const hexes: string[] = [];
  let version = 1;
  const db = (): { key: string; path: string; version: number } => ({ key: 'alice/t', path: join(dir, 't.db'), version });
  const run = (sql: string, ref: Revision): QueryResult => core.query(db(), ref, sql, 10_000, 30_000, 't', BUDGET);
  const ok = (sql: string, ref: Revision): Cell[][] => {
    const r = run(sql, ref);
    assert.equal(r.status, 'success', `${sql} at ${JSON.stringify(ref)}: ${r.message}`);
    return r.rows;
  };
  const fileSize = (): number => statSync(join(dir, 't.db')).size;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vdb-commitreads-'));
    const sqlite3 = await init();
    const gen = new sqlite3.oo1.DB('/commitreads-gen.db', 'c');
    gen.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, n INTEGER)');
    gen.exec("WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 60) INSERT INTO t SELECT i, 'v' || i, i % 7 FROM s");
    for (let k = 0; k < COMMITS; k++) {
      if (k > 0) gen.exec(`UPDATE t SET v = 'c${k}-' || id, n = n + ${k} WHERE id % ${k + 1} = 0`);
      if (k === 3) gen.exec('DELETE FROM t WHERE id > 50');
      gen.exec(`SELECT dolt_commit('-A', '-m', 'step ${k}')`);
      hexes.push(String(gen.selectValue(`SELECT dolt_hashof('HEAD')`)));
      gen.exec(`SELECT dolt_branch('b${k}')`);
    }
    writeFileSync(join(dir, 't.db'), sqlite3.capi.sqlite3_js_db_export(gen.pointer));
    gen.close();
    const small = new sqlite3.oo1.DB('/commitreads-small.db', 'c');
    small.exec("CREATE TABLE s (id INTEGER PRIMARY KEY); INSERT INTO s VALUES (1); SELECT dolt_commit('-A', '-m', 'small')");
    writeFileSync(join(dir, 's.db'), sqlite3.capi.sqlite3_js_db_export(small.pointer));
    small.close();
    core = await EngineCore.create();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('plain reads at six commits, interleaved, each see their own commit, with no copy of the database and at most four kept connections', () => {
    for (const k of [0, 5, 1, 4, 2, 3, 0, 5, 3]) {
      const expected = ok('SELECT * FROM t', { branch: `b${k}` });
      assert.ok(expected.length > 0);
      assert.deepEqual(ok('SELECT * FROM t', { commitHex: hexes[k]! }), expected, `commit ${k}`);
      assert.deepEqual(ok('SELECT count(*), sum(n) FROM t WHERE id > 10', { commitHex: hexes[k]! }), [
        [
          String(expected.filter((r) => Number(r[0]) > 10).length),
          String(expected.filter((r) => Number(r[0]) > 10).reduce((a, r) => a + Number(r[2]), 0)),
        ],
      ]);
      assert.ok(core.keptConnections() <= 4, `${core.keptConnections()} connections kept`);
    }
    // Only the database itself is in the worker's memory: no scratch copy was made.
    assert.equal(core.dataBytes(), fileSize());
  });

  it('sorts, DISTINCT and GROUP BY at commits, interleaved, match the plain reads sorted here; dolt_branches shows only the real branches', () => {
    const realBranches = (ok('SELECT name FROM dolt_branches', { branch: 'main' }).map((r) => r[0]) as string[]).sort();
    for (const k of [2, 4, 2, 0, 5, 1, 3]) {
      const plain = ok('SELECT id, v, n FROM t', { branch: `b${k}` });
      const at: Revision = { commitHex: hexes[k]! };
      const byV = [...plain].sort((a, b) =>
        String(a[1]) < String(b[1]) ? 1 : String(a[1]) > String(b[1]) ? -1 : Number(a[0]) - Number(b[0]),
      );
      assert.deepEqual(ok('SELECT id, v, n FROM t ORDER BY v DESC, id LIMIT 7', at), byV.slice(0, 7), `ORDER BY LIMIT at commit ${k}`);
      const ns = [...new Set(plain.map((r) => Number(r[2])))].sort((a, b) => a - b);
      assert.deepEqual(
        ok('SELECT DISTINCT n FROM t ORDER BY n', at).map((r) => Number(r[0])),
        ns,
        `DISTINCT at commit ${k}`,
      );
      assert.deepEqual(
        ok('SELECT n, count(*) FROM t GROUP BY n ORDER BY count(*) DESC, n LIMIT 3', at).map((r) => [Number(r[0]), Number(r[1])]),
        ns
          .map((n) => [n, plain.filter((r) => Number(r[2]) === n).length])
          .sort((a, b) => b[1]! - a[1]! || a[0]! - b[0]!)
          .slice(0, 3),
        `GROUP BY at commit ${k}`,
      );
      assert.deepEqual(
        ok('SELECT name FROM dolt_branches ORDER BY name LIMIT 100', at).map((r) => r[0]),
        realBranches,
      );
      assert.deepEqual(ok('SELECT active_branch()', at), [[null]]);
      assert.ok(core.keptConnections() <= 4, `${core.keptConnections()} connections kept`);
    }
    // One scratch copy of the database serves every commit.
    assert.equal(core.dataBytes(), 2 * fileSize());
  });

  it('SHOW TABLES and DESCRIBE … AS OF at a commit still answer', () => {
    assert.deepEqual(ok('SHOW TABLES', { commitHex: hexes[1]! }), [['t']]);
    assert.deepEqual(
      ok(`DESCRIBE t AS OF '${hexes[0]}'`, { commitHex: hexes[5]! }).map((r) => r[0]),
      ['id', 'v', 'n'],
    );
  });

  it('a write between kept reads: the next read at the branch sees it, a read at the old commit does not change', async () => {
    const before = ok('SELECT * FROM t ORDER BY id', { branch: 'main' });
    const oldHead = hexes[COMMITS - 1]!;
    assert.deepEqual(ok('SELECT * FROM t ORDER BY id', { commitHex: oldHead }), before);
    const written = await core.write(
      db(),
      version + 1,
      { name: 'alice', email: 'alice@example.com' },
      {
        kind: 'sql',
        branch: 'main',
        statements: ["INSERT INTO t VALUES (999, 'new', 1)"],
        message: 'one more row',
      },
    );
    assert.equal(written.ok, true);
    version++;
    assert.deepEqual(ok('SELECT * FROM t ORDER BY id', { branch: 'main' }), [...before, ['999', 'new', '1']]);
    assert.deepEqual(ok('SELECT * FROM t ORDER BY id', { commitHex: oldHead }), before);
    assert.deepEqual(ok("SELECT id FROM t ORDER BY v = 'new' DESC, id LIMIT 1", { branch: 'main' }), [['999']]);
  });

  it("a worker's memory allowance follows the largest database it holds, not the sum of them", () => {
    const before = core.dataBytes();
    assert.ok(before >= fileSize());
    const small = { key: 'alice/s', path: join(dir, 's.db'), version: 1 };
    assert.ok(statSync(small.path).size < fileSize());
    const r = core.query(small, { branch: 'main' }, 'SELECT id FROM s', 10, 30_000, 's', BUDGET);
    assert.deepEqual(r.rows, [['1']]);
    assert.equal(core.dataBytes(), before);
  });

  it('a kept connection whose query timed out or failed answers the next query at the same commit', () => {
    const at: Revision = { commitHex: hexes[2]! };
    const expected = ok('SELECT * FROM t', { branch: 'b2' });
    const endless = 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r';
    assert.equal(core.query(db(), at, endless, 10, 200, 't', BUDGET).status, 'timeout');
    assert.deepEqual(ok('SELECT * FROM t', at), expected);
    assert.equal(run('SELECT nope FROM t', at).status, 'error');
    // Sorting (on the snapshot of the commit) after a timeout there.
    assert.equal(core.query(db(), at, `${endless} ORDER BY 1 LIMIT 1`, 10, 200, 't', BUDGET).status, 'timeout');
    assert.deepEqual(
      ok('SELECT * FROM t ORDER BY v, id', at),
      [...expected].sort((a, b) => (String(a[1]) < String(b[1]) ? -1 : String(a[1]) > String(b[1]) ? 1 : Number(a[0]) - Number(b[0]))),
    );
  });
});
