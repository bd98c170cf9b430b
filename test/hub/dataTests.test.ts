// The database's own tests through the SQL endpoint: dolt_tests and dolt_test_run at a branch, a
// commit hash and the merge base of a pull, read-only and under the same deadline as any query; a
// test added by an import is a pull like any change; CI runs recorded for a branch are listed as
// svc_ci operations. Expected results come from the tests' own queries run by plain SELECTs at the
// same ref and judged here.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql } from '../helpers/hubSql';
import { importCsv, startImport } from './importFlow';
import type { Cell, Operation } from '../../src/shared/wire';

const DB = 'alice/orders';

describe('hub: the database tests (dolt_tests, dolt_test_run) at any ref', function () {
  this.timeout(120000);
  let hub: HubHandle;
  before(async () => {
    hub = await startHub({ seed: true });
  });
  after(async () => hub?.stop());

  const { query, ok } = hubSql(() => hub, DB);
  const head = async (branch: string): Promise<string> => {
    const list = (await hub.fetch(`/databases/${DB}/branches`, { user: 'alice' })).body.data as { name: string; head_commit_sha: string }[];
    return list.find((b) => b.name === branch)!.head_commit_sha;
  };

  /** PASS or FAIL for each test at `ref`, judged here from a plain run of its query. */
  const judged = async (ref: string): Promise<Map<string, string>> => {
    const tests = (await ok('SELECT test_name, test_query, assertion_type, assertion_comparator, assertion_value FROM dolt_tests', ref))
      .rows;
    const out = new Map<string, string>();
    for (const [name, q, type, cmp, want] of tests as string[][]) {
      const rows = (await ok(q!, ref)).rows;
      const got: Cell = type === 'expected_rows' ? String(rows.length) : (rows[0]?.[0] ?? null);
      out.set(name!, compare(got, cmp!, want!) ? 'PASS' : 'FAIL');
    }
    return out;
  };
  const run = async (arg: string, ref: string): Promise<Map<string, string>> => {
    const d = await ok(`SELECT test_name, status, message FROM dolt_test_run('${arg}')`, ref);
    return new Map(d.rows.map((r) => [String(r[0]), String(r[1])]));
  };

  it('runs every test at a branch, at a commit hash and at the merge base, as the plain queries judge them', async () => {
    const base = String((await ok("SELECT dolt_merge_base('main', 'bulk-orders')")).rows[0]![0]);
    const refs = ['main', 'bulk-orders', await head('bulk-orders'), base];
    const seen = new Set<string>();
    for (const ref of refs) {
      const expected = await judged(ref);
      assert.ok(expected.size >= 3, `the seed has tests at ${ref}`);
      assert.deepEqual(await run('*', ref), expected, ref);
      seen.add([...expected.values()].join());
    }
    // The pull changes results (else this test could not tell refs apart).
    assert.notEqual((await judged('main')).get('no negative quantities'), (await judged('bulk-orders')).get('no negative quantities'));
    assert.ok(seen.size >= 2);
  });

  it('runs a group or one test by name, and says when nothing matches', async () => {
    const groups = (await ok('SELECT test_name, test_group FROM dolt_tests', 'bulk-orders')).rows as string[][];
    const all = await judged('bulk-orders');
    const group = groups[0]![1]!;
    const inGroup = groups.filter((g) => g[1] === group).map((g) => g[0]!);
    assert.deepEqual([...(await run(group, 'bulk-orders')).keys()].sort(), inGroup.sort());
    const one = groups[1]![0]!;
    assert.deepEqual(await run(one, 'bulk-orders'), new Map([[one, all.get(one)!]]));
    const none = await query("SELECT * FROM dolt_test_run('no such test')", 'bulk-orders');
    assert.equal(none.status, 'error');
    assert.match(none.message ?? '', /could not find tests/);
  });

  it('a test added by an update import is a pull; a test that writes, errors or never ends cannot harm or hang the endpoint', async () => {
    const before = (await ok('SELECT * FROM orders ORDER BY id')).rows;
    const csv = [
      'test_name,test_group,test_query,assertion_type,assertion_comparator,assertion_value',
      'sneaky,bad,DELETE FROM orders,expected_rows,==,0',
      'broken,bad,SELECT * FROM nope,expected_rows,==,0',
      'many,big,"WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 50000) SELECT x FROM r",expected_rows,==,50000',
      'forever,slow,"WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT COUNT(*) FROM r",expected_single_value,==,0',
    ].join('\n');
    const op = await importCsv(hub, DB, 'main', 'dolt_tests', 'update', csv, { pull_request_branch_name: 'bad-tests' });
    assert.ok(op.result.pull_id, 'the import opened a pull');
    for (const op of ['overwrite', 'create']) {
      const refused = await startImport(hub, DB, 'main', 'dolt_tests', op, 'csv', Buffer.from(csv));
      assert.equal(refused.status, 400, op);
      assert.match(refused.body.detail, /must be "update" or "replace" for dolt_tests: its schema is fixed/);
    }

    const bad = await ok("SELECT test_name, status, message FROM dolt_test_run('bad')", 'bad-tests');
    const byName = new Map(bad.rows.map((r) => [r[0], r]));
    assert.equal(byName.get('sneaky')![1], 'FAIL');
    assert.match(String(byName.get('sneaky')![2]), /not authorized/);
    assert.equal(byName.get('broken')![1], 'FAIL');
    assert.match(String(byName.get('broken')![2]), /nope/);
    assert.deepEqual((await ok('SELECT * FROM orders ORDER BY id', 'bad-tests')).rows, before, 'the writing test changed nothing');
    assert.deepEqual(await run('many', 'bad-tests'), new Map([['many', 'PASS']]));

    const t0 = Date.now();
    const r = await hub.fetch(`/databases/${DB}/sql`, {
      user: 'alice',
      json: { ref: 'bad-tests', q: "SELECT * FROM dolt_test_run('*')", timeout_ms: 1000 },
    });
    const slow = r.body.data;
    assert.equal(slow.status, 'timeout', 'a test that never ends makes the run a timeout, not a FAIL row');
    assert.deepEqual(slow.rows, []);
    assert.ok(Date.now() - t0 < 20000);
    // The endpoint still answers.
    assert.equal((await ok("SELECT status FROM dolt_test_run('broken')", 'bad-tests')).rows[0]![0], 'FAIL');
  });

  it("a replace import leaves exactly the file's tests on its branch, as Dolt empties and refills dolt_tests", async () => {
    const columns = 'test_name, test_group, test_query, assertion_type, assertion_comparator, assertion_value';
    const mainBefore = (await ok(`SELECT ${columns} FROM dolt_tests ORDER BY test_name`)).rows;
    const csv = [
      'test_name,test_group,test_query,assertion_type,assertion_comparator,assertion_value',
      'only customers,sizes,SELECT COUNT(*) FROM customers,expected_single_value,>,0',
    ].join('\n');
    const op = await importCsv(hub, DB, 'main', 'dolt_tests', 'replace', csv, { pull_request_branch_name: 'one-test' });
    assert.ok(op.result.pull_id);
    assert.deepEqual((await ok(`SELECT ${columns} FROM dolt_tests ORDER BY test_name`, 'one-test')).rows, [
      ['only customers', 'sizes', 'SELECT COUNT(*) FROM customers', 'expected_single_value', '>', '0'],
    ]);
    assert.deepEqual((await ok(`SELECT ${columns} FROM dolt_tests ORDER BY test_name`)).rows, mainBefore, 'main is untouched');
    assert.deepEqual([...(await run('*', 'one-test')).entries()], [['only customers', 'PASS']]);
  });

  it('lists the CI runs recorded for a branch: one succeeded, one failed with its reason', async () => {
    const ops = (await hub.fetch(`/databases/${DB}/operations`)).body.data as Operation[];
    const ci = ops.filter((o) => o.type === 'svc_ci');
    assert.equal(ci.length, 2);
    const sha = await head('bulk-orders');
    for (const o of ci) {
      assert.equal(o.ci?.branch, 'bulk-orders');
      assert.equal(o.ci?.commit_sha, sha);
    }
    const failed = ci.find((o) => o.status === 'failed')!;
    assert.ok(failed.error?.detail);
    assert.equal(failed.result, undefined);
    assert.ok(ci.find((o) => o.status === 'succeeded'));
    const one = (await hub.fetch(`/operations/${encodeURIComponent(failed.id)}`)).body.data as Operation;
    assert.deepEqual(one, failed);
  });
});

function compare(got: Cell, cmp: string, want: string): boolean {
  const both = got !== null && got !== '' && !Number.isNaN(Number(got)) && !Number.isNaN(Number(want));
  const a: number | string = both ? Number(got) : String(got);
  const b: number | string = both ? Number(want) : want;
  switch (cmp) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    default:
      throw new Error(`comparator ${cmp}`);
  }
}
