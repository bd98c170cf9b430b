// The merge preview (src/core/review/mergePreview.ts) through the real hub, on the seeded pulls,
// held to plain reads: each table read with SELECT * at the merge base and at both heads, the merge
// base found from the plain dolt_log of both branches. Pull #4 is clean, pull #5 conflicts in one
// row of suppliers, and alice/inventory's pull from bob's fork is read on the fork.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql } from '../helpers/hubSql';
import type { Cell, DatabaseRef } from '../../src/shared/wire';
import { mergeConfirmationDetail, previewConflictRows, previewMerge } from '../../src/core/review/mergePreview';
import { hubSqlPort } from '../helpers/hubSql';
import { loadRowHistory } from '../../src/core/review/rowHistoryView';

type Row = Record<string, Cell>;

describe('history views through the hub: merge preview and row history (against plain reads)', function () {
  let hub: HubHandle;
  before(async function () {
    hub = await startHub({ seed: true });
    await hub.token('alice');
  });
  after(async () => hub?.stop());

  /** The extension's SQL port over the test hub. */
  const port = hubSqlPort(() => hub);
  const runOn = (db: DatabaseRef) => port.review('hub', db);
  const prices: DatabaseRef = { owner: 'alice', name: 'prices' };
  const sides = (from: string, fromDb: DatabaseRef = prices, db: DatabaseRef = prices) => ({
    db,
    fromBranch: { database: fromDb, branch_name: from },
    toBranch: { database: db, branch_name: 'main' },
  });

  // ---- independent facts
  const log = async (db: string, ref: string): Promise<{ hash: string; date: string }[]> =>
    (await hubSql(() => hub, db).ok('SELECT commit_hash, date FROM dolt_log', ref)).rows.map((r) => ({ hash: r[0]!, date: r[1]! }));
  const mergeBase = async (db: string, a: string, b: string, bDb = db): Promise<string> => {
    const inA = new Set((await log(db, a)).map((c) => c.hash));
    // dolt_log lists newest first (topologically): the first of b's commits that a has.
    return (await log(bDb, b)).find((c) => inA.has(c.hash))!.hash;
  };
  const tableAt = async (db: string, table: string, ref: string): Promise<Map<string, Row> | undefined> => {
    const d = await hubSql(() => hub, db).query(`SELECT * FROM \`${table}\``, ref);
    if (d.status !== 'success') return undefined;
    const key = d.columns.findIndex((c) => c.is_primary_key);
    return new Map(d.rows.map((r) => [String(r[key < 0 ? 0 : key]), Object.fromEntries(d.columns.map((c, i) => [c.name, r[i] ?? null]))]));
  };
  const norm = (v: Cell | undefined): Cell | undefined =>
    v !== null && v !== undefined && /^-?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : v;
  const same = (a: Row | undefined, b: Row | undefined): boolean =>
    !!a && !!b && [...new Set([...Object.keys(a), ...Object.keys(b)])].every((k) => norm(a[k] ?? null) === norm(b[k] ?? null));
  const counts = async (db: string, table: string, from: string, to: string, toDb = db) => {
    const [a, b] = [await tableAt(db, table, from), await tableAt(toDb, table, to)];
    const keys = new Set([...(a?.keys() ?? []), ...(b?.keys() ?? [])]);
    let added = 0,
      modified = 0,
      removed = 0;
    for (const k of keys) {
      const [x, y] = [a?.get(k), b?.get(k)];
      if (x && !y) removed++;
      else if (!x && y) added++;
      else if (!same(x, y)) modified++;
    }
    return { added, modified, removed };
  };
  const tablesAt = async (db: string, ref: string): Promise<string[]> =>
    (await hubSql(() => hub, db).ok('SHOW TABLES', ref)).rows.map((r) => r[0]!);

  it('clean pull #4: the rows each table changes since the merge base, and no conflict', async () => {
    const preview = await previewMerge(runOn, sides('supplier-updates'));
    assert.equal(preview.kind, 'ready');
    if (preview.kind !== 'ready') return;
    const base = await mergeBase('alice/prices', 'main', 'supplier-updates');
    const expected: Record<string, { added: number; modified: number; removed: number }> = {};
    for (const t of new Set([...(await tablesAt('alice/prices', base)), ...(await tablesAt('alice/prices', 'supplier-updates'))])) {
      const c = await counts('alice/prices', t, base, 'supplier-updates');
      if (c.added + c.modified + c.removed > 0) expected[t] = c;
    }
    assert.ok(Object.keys(expected).length >= 2, 'the seed changes two tables');
    const got = Object.fromEntries(
      preview.impact.tables
        .filter((t) => t.rows)
        .map((t) => [t.table, { added: t.rows!.added, modified: t.rows!.modified ?? -1, removed: t.rows!.removed }]),
    );
    assert.deepEqual(got, expected);
    assert.equal(
      preview.impact.rowsChanged,
      Object.values(expected).reduce((n, c) => n + c.added + c.modified + c.removed, 0),
    );
    assert.equal(preview.impact.willConflict, false);
    assert.ok(preview.completeness.complete);
    const detail = mergeConfirmationDetail(preview, 'intro');
    for (const [t, c] of Object.entries(expected)) assert.match(detail, new RegExp(`• ${t}: .*${c.added ? `${c.added} added` : ''}`));
    assert.match(detail, /No conflicts: it merges cleanly\./);
  });

  it('conflicting pull #5: suppliers conflicts in the row both sides changed, with base, ours and theirs as read', async () => {
    const preview = await previewMerge(runOn, sides('vale-rating'));
    assert.equal(preview.kind, 'ready');
    if (preview.kind !== 'ready') return;
    const base = await mergeBase('alice/prices', 'main', 'vale-rating');
    const [b, o, t] = [
      (await tableAt('alice/prices', 'suppliers', base))!,
      (await tableAt('alice/prices', 'suppliers', 'main'))!,
      (await tableAt('alice/prices', 'suppliers', 'vale-rating'))!,
    ];
    const conflicting = [...b.keys()].filter((k) => !same(b.get(k), o.get(k)) && !same(b.get(k), t.get(k)) && !same(o.get(k), t.get(k)));
    assert.equal(conflicting.length, 1);
    assert.equal(preview.impact.willConflict, true);
    assert.deepEqual(
      preview.impact.conflictingTables.map((c) => [c.table, c.dataConflicts]),
      [['suppliers', 1]],
    );
    const [rows] = await previewConflictRows(runOn, preview, { pageSize: 20, maxTables: 5 });
    assert.equal(rows!.table, 'suppliers');
    assert.equal(rows!.page.rows.length, 1);
    const r = rows!.page.rows[0]!;
    rows!.page.columns.forEach((col, i) => {
      assert.equal(norm(r.base[i]), norm(b.get(conflicting[0]!)![col]), `base ${col}`);
      assert.equal(norm(r.ours[i]), norm(o.get(conflicting[0]!)![col]), `ours ${col}`);
      assert.equal(norm(r.theirs[i]), norm(t.get(conflicting[0]!)![col]), `theirs ${col}`);
    });
    assert.match(mergeConfirmationDetail(preview, 'intro'), /It will conflict in suppliers \(1 row\)/);
  });

  it('a cross-fork pull is previewed on the fork: the fork has the target head, so counts and a clean verdict', async () => {
    const inventory = { owner: 'alice', name: 'inventory' };
    const fork = { owner: 'bob', name: 'inventory' };
    const preview = await previewMerge(runOn, sides('fix-typo', fork, inventory));
    assert.equal(preview.kind, 'ready');
    if (preview.kind !== 'ready') return;
    const base = await mergeBase('alice/inventory', 'main', 'fix-typo', 'bob/inventory');
    const c = await counts('bob/inventory', 'stock', base, 'fix-typo');
    assert.deepEqual(
      preview.impact.tables.map((t) => [t.table, t.rows?.added, t.rows?.modified, t.rows?.removed]),
      [['stock', c.added, c.modified, c.removed]],
    );
    assert.equal(c.modified, 1);
    assert.equal(preview.impact.willConflict, false);
  });

  it('row history as the view loads it: pinned at the head, newest version as read now, first version where the row appears', async () => {
    const loaded = await loadRowHistory(runOn(prices), { ref: 'main', table: 'suppliers', key: { id: '1' }, column: 'rating' });
    const branches = (await hub.fetch('/databases/alice/prices/branches', { user: 'alice' })).body.data as {
      name: string;
      head_commit_sha: string;
    }[];
    assert.equal(loaded.commit, branches.find((b) => b.name === 'main')!.head_commit_sha);
    const now = (await tableAt('alice/prices', 'suppliers', 'main'))!.get('1')!;
    assert.deepEqual(
      loaded.history.versions[0]!.cells.map(norm),
      loaded.columns.map((c) => norm(now[c.name] ?? null)),
    );
    const first = loaded.history.versions[loaded.history.versions.length - 1]!;
    assert.ok((await tableAt('alice/prices', 'suppliers', first.commit))!.get('1'), 'the row exists at its first version');
    const parents = (
      await hubSql(() => hub, 'alice/prices').ok(
        `SELECT parent_hash FROM dolt_commit_ancestors WHERE commit_hash = '${first.commit}'`,
        first.commit,
      )
    ).rows;
    for (const [p] of parents) assert.equal((await tableAt('alice/prices', 'suppliers', p!))?.get('1'), undefined, 'and not before it');
    assert.ok(loaded.blame?.blame, 'rating has a last change');
    await assert.rejects(loadRowHistory(runOn(prices), { ref: 'main', table: 'suppliers', key: { name: 'x' } }), /needs a value for id/);
  });

  it('a branch that does not exist is an error, not a clean preview', async () => {
    await assert.rejects(previewMerge(runOn, sides('no-such-branch')));
  });
});
