// Dolt's version-control SQL through the hub's SQL endpoint, on the seeded alice/prices. Every
// expected result is computed here from plain reads (SELECT * FROM t at each ref, the branch and
// tag lists of the API), never from the forms under test.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql } from '../helpers/hubSql';
import { doltHashToHex } from '../../src/hub/doltHash';
import { tokenize } from '../../src/core/sql/sqlTokens';

type Cell = string | null;
interface Result {
  status: string;
  message?: string;
  columns: { name: string; type: string }[];
  rows: Cell[][];
}

const B32 = /^[0-9a-v]{32}$/;
const DB = 'alice/prices';

describe('hub Dolt SQL', function () {
  let hub: HubHandle;

  before(async function () {
    hub = await startHub({ seed: true });
    await hub.token('alice');
  });
  after(async () => hub?.stop());

  const { query, ok } = hubSql(() => hub, DB, 'alice', { retryBusy: true }); // tableAt reads three refs at once
  const objects = (d: Result): Record<string, Cell>[] =>
    d.rows.map((r) => Object.fromEntries(d.columns.map((c, i) => [c.name, r[i] ?? null])));

  // ---- independent facts, from plain reads and the REST API

  const branchHead = async (name: string): Promise<string> => {
    const list = (await hub.fetch(`/databases/${DB}/branches`, { user: 'alice' })).body.data as { name: string; head_commit_sha: string }[];
    const b = list.find((x) => x.name === name);
    assert.ok(b, `branch ${name}`);
    return b.head_commit_sha;
  };
  const tagCommit = async (name: string): Promise<string> => {
    const list = (await hub.fetch(`/databases/${DB}/tags`, { user: 'alice' })).body.data as { name: string; commit_sha: string }[];
    return list.find((x) => x.name === name)!.commit_sha;
  };
  /** A plain read of a table at a ref, by primary key (the first column in these tables). */
  const tableAt = async (table: string, ref: string): Promise<{ columns: string[]; rows: Map<string, Record<string, Cell>> }> => {
    const d = await ok(`SELECT * FROM ${table}`, ref);
    return { columns: d.columns.map((c) => c.name), rows: new Map(objects(d).map((r) => [String(r[d.columns[0]!.name]), r])) };
  };
  /** Commits reachable from a ref, newest first, from the plain dolt_log table read at that ref. */
  const logAt = async (ref: string): Promise<string[]> =>
    (await ok('SELECT commit_hash FROM dolt_log', ref)).rows.map((r) => r[0] as string);
  /** The newest commit of `b`'s history that is also in `a`'s: the merge base of these linear branches. */
  const mergeBaseOf = async (a: string, b: string): Promise<string> => {
    const inA = new Set(await logAt(a));
    return (await logAt(b)).find((h) => inA.has(h))!;
  };

  interface RowChange {
    key: string;
    type: 'added' | 'modified' | 'removed';
    from?: Record<string, Cell>;
    to?: Record<string, Cell>;
  }
  const expectedDiff = async (table: string, fromRef: string, toRef: string): Promise<RowChange[]> => {
    const a = await tableAt(table, fromRef);
    const b = await tableAt(table, toRef);
    const out: RowChange[] = [];
    for (const key of new Set([...a.rows.keys(), ...b.rows.keys()])) {
      const from = a.rows.get(key);
      const to = b.rows.get(key);
      if (from && !to) out.push({ key, type: 'removed', from });
      else if (!from && to) out.push({ key, type: 'added', to });
      else if (from && to && JSON.stringify(from) !== JSON.stringify(to)) out.push({ key, type: 'modified', from, to });
    }
    return out.sort((x, y) => Number(x.key) - Number(y.key));
  };
  /** Checks a DOLT_DIFF-shaped result against the plain reads, value by value. */
  const assertDiff = (d: Result, expected: RowChange[], pk: string, fromHash: string, toHash: string): void => {
    const rows = objects(d);
    const byKey = new Map(rows.map((r) => [String(r[`to_${pk}`] ?? r[`from_${pk}`]), r]));
    assert.deepEqual([...byKey.keys()].sort(), expected.map((e) => e.key).sort(), 'the changed keys');
    for (const e of expected) {
      const r = byKey.get(e.key)!;
      assert.equal(r['diff_type'], e.type, `diff_type of ${e.key}`);
      for (const [side, values] of [
        ['from', e.from],
        ['to', e.to],
      ] as const) {
        for (const col of Object.keys(e.from ?? e.to ?? {})) {
          // Numbers compare as numbers (a decimal's scale is presentation).
          const want = values ? values[col] : null;
          const got = r[`${side}_${col}`];
          assert.equal(
            got === null ? null : String(Number.isNaN(Number(got)) ? got : Number(got)),
            want === null || want === undefined ? null : String(Number.isNaN(Number(want)) ? want : Number(want)),
            `${side}_${col} of ${e.key}`,
          );
        }
      }
      assert.equal(r['from_commit'], fromHash);
      assert.equal(r['to_commit'], toHash);
    }
  };

  // ---- the seed really is worth reviewing

  it('seeds an open pull spanning two tables with every kind of row change, and one that conflicts', async () => {
    const pulls = (await hub.fetch(`/databases/${DB}/pulls`, { user: 'alice' })).body.data as {
      pull_number: number;
      title: string;
      state: string;
    }[];
    const byNumber = new Map(pulls.map((p) => [p.pull_number, p]));
    assert.equal(byNumber.get(1)?.title, 'Add the 2025 prices');
    assert.equal(byNumber.get(4)?.title, 'Update suppliers and the catalogue');
    assert.equal(byNumber.get(5)?.title, "Raise Quinta do Vale's rating");
    assert.equal(byNumber.get(4)?.state, 'open');
    const base = await mergeBaseOf('main', 'supplier-updates');
    for (const table of ['suppliers', 'products']) {
      const kinds = new Set((await expectedDiff(table, base, 'supplier-updates')).map((c) => c.type));
      assert.deepEqual([...kinds].sort(), ['added', 'modified', 'removed'], table);
    }
    // Both sides changed supplier 1's rating since they parted.
    const vbase = await mergeBaseOf('main', 'vale-rating');
    const [b, ours, theirs] = await Promise.all([
      tableAt('suppliers', vbase),
      tableAt('suppliers', 'main'),
      tableAt('suppliers', 'vale-rating'),
    ]);
    assert.notEqual(ours.rows.get('1')!['rating'], b.rows.get('1')!['rating']);
    assert.notEqual(theirs.rows.get('1')!['rating'], b.rows.get('1')!['rating']);
    assert.notEqual(ours.rows.get('1')!['rating'], theirs.rows.get('1')!['rating']);
    // A schema change on main: the email column came later.
    assert.ok(
      !(await tableAt('suppliers', 'main~3')).columns.includes('email') ||
        (await ok("SELECT count(*) FROM dolt_log WHERE message = 'Record supplier contact emails'")).rows[0]![0] === '1',
    );
  });

  // ---- HASHOF, DOLT_MERGE_BASE and hashes in results

  it('HASHOF answers the API hash of branches, tags, commits (base32 or hex) and ancestry specs', async () => {
    const main = await branchHead('main');
    const v1 = await tagCommit('v1');
    const log = await logAt('main');
    const d = await ok(
      `SELECT HASHOF('main'), HASHOF('v1'), HASHOF('${v1}'), HASHOF('${doltHashToHex(v1)}'), HASHOF('main~1'), hashof('HEAD')`,
    );
    assert.deepEqual(d.rows, [[main, v1, v1, v1, log[1], main]]);
    assert.deepEqual(
      d.columns.map((c) => c.name),
      ["HASHOF('main')", "HASHOF('v1')", `HASHOF('${v1}')`, `HASHOF('${doltHashToHex(v1)}')`, "HASHOF('main~1')", "hashof('HEAD')"],
    );
    // As an expression too (the argument comes from a column).
    const e = await ok("SELECT HASHOF(name) FROM dolt_branches WHERE name = 'vale-rating'");
    assert.deepEqual(e.rows, [[await branchHead('vale-rating')]]);
    // And usable where it is compared.
    const w = await ok("SELECT count(*) FROM dolt_log WHERE commit_hash = HASHOF('v1')");
    assert.deepEqual(w.rows, [['1']]);
  });

  it('DOLT_MERGE_BASE answers the newest common commit', async () => {
    const expected = await mergeBaseOf('main', 'supplier-updates');
    assert.deepEqual((await ok("SELECT DOLT_MERGE_BASE('main', 'supplier-updates') AS base")).rows, [[expected]]);
    const sha = await branchHead('supplier-updates');
    assert.deepEqual((await ok(`SELECT dolt_merge_base(HASHOF('main'), '${sha}')`)).rows, [[expected]]);
    assert.deepEqual((await ok("SELECT dolt_merge_base(name, 'main') FROM dolt_branches WHERE name = 'supplier-updates'")).rows, [
      [expected],
    ]);
  });

  it('shows every commit hash in system tables as base32, the same as the API, and leaves user data alone', async () => {
    const branches = (await hub.fetch(`/databases/${DB}/branches`, { user: 'alice' })).body.data as {
      name: string;
      head_commit_sha: string;
    }[];
    const d = await ok('SELECT name, hash FROM dolt_branches ORDER BY name');
    assert.deepEqual(
      d.rows,
      branches.map((b) => [b.name, b.head_commit_sha]).sort((x, y) => x[0]!.localeCompare(y[0]!)),
    );
    const tags = (await hub.fetch(`/databases/${DB}/tags`, { user: 'alice' })).body.data as { name: string; commit_sha: string }[];
    assert.deepEqual(
      (await ok('SELECT tag_name, tag_hash FROM dolt_tags ORDER BY tag_name')).rows,
      tags.map((t) => [t.name, t.commit_sha]),
    );
    for (const [q, col] of [
      ['SELECT * FROM dolt_log', 'commit_hash'],
      ['SELECT * FROM dolt_history_suppliers', 'commit_hash'],
      ['SELECT * FROM dolt_blame_suppliers', 'commit'],
      ['SELECT * FROM dolt_commit_ancestors WHERE parent_hash IS NOT NULL', 'parent_hash'],
      ['SELECT * FROM dolt_diff_suppliers', 'to_commit'],
      ['SELECT * FROM dolt_diff', 'commit_hash'],
    ] as const) {
      const r = objects(await ok(q));
      assert.ok(r.length > 0, q);
      for (const row of r) assert.match(String(row[col]), B32, `${q}: ${col}`);
    }
    // A hash from a result is accepted back as the ref of a query, in either form.
    const v1 = (await ok("SELECT commit_hash FROM dolt_log WHERE message = 'Add dairy products'")).rows[0]![0] as string;
    const atV1 = (await ok('SELECT * FROM products ORDER BY id', 'v1')).rows;
    assert.deepEqual((await ok('SELECT * FROM products ORDER BY id', v1)).rows, atV1);
    assert.deepEqual((await ok('SELECT * FROM products ORDER BY id', doltHashToHex(v1))).rows, atV1);
    const hex = '0123456789abcdef0123456789abcdef01234567';
    assert.deepEqual((await ok(`SELECT '${hex}' AS x`)).rows, [[hex]]);
  });

  // ---- DOLT_DIFF and dolt_commit_diff_<t>

  it('DOLT_DIFF(from, to, t) matches the plain reads at both refs, with Dolt columns and diff_type values', async () => {
    const expected = await expectedDiff('products', 'v1', 'main');
    assert.ok(expected.length > 0);
    const d = await ok("SELECT * FROM DOLT_DIFF('v1', 'main', 'products')");
    const cols = (await tableAt('products', 'main')).columns;
    assert.deepEqual(
      d.columns.map((c) => c.name),
      [
        ...cols.map((c) => `to_${c}`),
        'to_commit',
        'to_commit_date',
        ...cols.map((c) => `from_${c}`),
        'from_commit',
        'from_commit_date',
        'diff_type',
      ],
    );
    assertDiff(d, expected, 'id', await tagCommit('v1'), await branchHead('main'));
  });

  it("DOLT_DIFF takes each side's columns from its own commit's schema, whatever ref it is read at", async () => {
    // Two adjacent commits of main whose suppliers columns differ (the seed adds one), by plain reads.
    const log = await logAt('main');
    let newer = '';
    let older = '';
    let cols: { newer: string[]; older: string[] } | undefined;
    for (let i = 0; i + 1 < log.length && !cols; i++) {
      const [n, o] = await Promise.all([tableAt('suppliers', log[i]!), tableAt('suppliers', log[i + 1]!)]);
      if (JSON.stringify(n.columns) !== JSON.stringify(o.columns)) {
        [newer, older, cols] = [log[i]!, log[i + 1]!, { newer: n.columns, older: o.columns }];
      }
    }
    assert.ok(cols, 'a commit that changes the columns of suppliers');
    const side = (prefix: string, c: string[]): string[] => [...c.map((x) => prefix + x), `${prefix}commit`, `${prefix}commit_date`];
    for (const ref of ['main', older]) {
      const forward = await ok(`SELECT * FROM DOLT_DIFF('${older}', '${newer}', 'suppliers')`, ref);
      assert.deepEqual(
        forward.columns.map((c) => c.name),
        [...side('to_', cols.newer), ...side('from_', cols.older), 'diff_type'],
        `at ${ref}`,
      );
      const backward = await ok(`SELECT * FROM DOLT_DIFF('${newer}', '${older}', 'suppliers')`, ref);
      assert.deepEqual(
        backward.columns.map((c) => c.name),
        [...side('to_', cols.older), ...side('from_', cols.newer), 'diff_type'],
        `at ${ref}`,
      );
    }
    // Read where the schema has every column, the added column's values are the newer commit's.
    const added = cols.newer.filter((c) => !cols!.older.includes(c));
    const newerRows = (await tableAt('suppliers', newer)).rows;
    const d = objects(await ok(`SELECT * FROM DOLT_DIFF('${older}', '${newer}', 'suppliers')`));
    for (const r of d.filter((x) => x['diff_type'] !== 'removed')) {
      for (const c of added) assert.equal(r[`to_${c}`], newerRows.get(String(r['to_id']))![c], `to_${c} of ${r['to_id']}`);
    }
  });

  it("DOLT_DIFF('from..to', t) is the same diff; 'from...to' starts at the merge base (the pull request diff)", async () => {
    const two = await ok("SELECT * FROM DOLT_DIFF('v1..main', 'products')");
    const three = await ok("SELECT * FROM DOLT_DIFF('v1', 'main', 'products')");
    assert.deepEqual(two.rows, three.rows);
    const base = await mergeBaseOf('main', 'supplier-updates');
    const head = await branchHead('supplier-updates');
    for (const table of ['suppliers', 'products']) {
      const d = await ok(`SELECT * FROM DOLT_DIFF('main...supplier-updates', '${table}')`);
      assertDiff(d, await expectedDiff(table, base, 'supplier-updates'), 'id', base, head);
    }
    // Two dots from main also sees what main did since: supplier 1's new rating shows as a change.
    const twoDot = objects(await ok("SELECT * FROM DOLT_DIFF('main..supplier-updates', 'suppliers')"));
    assert.ok(twoDot.some((r) => r['to_id'] === '1' && r['diff_type'] === 'modified'));
  });

  it('WHERE, ORDER BY, LIMIT and OFFSET work over DOLT_DIFF', async () => {
    const base = await mergeBaseOf('main', 'supplier-updates');
    const expected = (await expectedDiff('suppliers', base, 'supplier-updates'))
      .filter((c) => c.type !== 'removed')
      .map((c) => c.key)
      .sort((a, b) => Number(b) - Number(a));
    const d = await ok(
      "SELECT to_id FROM DOLT_DIFF('main...supplier-updates', 'suppliers') WHERE diff_type <> 'removed' ORDER BY to_id DESC LIMIT 1 OFFSET 1",
    );
    assert.deepEqual(d.rows, [[expected[1]!]]);
    const counted = await ok(
      "SELECT diff_type, count(*) FROM DOLT_DIFF('main...supplier-updates', 'products') d GROUP BY d.diff_type ORDER BY 1",
    );
    assert.deepEqual(counted.rows, [
      ['added', '1'],
      ['modified', '1'],
      ['removed', '1'],
    ]);
  });

  it('accepts base32 and 40-hex commit hashes as revisions, and joins a diff with a table', async () => {
    const v1 = await tagCommit('v1');
    const main = await branchHead('main');
    const b32 = await ok(`SELECT * FROM DOLT_DIFF('${v1}', '${main}', 'products')`);
    const hex = await ok(`SELECT * FROM DOLT_DIFF('${doltHashToHex(v1)}..${doltHashToHex(main)}', 'products')`);
    const names = await ok("SELECT * FROM DOLT_DIFF('v1', 'main', 'products')");
    assert.deepEqual(b32.rows, names.rows);
    assert.deepEqual(hex.rows, names.rows);
    const joined = await ok("SELECT s.city, d.diff_type FROM DOLT_DIFF('v1', 'main', 'stores') d JOIN stores s ON s.id = d.to_id");
    const expected = (await expectedDiff('stores', 'v1', 'main')).map((c) => [c.to!['city'] ?? null, c.type]);
    assert.deepEqual(joined.rows, expected);
  });

  it('dolt_commit_diff_<t> takes from_commit and to_commit from WHERE', async () => {
    const base = await mergeBaseOf('main', 'supplier-updates');
    const head = await branchHead('supplier-updates');
    const d = await ok(`SELECT * FROM dolt_commit_diff_suppliers WHERE from_commit = '${base}' AND to_commit = HASHOF('supplier-updates')`);
    assertDiff(d, await expectedDiff('suppliers', base, 'supplier-updates'), 'id', base, head);
    const filtered = await ok(
      `SELECT to_id FROM dolt_commit_diff_suppliers c WHERE c.to_commit = '${head}' AND c.from_commit = '${base}' AND c.diff_type = 'added'`,
    );
    assert.deepEqual(
      filtered.rows,
      (await expectedDiff('suppliers', base, 'supplier-updates')).filter((x) => x.type === 'added').map((x) => [x.key]),
    );
  });

  it("dolt_commit_diff_<t> takes Dolt's documented three-dot form: from_commit = DOLT_MERGE_BASE(a, b)", async () => {
    const base = await mergeBaseOf('main', 'supplier-updates');
    const head = await branchHead('supplier-updates');
    const d = await ok(
      "SELECT * FROM dolt_commit_diff_suppliers WHERE to_commit = HASHOF('supplier-updates') AND from_commit = DOLT_MERGE_BASE('main', 'supplier-updates')",
    );
    assertDiff(d, await expectedDiff('suppliers', base, 'supplier-updates'), 'id', base, head);
  });

  // ---- stat, summary, schema diff, patch

  it('DOLT_DIFF_STAT and DOLT_DIFF_SUMMARY count what the plain reads show, two- and three-dot, optional table', async () => {
    const base = await mergeBaseOf('main', 'supplier-updates');
    const count = (changes: RowChange[], t: RowChange['type']): string => String(changes.filter((c) => c.type === t).length);
    for (const [q, from] of [
      [
        "SELECT table_name, rows_added, rows_modified, rows_deleted FROM DOLT_DIFF_STAT('main...supplier-updates') ORDER BY table_name",
        base,
      ],
      [
        `SELECT table_name, rows_added, rows_modified, rows_deleted FROM DOLT_DIFF_STAT('${base}', 'supplier-updates') ORDER BY table_name`,
        base,
      ],
      [
        "SELECT table_name, rows_added, rows_modified, rows_deleted FROM DOLT_DIFF_STAT('main..supplier-updates') ORDER BY table_name",
        'main',
      ],
    ] as const) {
      const expected = [];
      for (const table of ['products', 'suppliers']) {
        const c = await expectedDiff(table, from, 'supplier-updates');
        expected.push([table, count(c, 'added'), count(c, 'modified'), count(c, 'removed')]);
      }
      assert.deepEqual((await ok(q)).rows, expected, q);
    }
    const one = await ok("SELECT table_name FROM DOLT_DIFF_STAT('main...supplier-updates', 'suppliers')");
    assert.deepEqual(one.rows, [['suppliers']]);
    const summary = await ok(
      "SELECT from_table_name, to_table_name, diff_type, data_change, schema_change FROM DOLT_DIFF_SUMMARY('main...supplier-updates') ORDER BY to_table_name",
    );
    assert.deepEqual(summary.rows, [
      ['products', 'products', 'modified', '1', '0'],
      ['suppliers', 'suppliers', 'modified', '1', '0'],
    ]);
  });

  it('DOLT_SCHEMA_DIFF shows the schema change with the create statements of each side', async () => {
    const before = (await ok("SELECT commit_hash FROM dolt_log WHERE message = 'Review supplier ratings'")).rows[0]![0] as string;
    const after = (await ok("SELECT commit_hash FROM dolt_log WHERE message = 'Record supplier contact emails'")).rows[0]![0] as string;
    const createAt = async (ref: string): Promise<string> => (await ok('SHOW CREATE TABLE suppliers', ref)).rows[0]![1] as string;
    for (const q of [
      `SELECT * FROM DOLT_SCHEMA_DIFF('${before}', '${after}')`,
      `SELECT * FROM DOLT_SCHEMA_DIFF('${before}..${after}', 'suppliers')`,
    ]) {
      const d = objects(await ok(q));
      assert.equal(d.length, 1, q);
      assert.equal(d[0]!['from_table_name'], 'suppliers');
      assert.equal(d[0]!['to_table_name'], 'suppliers');
      assert.equal(d[0]!['from_create_statement']!.replace(/\s+/g, ' '), (await createAt(before)).replace(/\s+/g, ' '));
      assert.equal(d[0]!['to_create_statement']!.replace(/\s+/g, ' '), (await createAt(after)).replace(/\s+/g, ' '));
    }
    assert.deepEqual((await ok("SELECT * FROM DOLT_SCHEMA_DIFF('main...supplier-updates')")).rows, []);
  });

  it('DOLT_PATCH gives one statement per changed row, with base32 commit hashes', async () => {
    const base = await mergeBaseOf('main', 'supplier-updates');
    const head = await branchHead('supplier-updates');
    const d = objects(await ok("SELECT * FROM DOLT_PATCH('main...supplier-updates', 'suppliers')"));
    const expected = await expectedDiff('suppliers', base, 'supplier-updates');
    assert.equal(d.length, expected.length);
    for (const r of d) {
      assert.equal(r['from_commit_hash'], base);
      assert.equal(r['to_commit_hash'], head);
      assert.equal(r['table_name'], 'suppliers');
    }
    const kinds = d.map((r) => (r['statement'] as string).split(' ')[0]).sort();
    // MySQL's text, as Dolt writes it: identifiers in backticks, never "double quotes" (strings in MySQL).
    for (const r of d) {
      const toks = tokenize(r['statement'] as string);
      assert.equal(toks.filter((t) => t.kind === 'dquoted').length, 0, r['statement'] as string);
      assert.ok(
        toks.some((t) => t.kind === 'bquoted' && t.text === '`suppliers`'),
        r['statement'] as string,
      );
    }
    assert.deepEqual(kinds, expected.map((c) => ({ added: 'INSERT', modified: 'UPDATE', removed: 'DELETE' })[c.type]).sort());
    const all = await ok(`SELECT DISTINCT table_name FROM DOLT_PATCH('${base}', '${head}') ORDER BY 1`);
    assert.deepEqual(all.rows, [['products'], ['suppliers']]);
  });

  // ---- DOLT_LOG

  it('DOLT_LOG takes a revision, a..b, a...b, ^rev and --not, matching the plain logs of each ref', async () => {
    const hashes = async (q: string): Promise<string[]> => (await ok(q)).rows.map((r) => r[0] as string);
    const main = await logAt('main');
    const v1 = await logAt('v1');
    const vale = await logAt('vale-rating');
    assert.deepEqual(await hashes("SELECT commit_hash FROM DOLT_LOG('main')"), main);
    assert.deepEqual(await hashes('SELECT commit_hash FROM DOLT_LOG()'), main);
    const notInV1 = main.filter((h) => !v1.includes(h));
    assert.deepEqual(await hashes("SELECT commit_hash FROM DOLT_LOG('v1..main')"), notInV1);
    assert.deepEqual(await hashes("SELECT commit_hash FROM DOLT_LOG('main', '^v1')"), notInV1);
    assert.deepEqual(await hashes("SELECT commit_hash FROM DOLT_LOG('main', '--not', 'v1')"), notInV1);
    const sym = [...main.filter((h) => !vale.includes(h)), ...vale.filter((h) => !main.includes(h))].sort();
    assert.deepEqual((await hashes("SELECT commit_hash FROM DOLT_LOG('main...vale-rating')")).sort(), sym);
    assert.deepEqual((await hashes("SELECT commit_hash FROM DOLT_LOG('vale-rating...main')")).sort(), sym);
    const cols = await ok(`SELECT * FROM DOLT_LOG('${await tagCommit('v2')}') LIMIT 1`);
    assert.deepEqual(
      cols.columns.map((c) => c.name),
      ['commit_hash', 'committer', 'email', 'date', 'message', 'commit_order'],
    );
    assert.deepEqual(cols.rows[0]![0], await tagCommit('v2'));
  });

  it('DOLT_LOG --parents lists each parent (merge commits have two); --merges keeps only those', async () => {
    const ancestors = objects(
      await ok('SELECT commit_hash, parent_hash, parent_index FROM dolt_commit_ancestors WHERE parent_hash IS NOT NULL'),
    );
    const parentsOf = (h: string): string =>
      ancestors
        .filter((a) => a['commit_hash'] === h)
        .sort((x, y) => Number(x['parent_index']) - Number(y['parent_index']))
        .map((a) => a['parent_hash'])
        .join(', ');
    const d = objects(await ok("SELECT * FROM DOLT_LOG('main', '--parents')"));
    assert.deepEqual(
      d.map((r) => r['commit_hash']),
      await logAt('main'),
    );
    for (const r of d) assert.equal(r['parents'], parentsOf(r['commit_hash'] as string));
    const merges = (await ok("SELECT commit_hash FROM DOLT_LOG('main', '--merges')")).rows.map((r) => r[0]);
    assert.deepEqual(
      merges,
      d.filter((r) => String(r['parents']).includes(',')).map((r) => r['commit_hash']),
    );
    assert.equal(merges.length, 1, 'the merge of pull #2');
  });

  it("commit_order in DOLT_LOG and dolt_log is each commit's height in the commit graph", async () => {
    const edges = objects(await ok('SELECT commit_hash, parent_hash FROM dolt_commit_ancestors'));
    const parents = new Map<string, string[]>();
    for (const e of edges)
      parents.set(e['commit_hash']!, [...(parents.get(e['commit_hash']!) ?? []), ...(e['parent_hash'] ? [e['parent_hash']] : [])]);
    const height = (h: string): number => 1 + Math.max(0, ...(parents.get(h) ?? []).map(height));
    for (const q of [
      "SELECT commit_hash, commit_order FROM DOLT_LOG('main...supplier-updates', '--parents')",
      'SELECT commit_hash, commit_order FROM dolt_log',
    ]) {
      const rows = (await ok(q)).rows;
      assert.ok(rows.length > 1, q);
      for (const [h, order] of rows) assert.equal(order, String(height(h!)), `${q}: ${h}`);
    }
    assert.deepEqual((await ok("SELECT commit_order FROM dolt_log WHERE message = 'Initialize data repository'")).rows, [['1']]);
  });

  // ---- AS OF

  it('SELECT … AS OF a branch, tag, base32 or hex commit reads the table at that revision', async () => {
    const v1 = await tagCommit('v1');
    for (const ref of ['v1', v1, doltHashToHex(v1)]) {
      const asOf = await ok(`SELECT * FROM products AS OF '${ref}' ORDER BY id`);
      const plain = await ok('SELECT * FROM products ORDER BY id', 'v1');
      assert.deepEqual(asOf.rows, plain.rows, ref);
      assert.deepEqual(asOf.columns, plain.columns, ref);
    }
    const onBranch = await ok("SELECT id, name FROM `suppliers` AS OF 'supplier-updates' AS s WHERE s.id > 4 ORDER BY s.id");
    const plain = await ok('SELECT id, name FROM suppliers WHERE id > 4 ORDER BY id', 'supplier-updates');
    assert.deepEqual(onBranch.rows, plain.rows);
  });

  it('joins two revisions of a table with AS OF', async () => {
    const [a, b] = await Promise.all([tableAt('products', 'v1'), tableAt('products', 'main')]);
    const expected = [...a.rows.keys()]
      .filter((k) => b.rows.has(k) && Number(a.rows.get(k)!['price']) !== Number(b.rows.get(k)!['price']))
      .map((k) => [k, a.rows.get(k)!['price'], b.rows.get(k)!['price']]);
    assert.ok(expected.length > 0);
    const d = await ok(
      "SELECT o.id, o.price, n.price FROM products AS OF 'v1' o JOIN products AS OF 'main' n ON n.id = o.id WHERE o.price <> n.price ORDER BY o.id",
    );
    assert.deepEqual(d.rows, expected);
  });

  it('DESCRIBE and SHOW CREATE TABLE take AS OF too, answering the schema at that revision', async () => {
    const before = (await ok("SELECT commit_hash FROM dolt_log WHERE message = 'Review supplier ratings'")).rows[0]![0] as string;
    for (const [q, ref] of [
      ["DESCRIBE suppliers AS OF '%'", before],
      ["SHOW CREATE TABLE suppliers AS OF '%'", before],
      ["SHOW COLUMNS FROM `suppliers` AS OF '%'", 'vale-rating'],
    ] as const) {
      const asOf = await ok(q.replace('%', ref), 'main');
      const plain = await ok(q.replace(/ AS OF .*$/, ''), ref);
      assert.deepEqual(asOf, plain, q);
    }
    assert.ok(!(await ok(`DESCRIBE suppliers AS OF '${before}'`)).rows.some((r) => r[0] === 'email'), 'the email column came later');
    const bad = await query("DESCRIBE suppliers AS OF 'nope'");
    assert.equal(bad.status, 'error');
    assert.match(bad.message ?? '', /"nope"/);
  });

  // ---- merge conflict previews

  it('DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY and DOLT_PREVIEW_MERGE_CONFLICTS show what a merge would conflict on', async () => {
    const vbase = await mergeBaseOf('main', 'vale-rating');
    const [b, ours, theirs] = await Promise.all([
      tableAt('suppliers', vbase),
      tableAt('suppliers', 'main'),
      tableAt('suppliers', 'vale-rating'),
    ]);
    const conflicting = [...b.rows.keys()].filter((k) => {
      const [x, o, t] = [b.rows.get(k), ours.rows.get(k), theirs.rows.get(k)].map((r) => JSON.stringify(r ?? null));
      return o !== x && t !== x && o !== t;
    });
    assert.deepEqual(conflicting, ['1']);
    const summary = await ok("SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY('main', 'vale-rating')");
    assert.deepEqual(
      summary.columns.map((c) => c.name),
      ['table', 'num_data_conflicts', 'num_schema_conflicts'],
    );
    assert.deepEqual(summary.rows, [['suppliers', String(conflicting.length), '0']]);
    const detail = objects(await ok("SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS('main', 'vale-rating', 'suppliers')"));
    assert.equal(detail.length, 1);
    const row = detail[0]!;
    for (const col of ['id', 'name', 'rating']) {
      assert.equal(row[`base_${col}`], b.rows.get('1')![col]);
      assert.equal(row[`our_${col}`], ours.rows.get('1')![col]);
      assert.equal(row[`their_${col}`], theirs.rows.get('1')![col]);
    }
    assert.equal(row['our_diff_type'], 'modified');
    assert.equal(row['their_diff_type'], 'modified');
    // Dolt's from_root_ish: the commit being merged in; dolt_conflict_id: a base64 id, stable.
    assert.equal(row['from_root_ish'], await branchHead('vale-rating'));
    assert.match(row['dolt_conflict_id'] ?? '', /^[A-Za-z0-9+/]{22}$/);
    const again = objects(await ok("SELECT dolt_conflict_id FROM DOLT_PREVIEW_MERGE_CONFLICTS('main', 'vale-rating', 'suppliers')"));
    assert.deepEqual(again, [{ dolt_conflict_id: row['dolt_conflict_id'] }]);
    // A clean merge previews no conflicts, and a table without conflicts has no rows.
    assert.deepEqual((await ok("SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY('main', 'supplier-updates')")).rows, []);
    assert.deepEqual((await ok("SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS('main', 'vale-rating', 'products')")).rows, []);
  });

  it('previews never write: the database file, its branches and its history are unchanged', async () => {
    const file = join(hub.dataDir, 'databases', 'alice', 'prices.db');
    const digest = (): string => createHash('sha256').update(readFileSync(file)).digest('hex');
    const before = {
      file: digest(),
      branches: (await hub.fetch(`/databases/${DB}/branches`, { user: 'alice' })).body.data,
      log: await logAt('main'),
    };
    await ok("SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY('main', 'vale-rating')");
    await ok("SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS('main', 'vale-rating', 'suppliers')");
    await ok("SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY('main', 'supplier-updates')");
    assert.equal(digest(), before.file);
    assert.deepEqual((await hub.fetch(`/databases/${DB}/branches`, { user: 'alice' })).body.data, before.branches);
    assert.deepEqual(await logAt('main'), before.log);
    assert.deepEqual((await ok('SELECT * FROM dolt_conflicts')).rows, []);
    assert.deepEqual(
      (await ok('SELECT * FROM suppliers WHERE id = 1')).rows,
      (await ok('SELECT * FROM suppliers WHERE id = 1', before.log[0]!)).rows,
    );
  });

  // ---- bad input: status error naming the problem, never a 500

  it('answers bad input with status error and a message naming what is wrong', async () => {
    const cases: [string, RegExp][] = [
      ["SELECT * FROM DOLT_DIFF('nope', 'main', 'products')", /"nope"/],
      ["SELECT * FROM DOLT_DIFF('v1', 'main', 'no_such_table')", /table not found: no_such_table/],
      ["SELECT * FROM DOLT_DIFF('v1', 'main')", /two revisions/],
      ["SELECT * FROM DOLT_DIFF('v1')", /2 or 3 arguments/],
      ["SELECT * FROM DOLT_DIFF('a', 'b', 'c', 'd')", /2 or 3 arguments.*got 4/],
      ["SELECT * FROM DOLT_DIFF('v1..nope', 'products')", /"nope"/],
      ["SELECT * FROM DOLT_DIFF(HASHOF('main'), 'v1', 'products')", /argument 1 must be a literal/],
      ["SELECT * FROM DOLT_DIFF_STAT('v1', 'ghost')", /"ghost"/],
      ["SELECT * FROM DOLT_DIFF_STAT('v1', 'main', 'no_such_table')", /table not found: no_such_table/],
      ["SELECT * FROM DOLT_PATCH('v1', 'main', 'products', 'x')", /1 to 3 arguments/],
      ["SELECT HASHOF('nope')", /"nope"/],
      ['SELECT HASHOF()', /HASHOF takes 1 argument, got 0/],
      ["SELECT DOLT_MERGE_BASE('main')", /2 arguments, got 1/],
      ["SELECT DOLT_MERGE_BASE('main', 'nope')", /"nope"/],
      ["SELECT * FROM products AS OF 'nope'", /"nope"/],
      ["SELECT * FROM no_such_table AS OF 'main'", /table not found: no_such_table/],
      ['SELECT * FROM products AS OF 42', /quoted string/],
      ["SELECT * FROM DOLT_LOG('nope')", /"nope"/],
      ["SELECT * FROM DOLT_LOG('main', '--bogus')", /unknown option "--bogus"/],
      ["SELECT * FROM dolt_commit_diff_products WHERE from_commit = HASHOF('v1')", /needs both from_commit and to_commit/],
      ["SELECT * FROM dolt_commit_diff_products WHERE from_commit = 'nope' AND to_commit = HASHOF('main')", /"nope"/],
      ["SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY('main')", /2 arguments \(base, merge\), got 1/],
      ["SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS('main', 'vale-rating', 'no_such_table')", /table not found: no_such_table/],
      ["SELECT * FROM DOLT_PREVIEW_MERGE_CONFLICTS('main', 'nope', 'suppliers')", /"nope"/],
      // A NUL ends the revision for the engine (a C string): refused, never read as `main`.
      ["SELECT HASHOF('main\\0anything')", /NUL/],
      ["SELECT * FROM products AS OF 'main\\0x'", /quoted string/],
      ["SELECT * FROM DOLT_LOG('main\\0x')", /literal value/],
    ];
    for (const [q, re] of cases) {
      const d = await query(q);
      assert.equal(d.status, 'error', q);
      assert.match(d.message ?? '', re, q);
    }
  });

  it('stays read-only: writing procedures are still refused, whatever the Dolt forms around them', async () => {
    for (const q of [
      "SELECT dolt_merge('vale-rating')",
      "SELECT HASHOF('main'), dolt_branch('x')",
      "SELECT * FROM DOLT_DIFF('v1', 'main', 'products') WHERE dolt_commit('-m', 'x') IS NULL",
    ]) {
      const d = await query(q);
      assert.equal(d.status, 'error', q);
    }
    assert.ok(!(await hub.fetch(`/databases/${DB}/branches`, { user: 'alice' })).body.data.some((b: { name: string }) => b.name === 'x'));
  });
});
