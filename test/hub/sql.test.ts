// SQL over HTTP: refs, read-only enforcement, limits, timeouts that really stop, MySQL forms,
// column metadata and cell encoding.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import { waitFor } from '../helpers/waitFor.cjs';

describe('hub SQL', function () {
  let hub: HubHandle;

  before(async function () {
    // --verbose: the engine logs each query it starts (the signal that the slow query runs).
    hub = await startHub({ seed: true, args: ['--max-rows', '4', '--verbose'] });
    await hub.token('alice');
  });
  after(async () => hub?.stop());

  const get = (q: string, ref = 'main', extra = '', user: string | null = null): ReturnType<HubHandle['fetch']> =>
    hub.fetch(`/databases/alice/prices/sql?ref=${encodeURIComponent(ref)}&q=${encodeURIComponent(q)}${extra}`, { user });

  it('returns typed columns, string cells, null and <binary>', async () => {
    const r = await get(
      'SELECT p.id, p.name, p.price, s.logo, s.opened, p.id * 2 AS twice FROM products p JOIN stores s ON s.id = p.id ORDER BY p.id',
    );
    assert.equal(r.status, 200);
    const d = r.body.data;
    assert.equal(d.status, 'success');
    assert.deepEqual(d.columns, [
      { name: 'id', type: 'bigint', is_primary_key: true, source_table: 'products' },
      { name: 'name', type: 'varchar(255)', is_primary_key: false, source_table: 'products' },
      { name: 'price', type: 'decimal(10,2)', is_primary_key: false, source_table: 'products' },
      { name: 'logo', type: 'blob', is_primary_key: false, source_table: 'stores' },
      { name: 'opened', type: 'date', is_primary_key: false, source_table: 'stores' },
      { name: 'twice', type: 'bigint', is_primary_key: false, source_table: '' },
    ]);
    assert.deepEqual(d.rows[0], ['1', 'Apple', '0.50', '<binary>', '2020-03-01', '2']);
    assert.deepEqual(d.rows[1], ['2', 'Banana', '0.25', null, '2021-07-15', '4']);
  });

  it('resolves branches, tags and 32-character commit hashes, and 404s an unknown ref', async () => {
    const atV1 = await get('SELECT count(*) AS n FROM products', 'v1');
    assert.deepEqual(atV1.body.data.rows, [['5']]);
    const tags = await hub.fetch('/databases/alice/prices/tags');
    const v1 = tags.body.data.find((t: any) => t.name === 'v1');
    assert.match(v1.commit_sha, /^[0-9a-v]{32}$/);
    const atCommit = await get("SELECT price FROM products WHERE name = 'Carrot'", v1.commit_sha);
    assert.deepEqual(atCommit.body.data.rows, [['0.30']]);
    const atMain = await get("SELECT price FROM products WHERE name = 'Carrot'");
    assert.deepEqual(atMain.body.data.rows, [['0.35']]);
    const onBranch = await get('SELECT count(*) FROM prices_2025', 'prices-2025');
    assert.deepEqual(onBranch.body.data.rows, [['5']]);
    const missing = await get('SELECT 1', 'no-such-branch');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'NOT_FOUND');
  });

  it('enforces read-only in the engine: mutations fail and change nothing', async () => {
    for (const q of [
      "INSERT INTO products VALUES (99,'Evil','x',1,NULL)",
      'DELETE FROM products',
      'DROP TABLE stores',
      "SELECT dolt_commit('--allow-empty','-m','evil')",
      "SELECT dolt_branch('evil')",
    ]) {
      const r = await get(q);
      assert.equal(r.status, 200, q);
      assert.notEqual(r.body.data.status, 'success', q);
      assert.ok(r.body.data.message, q);
    }
    // The same mutation at a branch, at a tag and through POST: still refused.
    const post = await hub.fetch('/databases/alice/prices/sql', { json: { ref: 'prices-2025', q: 'DELETE FROM prices_2025' } });
    assert.notEqual(post.body.data.status, 'success');
    const count = await get('SELECT count(*) FROM products');
    assert.deepEqual(count.body.data.rows, [['5']]);
    const still = await get('SELECT count(*) FROM prices_2025', 'prices-2025');
    assert.deepEqual(still.body.data.rows, [['5']]);
    const branches = await hub.fetch('/databases/alice/prices/branches?');
    assert.equal(
      branches.body.data.some((b: any) => b.name === 'evil'),
      false,
    );
  });

  it('reports SQL errors as 200 with status error and the engine message', async () => {
    const r = await get('SELECT * FROM nope');
    assert.equal(r.status, 200);
    assert.equal(r.body.data.status, 'error');
    assert.match(r.body.data.message, /no such table: nope/);
    const syntax = await get('SELEC 1');
    assert.equal(syntax.body.data.status, 'error');
    const two = await get('SELECT 1; SELECT 2');
    assert.equal(two.body.data.status, 'error');
  });

  it('applies limit (and the --max-rows cap) with row_limit, the first rows and a message', async () => {
    const r = await get('SELECT id FROM products ORDER BY id', 'main', '&limit=2');
    assert.equal(r.body.data.status, 'row_limit');
    assert.deepEqual(r.body.data.rows, [['1'], ['2']]);
    assert.match(r.body.data.message, /2 rows/);
    // limit above the server cap (4) is capped
    const capped = await get('SELECT id FROM products ORDER BY id', 'main', '&limit=100');
    assert.equal(capped.body.data.status, 'row_limit');
    assert.equal(capped.body.data.rows.length, 4);
    const exact = await get('SELECT id FROM products WHERE id <= 3 ORDER BY id', 'main', '&limit=3');
    assert.equal(exact.body.data.status, 'success');
    assert.equal(exact.body.data.message, undefined);
    const bad = await get('SELECT 1', 'main', '&limit=abc');
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /limit/);
  });

  it('validates GET and POST parameters', async () => {
    const noQ = await hub.fetch('/databases/alice/prices/sql?ref=main');
    assert.equal(noQ.status, 400);
    assert.match(noQ.body.detail, /"q"/);
    const noRef = await hub.fetch('/databases/alice/prices/sql?q=select%201');
    assert.equal(noRef.status, 400);
    const badPost = await hub.fetch('/databases/alice/prices/sql', { json: { ref: 'main', q: 'select 1', limit: '5' } });
    assert.equal(badPost.status, 400);
    assert.match(badPost.body.detail, /"limit"/);
    const extra = await hub.fetch('/databases/alice/prices/sql', { json: { ref: 'main', q: 'select 1', mode: 'x' } });
    assert.equal(extra.status, 400);
    const ok = await hub.fetch('/databases/alice/prices/sql', {
      json: { ref: 'main', q: 'SELECT name FROM products WHERE id = 1', limit: 10, timeout_ms: 5000 },
    });
    assert.deepEqual(ok.body.data.rows, [['Apple']]);
  });

  it('understands SHOW TABLES, DESCRIBE, SHOW COLUMNS, SHOW CREATE TABLE, backticks and NOW()', async () => {
    const tables = await get('SHOW TABLES;');
    assert.equal(tables.body.data.columns[0].name, 'Tables_in_prices');
    assert.deepEqual(tables.body.data.rows, [['products'], ['stores'], ['suppliers']]);
    const desc = await get('DESCRIBE `products`');
    assert.deepEqual(
      desc.body.data.columns.map((c: any) => c.name),
      ['Field', 'Type', 'Null', 'Key', 'Default', 'Extra'],
    );
    assert.deepEqual(desc.body.data.rows[0], ['id', 'bigint', 'NO', 'PRI', null, '']);
    assert.deepEqual(desc.body.data.rows[2], ['category', 'varchar(64)', 'YES', '', null, '']);
    const cols = await get('show columns from stores');
    assert.deepEqual(
      cols.body.data.rows.map((r: any) => r[0]),
      ['id', 'city', 'opened', 'logo'],
    );
    const create = await get('SHOW CREATE TABLE stores');
    assert.deepEqual(
      create.body.data.columns.map((c: any) => c.name),
      ['Table', 'Create Table'],
    );
    assert.match(create.body.data.rows[0][1], /CREATE TABLE stores/);
    const missing = await get('DESCRIBE nope');
    assert.equal(missing.body.data.status, 'error');
    const bt = await get('SELECT `name` FROM `products` WHERE `id` = 2');
    assert.deepEqual(bt.body.data.rows, [['Banana']]);
    const now = await get('SELECT NOW() AS t');
    assert.match(now.body.data.rows[0][0], /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('reads string literals and backslash escapes as MySQL/Dolt does', async () => {
    // `\'` is an escaped quote: the whole rest of the line is the name compared with, as on Dolt.
    const injected = await get("SELECT count(*) FROM products WHERE name = 'x\\' OR 1=1 -- '");
    const doubled = await get("SELECT count(*) FROM products WHERE name = 'x'' OR 1=1 -- '");
    assert.equal(injected.body.data.status, 'success', injected.body.data.message);
    assert.deepEqual(injected.body.data.rows, doubled.body.data.rows);
    assert.deepEqual(injected.body.data.rows, [['0']]);
    const escaped = await get("SELECT 'a\\'b' AS v, 'tab\\tx' AS t, 'back\\\\slash' AS b, \"dq\\\"x\" AS d");
    assert.equal(escaped.body.data.status, 'success', escaped.body.data.message);
    assert.deepEqual(escaped.body.data.rows, [["a'b", 'tab\tx', 'back\\slash', 'dq"x']]);
    // A NUL inside a literal stays in the value (the engine reads its SQL as a C string).
    const nul = await get("SELECT hex('a\\0b') AS n");
    assert.deepEqual(nul.body.data.rows, [['610062']]);
    // `--` before a non-space is two minus signs (MySQL), and `#` starts a comment.
    const minus = await get('SELECT 5--3 AS v # a note');
    assert.deepEqual(minus.body.data.rows, [['8']]);
  });

  it('stops a query at timeout_ms while the server keeps answering', async function () {
    this.timeout(60000);
    const slow = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
    const engineStarts = (): number => hub.output().match(/engine: query job \d+ of anonymous:\S+ started/g)?.length ?? 0;
    const before = engineStarts();
    const started = Date.now();
    let slowAnswered = false;
    const pending = get(slow, 'main', '&timeout_ms=5000').finally(() => (slowAnswered = true));
    // While it runs (the engine started it), other requests (SQL on another worker, and plain
    // metadata) are answered: both come back before the slow query does. (An order, not a time.)
    await waitFor('the slow query to start in the engine', () => engineStarts() > before);
    // Another caller's SQL (anonymous callers of one address share one slot, which the slow query holds).
    const other = await get('SELECT count(*) FROM products', 'main', '', 'alice');
    assert.equal(other.status, 200, other.text);
    assert.deepEqual(other.body.data.rows, [['5']]);
    const meta = await hub.fetch('/databases/alice/prices');
    assert.equal(meta.status, 200);
    assert.equal(slowAnswered, false, 'answered while the slow query ran');
    const r = await pending;
    assert.equal(r.body.data.status, 'timeout');
    assert.match(r.body.data.message, /5000 ms/);
    assert.ok(Date.now() - started >= 4900, 'not stopped before its deadline');
    // The worker is free again: a query right after answers at once.
    const after = await get('SELECT 1 AS one');
    assert.deepEqual(after.body.data.rows, [['1']]);
  });
});
