// The SQL endpoint cannot write, whatever the text looks like (the engine's authorizer and
// sqlite3_stmt_readonly decide), and a result or a value past the hub's byte budgets stops with a
// message naming the limit while the hub's memory stays flat.
import assert from 'node:assert/strict';
import { rssOf, startHub, type HubHandle } from '../helpers/hub';

describe('hub SQL: read-only by the engine, bounded results', function () {
  this.timeout(120000);

  describe('read-only', () => {
    let hub: HubHandle;
    const P = '/databases/alice/prices';
    before(async () => {
      hub = await startHub({ seed: true });
    });
    after(async () => hub?.stop());

    const sql = async (q: string, user: string | null = null): Promise<any> => {
      const r = await hub.fetch(`${P}/sql`, { user, json: { ref: 'main', q } });
      assert.equal(r.status, 200, r.text);
      return r.body.data;
    };

    it('refuses every statement that would write, on every form, and nothing changes', async () => {
      const branchesBefore = (await hub.fetch(`${P}/branches`)).body.data;
      const products = (await sql('SELECT * FROM products ORDER BY 1')).rows;
      const log = (await sql('SELECT commit_hash FROM dolt_log')).rows;
      const schema = (await sql('SELECT type, name, sql FROM sqlite_master ORDER BY name')).rows;
      const refused: [string, RegExp][] = [
        ["VACUUM INTO '/x1.db'", /VACUUM would change the database/],
        ['VACUUM', /VACUUM would change the database/],
        ["ATTACH ':memory:' AS m", /ATTACH is not allowed/],
        ["ATTACH DATABASE 'file:/x2.db' AS m", /ATTACH is not allowed/],
        ['PRAGMA user_version = 7', /PRAGMA user_version = … is not allowed/],
        ['PRAGMA journal_mode = OFF', /PRAGMA journal_mode = … is not allowed/],
        ['PRAGMA writable_schema = ON', /PRAGMA writable_schema = … is not allowed/],
        ["SELECT dolt_reset/**/('--hard')", /dolt_reset\(\) changes the database/],
        ["SELECT DOLT_COMMIT('-A', '-m', 'x')", /dolt_commit\(\) changes the database/],
        ["select dolt_branch('evil')", /dolt_branch\(\) changes the database/],
        ["SELECT dolt_checkout('main')", /dolt_checkout\(\) changes the database/],
        ["SELECT dolt_merge('main')", /dolt_merge\(\) changes the database/],
        ["SELECT dolt_tag('t9')", /dolt_tag\(\) changes the database/],
        ["SELECT dolt_config('user.name', 'x')", /dolt_config\(\) changes the database/],
        ['SELECT x FROM (SELECT dolt_gc() AS x)', /dolt_gc\(\) changes the database/],
        ["INSERT INTO products (name) VALUES ('x')", /INSERT is not allowed/],
        ["UPDATE products SET name = 'x'", /UPDATE is not allowed/],
        ['DELETE FROM products', /DELETE is not allowed/],
        ['CREATE TABLE t (a)', /Changing the schema \(CREATE, DROP, ALTER\) is not allowed/],
        ['DROP TABLE products', /Changing the schema|DROP TABLE is not allowed/],
        ['CREATE TEMP VIEW v AS SELECT 1', /Changing the schema|CREATE VIEW is not allowed/],
        ['BEGIN', /Transaction control .* is not allowed/],
        ["INSERT INTO dolt_docs VALUES ('README.md', 'x')", /INSERT is not allowed/],
        // Functions of extensions are refused unless known to only read (an allow-list).
        ['SELECT fts5(NULL)', /fts5\(\) is not known to only read/],
        ['SELECT bm25(1)', /bm25\(\) is not known to only read/],
        ['SELECT vec1_info()', /vec1_info\(\) is not known to only read/],
      ];
      for (const [q, why] of refused) {
        for (const user of [null, 'alice']) {
          const r = await sql(q, user);
          assert.equal(r.status, 'error', q);
          assert.match(r.message, why, q);
          assert.match(r.message, /read-only/, q);
        }
      }
      // Nothing changed: same branches and heads, history, schema and rows.
      assert.deepEqual((await hub.fetch(`${P}/branches`)).body.data, branchesBefore);
      assert.deepEqual((await sql('SELECT commit_hash FROM dolt_log')).rows, log);
      assert.deepEqual((await sql('SELECT type, name, sql FROM sqlite_master ORDER BY name')).rows, schema);
      assert.deepEqual((await sql('SELECT * FROM products ORDER BY 1')).rows, products);
    });

    it('still answers every read form: SELECT, recursive CTEs, Dolt tables and read-only functions, reporting pragmas', async () => {
      const ok = async (q: string): Promise<any> => {
        const r = await sql(q);
        assert.equal(r.status, 'success', `${q}: ${r.message}`);
        return r.rows;
      };
      assert.deepEqual(await ok('WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 3) SELECT x FROM r'), [
        ['1'],
        ['2'],
        ['3'],
      ]);
      assert.ok((await ok('SELECT commit_hash FROM dolt_log')).length >= 2);
      // Commit hashes in results are Dolt's base32 form (the hub's Dolt SQL), like the API's.
      assert.match((await ok("SELECT dolt_hashof('HEAD')"))[0][0], /^[0-9a-v]{32}$/);
      assert.ok((await ok('PRAGMA table_info(products)')).some((r: string[]) => r[1] === 'name'));
      assert.ok((await ok("SELECT name FROM pragma_table_info('products')")).length > 0);
      assert.ok((await ok('DESCRIBE products')).length > 0);
      assert.ok((await ok('SHOW TABLES')).some((r: string[]) => r[0] === 'products'));
      assert.deepEqual(await ok("SELECT upper('a') || printf('%d', 5)"), [['A5']]);
    });

    it("keeps the hub's own writes working: a branch, a tag and a merge after the refusals", async () => {
      const b = await hub.fetch(`${P}/branches`, { user: 'alice', json: { name: 'after-guard', from: { branch: 'main' } } });
      assert.equal(b.status, 201, b.text);
      const t = await hub.fetch(`${P}/tags`, { user: 'alice', json: { name: 'after-guard-tag', from: { branch: 'main' } } });
      assert.equal(t.status, 201, t.text);
    });
  });

  describe('byte budgets', () => {
    let hub: HubHandle;
    const DB = '/databases/alice/big';
    const RESULT_BYTES = 65536;
    const VALUE_BYTES = 100000;
    before(async () => {
      hub = await startHub({
        users: ['alice', 'bob', 'carol', 'dave'],
        args: ['--max-result-bytes', String(RESULT_BYTES), '--max-value-bytes', String(VALUE_BYTES)],
      });
      assert.equal(
        (await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'big', visibility: 'public' } })).status,
        201,
      );
    });
    after(async () => hub?.stop());

    it('stops a result at the response budget with row_limit and a message naming the limit', async () => {
      const q =
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 5000) SELECT x, printf('%.*c', 1000, 'y') AS pad FROM r";
      const r = (await hub.fetch(`${DB}/sql`, { json: { ref: 'main', q, limit: 5000 } })).body.data;
      assert.equal(r.status, 'row_limit');
      assert.match(r.message, /larger than the hub's limit of 64 KiB per response \(--max-result-bytes\); only the first \d+ rows/);
      const cellBytes = r.rows.reduce((s: number, row: string[]) => s + row.join('').length, 0);
      assert.ok(r.rows.length > 0 && r.rows.length < 5000, String(r.rows.length));
      assert.ok(cellBytes <= RESULT_BYTES, String(cellBytes));
      // The rows it kept are whole and in order.
      r.rows.forEach((row: string[], i: number) => {
        assert.equal(row[0], String(i + 1));
        assert.equal(row[1], 'y'.repeat(1000));
      });
      assert.match(r.message, new RegExp(`first ${r.rows.length} rows`));
    });

    it("refuses a value past the value budget before building it, and the hub's memory stays flat", async () => {
      const q = "SELECT printf('%.*c', 400000000, 'x') AS huge";
      const before = rssOf(hub);
      const runs = await Promise.all(
        ['alice', 'bob', 'carol', 'dave', 'alice', 'bob', 'carol', 'dave'].map((user) =>
          hub.fetch(`${DB}/sql`, { user, json: { ref: 'main', q } }),
        ),
      );
      for (const r of runs) {
        assert.equal(r.status, 200);
        assert.equal(r.body.data.status, 'error');
        assert.equal(
          r.body.data.message,
          "A value in this query is larger than the hub's limit of 100000 bytes per value (--max-value-bytes).",
        );
        assert.ok(r.text.length < 2000);
      }
      const grown = rssOf(hub) - before;
      // 8 x 400 MB were asked for; a value past the limit is never allocated.
      assert.ok(grown < 100 * 1024 * 1024, `the hub grew by ${Math.round(grown / 1048576)} MB`);
      // Below the limit the same function works.
      const small = (await hub.fetch(`${DB}/sql`, { json: { ref: 'main', q: "SELECT length(printf('%.*c', 90000, 'x'))" } })).body.data;
      assert.deepEqual(small.rows, [['90000']]);
    });
  });

  describe('worker memory', () => {
    let hub: HubHandle;
    before(async () => {
      hub = await startHub({ users: ['alice'], args: ['--worker-memory-mb', '64', '--verbose'] });
      assert.equal(
        (await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'm', visibility: 'public' } })).status,
        201,
      );
    });
    after(async () => hub?.stop());

    it('replaces a query worker that grew past --worker-memory-mb, and the hub keeps answering with flat memory', async () => {
      // A 14 MB string built by doubling grows the worker (WASM memory never shrinks) past 64 MiB.
      const big =
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 140000) SELECT length(group_concat(printf('%.*c', 100, 'x'))) FROM r";
      const first = (await hub.fetch('/databases/alice/m/sql', { json: { ref: 'main', q: big } })).body.data;
      assert.equal(first.status, 'success', first.message);
      const settled = rssOf(hub);
      for (let i = 0; i < 4; i++) {
        const r = (await hub.fetch('/databases/alice/m/sql', { json: { ref: 'main', q: big } })).body.data;
        assert.deepEqual(r.rows, [['14139999']]);
      }
      assert.match(hub.output(), /replacing a query worker that grew to \d+ bytes/);
      assert.ok(rssOf(hub) - settled < 150 * 1024 * 1024, `grew by ${Math.round((rssOf(hub) - settled) / 1048576)} MB over 4 more sorts`);
      const after = await hub.fetch('/databases/alice/m/sql', { json: { ref: 'main', q: 'SELECT 7' } });
      assert.deepEqual(after.body.data.rows, [['7']]);
    });
  });
});
