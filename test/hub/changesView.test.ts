// The Changes view's core (src/core/review/changesPin.ts, diffSource.ts, patchPages.ts) through the
// real hub on the seeded data: the pinned pair, the table list and every page of a table's diff are
// held to plain reads of each table at each end (SELECT * at a commit), never to another builder.
import { hubSql } from '../helpers/hubSql';
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import type { Cell, QueryResult } from '../../src/shared/wire';
import { loadDiffTableSpec, loadTableChanges, pinChanges, tableDiffFingerprint } from '../../src/core/review/changesPin';
import type { ReviewRunner } from '../../src/core/sql/sqlPort';
import { DiffPageSource, PartialDiffError, changedDiffColumns } from '../../src/core/review/diffSource';
import { patchPages } from '../../src/core/review/patchPages';
import type { RowDiffKind } from '../../src/core/review/doltQueries';

const PRICES = 'alice/prices';
type Row = Record<string, Cell>;

function norm(v: Cell | undefined): string | null {
  if (v === null || v === undefined) return null;
  return /^-?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : v;
}

describe('the Changes view through the hub (pinned pair, table list, paged diff)', function () {
  let hub: HubHandle;
  before(async function () {
    // The view's core sends some queries side by side, which the extension's API client retries
    // on 429 after Retry-After; this test's plain sender does not, so the hub lets them wait their
    // turn as long as a loaded machine needs instead of refusing them after the default wait.
    hub = await startHub({ seed: true, args: ['--queue-wait-ms', '120000'] });
    await hub.token('alice');
  });
  after(async () => hub?.stop());

  const send = (db: string, ref: string, q: string, limit = 10000): Promise<QueryResult> => hubSql(() => hub, db).query(q, ref, limit);
  /** The runner the view uses, bound to one database; `cap` plays a server with a lower row cap. */
  const runner =
    (db: string, cap = Infinity, log?: string[]): ReviewRunner =>
    async (q, opts) => {
      log?.push(q.sql);
      return send(db, q.at, q.sql, Math.min(opts?.limit ?? 1000, cap));
    };
  const plainLog = async (ref: string, db = PRICES): Promise<string[]> =>
    (await send(db, ref, 'SELECT commit_hash FROM dolt_log')).rows.map((r) => r[0] as string);
  const branchHead = async (name: string, db = PRICES): Promise<string> => {
    const list = (await hub.fetch(`/databases/${db}/branches`, { user: 'alice' })).body.data as { name: string; head_commit_sha: string }[];
    return list.find((b) => b.name === name)!.head_commit_sha;
  };
  const tagCommit = async (name: string): Promise<string> => {
    const list = (await hub.fetch(`/databases/${PRICES}/tags`, { user: 'alice' })).body.data as { name: string; commit_sha: string }[];
    return list.find((t) => t.name === name)!.commit_sha;
  };
  const tableAt = async (table: string, ref: string, db = PRICES): Promise<Map<string, Row> | undefined> => {
    const d = await send(db, ref, `SELECT * FROM \`${table}\``);
    if (d.status !== 'success') return undefined;
    const key = d.columns.find((c) => c.is_primary_key)?.name ?? d.columns[0]!.name;
    const cols = d.columns.map((c) => c.name);
    return new Map(d.rows.map((r) => [String(r[cols.indexOf(key)]), Object.fromEntries(cols.map((c, i) => [c, r[i] ?? null]))]));
  };
  /** Per key: the kind of change between two plain reads (columns one side lacks read NULL). */
  const expectedChanges = async (
    table: string,
    from: string,
    to: string,
    db = PRICES,
  ): Promise<Map<string, { kind: RowDiffKind; from?: Row; to?: Row }>> => {
    const a = (await tableAt(table, from, db)) ?? new Map<string, Row>();
    const b = (await tableAt(table, to, db)) ?? new Map<string, Row>();
    const out = new Map<string, { kind: RowDiffKind; from?: Row; to?: Row }>();
    for (const key of new Set([...a.keys(), ...b.keys()])) {
      const f = a.get(key);
      const t = b.get(key);
      if (f && !t) out.set(key, { kind: 'removed', from: f });
      else if (!f && t) out.set(key, { kind: 'added', to: t });
      else if ([...new Set([...Object.keys(f!), ...Object.keys(t!)])].some((c) => norm(f![c]) !== norm(t![c])))
        out.set(key, { kind: 'modified', from: f!, to: t! });
    }
    return out;
  };
  const countsOf = (m: Map<string, { kind: RowDiffKind }>): { added: number; modified: number; removed: number } => {
    const c = { added: 0, modified: 0, removed: 0 };
    for (const v of m.values()) c[v.kind]++;
    return c;
  };

  it('a pull (three dots) pins merge base → head and lists each changed table with the counts plain reads give', async () => {
    const head = await branchHead('supplier-updates');
    const onMain = new Set(await plainLog('main'));
    const base = (await plainLog('supplier-updates')).find((h) => onMain.has(h))!;
    const pinned = await pinChanges({ kind: 'pull', toBranch: 'main', fromBranch: 'supplier-updates' }, runner(PRICES));
    assert.deepEqual(pinned.pair, { kind: 'twoDot', from: base, to: head });
    assert.equal(pinned.readInFork, false);
    const summary = await loadTableChanges(pinned.pair, runner(PRICES));
    assert.ok(summary.completeness.complete);
    const names = summary.tables.map((t) => t.table);
    assert.deepEqual(names, ['products', 'suppliers']);
    for (const t of summary.tables) {
      const expected = countsOf(await expectedChanges(t.table, base, head));
      assert.deepEqual({ added: t.rows!.added, modified: t.rows!.modified, removed: t.rows!.removed }, expected, t.table);
    }
  });

  it("every page of a table's diff, keyset-paged in twos, is the plain reads' changes in key order with old values on changed cells only", async () => {
    const pinned = await pinChanges({ kind: 'pull', toBranch: 'main', fromBranch: 'supplier-updates' }, runner(PRICES));
    const summary = await loadTableChanges(pinned.pair, runner(PRICES));
    for (const change of summary.tables) {
      const spec = await loadDiffTableSpec(pinned.pair, change, runner(PRICES));
      const sql: string[] = [];
      const source = new DiffPageSource({ pair: pinned.pair, spec, run: runner(PRICES, Infinity, sql) });
      const expected = await expectedChanges(change.table, pinned.pair.from, pinned.pair.to);
      const got: { key: string; kind: string; row: Cell[]; old: Cell[] | null }[] = [];
      const signal = new AbortController().signal;
      for (let start = 0; ; start += 2) {
        const page = await source.read(start, start + 2, { sort: [], filters: [] }, signal);
        page.rows.forEach((row, i) => got.push({ key: String(row[0]), kind: page.kinds![i]!, row, old: page.old![i] ?? null }));
        if (page.end || page.rows.length < 2) break;
      }
      const keys = [...expected.keys()].sort((a, b) => Number(a) - Number(b));
      assert.deepEqual(
        got.map((g) => g.key),
        keys,
        change.table,
      );
      const cols = source.gridColumns().map((c) => c.name);
      for (const g of got) {
        const e = expected.get(g.key)!;
        assert.equal(g.kind, e.kind, `${change.table} ${g.key}`);
        const shown = e.kind === 'removed' ? e.from! : e.to!;
        cols.forEach((c, i) => assert.equal(norm(g.row[i]), norm(shown[c] ?? null), `${change.table} ${g.key}.${c}`));
        if (e.kind === 'modified') {
          cols.forEach((c, i) => {
            const differs = norm(e.from![c] ?? null) !== norm(e.to![c] ?? null);
            assert.equal(norm(g.old![i]), norm(differs ? (e.from![c] ?? null) : g.row[i]!), `old of ${change.table} ${g.key}.${c}`);
          });
        } else assert.equal(g.old, null);
      }
      // After the first page, pages are read by keyset (no OFFSET).
      assert.ok(sql.length >= 2 && sql.slice(1).every((q) => !/OFFSET/.test(q)), sql.join('\n'));
    }
  });

  it('filters by kind on the server, and a server that caps rows below the page still gives the whole page', async () => {
    const pinned = await pinChanges({ kind: 'pull', toBranch: 'main', fromBranch: 'supplier-updates' }, runner(PRICES));
    const change = (await loadTableChanges(pinned.pair, runner(PRICES))).tables.find((t) => t.table === 'suppliers')!;
    const spec = await loadDiffTableSpec(pinned.pair, change, runner(PRICES));
    const expected = await expectedChanges('suppliers', pinned.pair.from, pinned.pair.to);
    const signal = new AbortController().signal;
    const sql: string[] = [];
    const onlyAdded = new DiffPageSource({ pair: pinned.pair, spec, run: runner(PRICES, Infinity, sql), kinds: ['added', 'removed'] });
    const page = await onlyAdded.read(0, 100, { sort: [], filters: [] }, signal);
    assert.deepEqual(
      page.kinds!.slice().sort(),
      [...expected.values()]
        .filter((e) => e.kind !== 'modified')
        .map((e) => e.kind)
        .sort(),
    );
    assert.match(sql[0]!, /diff_type IN \('added', 'removed'\)/);
    assert.equal(
      await onlyAdded.count({ sort: [], filters: [] }, signal),
      [...expected.values()].filter((e) => e.kind !== 'modified').length,
    );
    // A server cap of 1 row per answer: the page is still whole, read on after each cut.
    const capped = new DiffPageSource({ pair: pinned.pair, spec, run: runner(PRICES, 1) });
    const whole = await capped.read(0, 100, { sort: [], filters: [] }, signal);
    assert.equal(whole.rows.length, expected.size);
    assert.equal(whole.end, true);
  });

  it('a timed-out page fails with a message and tells the view the diff is partial', async () => {
    const pinned = await pinChanges({ kind: 'refs', from: 'v1', to: 'v2', threeDot: false }, runner(PRICES));
    const change = (await loadTableChanges(pinned.pair, runner(PRICES))).tables[0]!;
    const spec = await loadDiffTableSpec(pinned.pair, change, runner(PRICES));
    const told: string[] = [];
    const slow: ReviewRunner = async () =>
      ({ status: 'timeout', message: 'query timed out', columns: [], rows: [] }) as unknown as QueryResult;
    const source = new DiffPageSource({
      pair: pinned.pair,
      spec,
      run: slow,
      onPartial: (c) => told.push(c.complete ? 'complete' : c.reason),
    });
    await assert.rejects(source.read(0, 10, { sort: [], filters: [] }, new AbortController().signal), PartialDiffError);
    assert.deepEqual(told, ['timeout']);
  });

  it("two tags (two dots) pin to the tags' commits and show the carrot price change old → new", async () => {
    const pinned = await pinChanges({ kind: 'refs', from: 'v1', to: 'v2', threeDot: false }, runner(PRICES));
    assert.deepEqual(pinned.pair, { kind: 'twoDot', from: await tagCommit('v1'), to: await tagCommit('v2') });
    const tables = (await loadTableChanges(pinned.pair, runner(PRICES))).tables;
    assert.deepEqual(
      tables.map((t) => t.table),
      ['products'],
    );
    const before = (await tableAt('products', 'v1'))!.get('3')!;
    const after = (await tableAt('products', 'v2'))!.get('3')!;
    const spec = await loadDiffTableSpec(pinned.pair, tables[0]!, runner(PRICES));
    const source = new DiffPageSource({ pair: pinned.pair, spec, run: runner(PRICES) });
    const page = await source.read(0, 50, { sort: [], filters: [] }, new AbortController().signal);
    const i = source.gridColumns().findIndex((c) => c.name === 'price');
    assert.equal(page.kinds![0], 'modified');
    assert.equal(norm(page.old![0]![i]!), norm(before['price']!));
    assert.equal(norm(page.rows[0]![i]!), norm(after['price']!));
    assert.notEqual(norm(before['price']!), norm(after['price']!));
  });

  it('hide unchanged columns keeps the key and the columns some modified row changed (plain reads)', async () => {
    const pinned = await pinChanges({ kind: 'pull', toBranch: 'main', fromBranch: 'supplier-updates' }, runner(PRICES));
    for (const change of (await loadTableChanges(pinned.pair, runner(PRICES))).tables) {
      const spec = await loadDiffTableSpec(pinned.pair, change, runner(PRICES));
      const expected = await expectedChanges(change.table, pinned.pair.from, pinned.pair.to);
      const changed = new Set<string>();
      for (const e of expected.values())
        if (e.kind === 'modified')
          for (const c of Object.keys(e.to!)) if (norm(e.from![c] ?? null) !== norm(e.to![c] ?? null)) changed.add(c);
      const keep = await changedDiffColumns(pinned.pair, spec, runner(PRICES));
      const key = spec.toColumns.filter((c) => c.primaryKey).map((c) => c.name);
      const all = spec.toColumns.map((c) => c.name);
      const want = changed.size === 0 ? all : all.filter((c) => key.includes(c) || changed.has(c));
      assert.deepEqual(keep, want, change.table);
    }
  });

  it('a cross-fork pull is read in the fork, from the merge base with the target branch to the head', async () => {
    const pulls = (await hub.fetch('/databases/alice/inventory/pulls', { user: 'alice' })).body.data as { pull_number: number }[];
    assert.ok(pulls.length > 0);
    const head = await branchHead('fix-typo', 'bob/inventory');
    const onMain = new Set(await plainLog('main', 'alice/inventory'));
    const base = (await plainLog('fix-typo', 'bob/inventory')).find((h) => onMain.has(h))!;
    const pinned = await pinChanges(
      { kind: 'crossForkPull', toBranch: 'main', fromBranch: 'fix-typo' },
      runner('alice/inventory'),
      runner('bob/inventory'),
    );
    assert.deepEqual(pinned.pair, { kind: 'twoDot', from: base, to: head });
    assert.equal(pinned.readInFork, true);
    const tables = (await loadTableChanges(pinned.pair, runner('bob/inventory'))).tables;
    const expected = countsOf(await expectedChanges('stock', base, head, 'bob/inventory'));
    assert.deepEqual(
      tables.map((t) => [t.table, t.rows]),
      [['stock', expected]],
    );
  });

  it('the SQL patch pages in statement order and, applied to the old rows, names every changed key', async () => {
    const pinned = await pinChanges({ kind: 'pull', toBranch: 'main', fromBranch: 'supplier-updates' }, runner(PRICES));
    const expected = await expectedChanges('suppliers', pinned.pair.from, pinned.pair.to);
    let text = '';
    let pages = 0;
    for await (const p of patchPages(pinned.pair, 'suppliers', runner(PRICES), 1, new AbortController().signal)) {
      text += p.text;
      pages++;
    }
    const lines = text.trim().split('\n');
    assert.equal(lines.length, expected.size);
    assert.equal(pages, expected.size);
    for (const [key, e] of expected) {
      const verb = e.kind === 'added' ? 'INSERT' : e.kind === 'removed' ? 'DELETE' : 'UPDATE';
      assert.ok(
        lines.some((l) => l.startsWith(verb) && new RegExp(`\\b${key}\\b`).test(l)),
        `${verb} of ${key} in\n${text}`,
      );
    }
  });

  it("a Viewed fingerprint changes when the table's diff does, and not for a commit on another table", async () => {
    const pinned = await pinChanges({ kind: 'refs', from: 'v1', to: 'main', threeDot: true }, runner(PRICES));
    const fp = await tableDiffFingerprint(pinned.pair, 'products', runner(PRICES));
    assert.equal(fp, await tableDiffFingerprint(pinned.pair, 'products', runner(PRICES)));
    // main's log: the last commit that changed products differs from the one that last changed suppliers.
    const fpSuppliers = await tableDiffFingerprint(pinned.pair, 'suppliers', runner(PRICES));
    assert.notEqual(fp.split(':')[1], fpSuppliers.split(':')[1]);
    // main moved on since v2 with commits on other tables only: products' mark stays.
    const atV2 = await pinChanges({ kind: 'refs', from: 'v1', to: 'v2', threeDot: true }, runner(PRICES));
    assert.equal(await tableDiffFingerprint(atV2.pair, 'products', runner(PRICES)), fp);
    // A head with a later commit on products (supplier-updates reprices bananas): the mark goes.
    const later = await pinChanges({ kind: 'refs', from: 'v1', to: 'supplier-updates', threeDot: true }, runner(PRICES));
    assert.equal(later.pair.from, pinned.pair.from);
    assert.notEqual(await tableDiffFingerprint(later.pair, 'products', runner(PRICES)), fp);
  });
});
