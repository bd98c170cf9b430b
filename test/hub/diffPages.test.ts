// Pages of a row diff through the real hub, the queries the Changes view sends
// (buildRowDiffPageQuery: first page, after a cursor, at an offset, filtered by kind). The hub
// serves such pages from a copy of the diff (src/hub/doltSql/diffRowCache.ts); every page must be
// what reading the whole diff gives, and the whole diff what plain reads of the table at each
// commit give. Composite keys (text with a backslash, accents, an emoji, case), adds, deletes,
// modifications, a keyless table, and cursors at the edges.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import init from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { serveHub, startHub, type HubHandle } from '../helpers/hub';
import { hubSql } from '../helpers/hubSql';
import type { Cell, QueryResult } from '../../src/shared/wire';
import {
  buildRowDiffCountQuery,
  buildRowDiffPageQuery,
  diffKey,
  rowDiffSelectList,
  type DiffPagePosition,
  type DiffTableSpec,
  type RowDiffKind,
} from '../../src/core/review/doltQueries';
import { buildColumnsQuery, buildPatchQuery } from '../../src/core/review/doltQueries';
import { writePatchFile } from '../../src/core/review/patchPages';
import { createPendingFile } from '../../src/core/export/exportRun';
import { COPY_FROM_FIRST_PAGE } from '../../src/hub/doltSql/engineContext';
import type { ReviewRunner } from '../../src/core/sql/sqlPort';
import { parseColumns } from '../../src/core/review/rowDiff';
import { twoDot, type RevisionPair } from '../../src/core/review/revisions';

const DB = 'alice/diffs';
const REGIONS = ['north', 'south', 'é', 'Z', 'a\\b', '😀', 'n'];

/**
 * The database, written with DoltLite itself (the hub's imports cannot make a keyless table):
 * `main`, then `next` with rows added, removed and modified in every table, then `next2` with one
 * more change to `flat`.
 */
async function buildDatabase(): Promise<Uint8Array> {
  const sqlite3 = await init();
  const db = new sqlite3.oo1.DB('/diffs-gen.db', 'c');
  const lit = (v: string): string => `'${v.replace(/'/g, "''")}'`;
  db.exec('CREATE TABLE stock (region TEXT NOT NULL, id INTEGER NOT NULL, qty INTEGER, label TEXT, weight REAL, PRIMARY KEY (region, id))');
  db.exec('CREATE TABLE flat (id INTEGER PRIMARY KEY, name TEXT, price DECIMAL(10,2), data BLOB, big INTEGER, ratio REAL)');
  db.exec('CREATE TABLE notes (note TEXT, n INTEGER)');
  db.exec('BEGIN');
  for (const region of REGIONS) {
    for (let id = 1; id <= 30; id++) {
      db.exec(
        `INSERT INTO stock VALUES (${lit(region)}, ${id}, ${id * 10}, ${region === 'n' && id === 2 ? 'NULL' : lit(`item ${id}`)}, ${id / 2})`,
      );
    }
  }
  // Integers past 2^53, negative and fractional reals, text with a NUL and with an emoji.
  for (let id = 1; id <= 120; id++) {
    const name = id % 9 === 0 ? `'name' || char(0) || '${id}'` : `'name ${id} 😀'`;
    db.exec(
      `INSERT INTO flat VALUES (${id}, ${name}, ${id}.25, ${id % 10 === 0 ? 'NULL' : `x'00ff${(id % 256).toString(16).padStart(2, '0')}'`}, ${9007199254740993n + BigInt(id) * (id % 2 ? 1n : -1n)}, ${id % 3 ? -id / 8 : 2})`,
    );
  }
  for (let i = 1; i <= 40; i++) db.exec(`INSERT INTO notes VALUES ('note ${i}', ${i})`);
  // Values a JSON text does not carry as they are (the copy reads rows in bulk: diffCopyRead.ts),
  // in a column without a type and typed ones; each row takes the next one's values on `next`.
  db.exec('CREATE TABLE odd (k TEXT PRIMARY KEY, v, r REAL, t TEXT, n INTEGER)');
  const odd = [
    '0.1 + 0.2',
    '1.0 / 3',
    '2.0',
    '-0.0',
    '1e999',
    '5e-324',
    '9007199254740993',
    '-9223372036854775807 - 1',
    "char(65279) || 'bom'",
    "CAST(x'ff41' AS TEXT)",
    'char(65533)',
    "'a' || char(0) || '😀'",
    "x''",
    "x'00ff'",
    'NULL',
    "'12'",
  ];
  const oddRow = (i: number, v: string): string => `(char(65279) || '${i}', ${v}, ${v}, ${v}, ${v})`;
  odd.forEach((v, i) => db.exec(`INSERT INTO odd VALUES ${oddRow(i, v)}`));
  db.exec('COMMIT');
  db.exec(`SELECT dolt_commit('-A', '-m', 'first')`);
  db.exec(`SELECT dolt_branch('next')`);
  db.exec(`SELECT dolt_checkout('next')`);
  db.exec('BEGIN');
  db.exec('DELETE FROM stock WHERE id % 7 = 0');
  db.exec('UPDATE stock SET qty = qty + 1 WHERE id % 3 = 0');
  db.exec(`UPDATE stock SET label = NULL WHERE id = 5`);
  for (const region of REGIONS)
    for (let id = 31; id <= 33; id++) db.exec(`INSERT INTO stock VALUES (${lit(region)}, ${id}, ${id}, 'new ${id}', 1.5)`);
  db.exec(`INSERT INTO stock VALUES ('mid', 1, 5, 'brand new', 2.0)`);
  db.exec('DELETE FROM flat WHERE id % 11 = 0');
  db.exec('UPDATE flat SET price = price + 0.5 WHERE id % 4 = 0');
  db.exec(`UPDATE flat SET data = x'' WHERE id = 9`);
  for (let id = 200; id <= 215; id++) db.exec(`INSERT INTO flat VALUES (${id}, 'late ${id}', 1.00, NULL, -${id}, 1e300)`);
  db.exec('UPDATE flat SET big = big + 1, ratio = ratio * 3 WHERE id % 5 = 0');
  db.exec('DELETE FROM notes WHERE n % 5 = 0');
  odd.forEach((_, i) => db.exec(`REPLACE INTO odd VALUES ${oddRow(i, odd[(i + 1) % odd.length]!)}`));
  for (let i = 1; i <= 6; i++) db.exec(`INSERT INTO notes VALUES ('extra ${i}', ${100 + i})`);
  db.exec('COMMIT');
  db.exec(`SELECT dolt_commit('-A', '-m', 'second')`);
  db.exec(`SELECT dolt_branch('next2')`);
  db.exec(`SELECT dolt_checkout('next2')`);
  db.exec(`UPDATE flat SET name = 'renamed' WHERE id = 5`);
  db.exec(`SELECT dolt_commit('-A', '-m', 'third')`);
  db.exec(`SELECT dolt_checkout('main')`);
  const bytes = sqlite3.capi.sqlite3_js_db_export(db.pointer);
  db.close();
  return bytes;
}

/**
 * Numbers as values: DoltLite's diff shows an integral REAL as `2` where a plain read shows `2.0`
 * (the hub's existing behaviour, the same with or without pages); plain reads are compared by value.
 */
function numbersAsValues(rows: Cell[][]): (Cell | number)[][] {
  return rows.map((r) =>
    r.map((v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) && Math.abs(Number(v)) < 2 ** 53 ? Number(v) : v)),
  );
}

describe('row diff pages through the hub (served from a copy of the diff)', function () {
  // A few hundred page queries; on a loaded machine they take longer than mocha's default.
  this.timeout(180_000);
  let hub: HubHandle;
  let pair: RevisionPair;
  const sql = hubSql(() => hub, DB);
  const head = async (branch: string): Promise<string> =>
    ((await hub.fetch(`/databases/${DB}/branches`, { user: 'alice' })).body.data as { name: string; head_commit_sha: string }[]).find(
      (b) => b.name === branch,
    )!.head_commit_sha;

  before(async function () {
    const first = await startHub({ users: ['alice'] });
    assert.equal(
      (await first.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'diffs', visibility: 'private' } })).status,
      201,
    );
    await first.stop({ keep: true });
    writeFileSync(join(first.dataDir, 'databases', 'alice', 'diffs.db'), await buildDatabase());
    hub = await serveHub(first.dataDir, true);
    pair = twoDot(await head('main'), await head('next'));
  });
  after(async () => hub?.stop());

  const specOf = async (table: string): Promise<DiffTableSpec> => {
    const side = async (at: string) => {
      const q = buildColumnsQuery(table, at);
      return parseColumns(await sql.ok(q.sql, q.at));
    };
    return { table, fromColumns: await side((pair as { from: string }).from), toColumns: await side((pair as { to: string }).to) };
  };
  const page = async (spec: DiffTableSpec, position: DiffPagePosition, pageSize: number, kinds?: RowDiffKind[]): Promise<QueryResult> => {
    const q = buildRowDiffPageQuery(pair, spec, { position, pageSize, ...(kinds ? { kinds } : {}) });
    return sql.ok(q.sql, q.at);
  };
  /** The whole diff in one query: the page query's select list and order, no cursor, no LIMIT. */
  const whole = async (spec: DiffTableSpec, kinds?: RowDiffKind[]): Promise<QueryResult> => {
    const q = buildRowDiffPageQuery(pair, spec, { position: { kind: 'first' }, pageSize: 1, ...(kinds ? { kinds } : {}) });
    return sql.ok(q.sql.replace(/ LIMIT \d+$/, ''), q.at);
  };
  /** Every row, page by page as the view reads: keyset after the last row, or by offset. */
  const paged = async (
    spec: DiffTableSpec,
    pageSize: number,
    by: 'keyset' | 'offset',
    kinds?: RowDiffKind[],
  ): Promise<{ rows: Cell[][]; columns: QueryResult['columns'][] }> => {
    const key = diffKey(spec);
    const rows: Cell[][] = [];
    const columns: QueryResult['columns'][] = [];
    let position: DiffPagePosition = { kind: 'first' };
    for (let n = 0; n < 500; n++) {
      const d = await page(spec, position, pageSize, kinds);
      columns.push(d.columns);
      const got = d.rows.slice(0, pageSize);
      rows.push(...got);
      if (d.rows.length <= pageSize) return { rows, columns };
      const last = got[got.length - 1]!;
      const names = d.columns.map((c) => c.name);
      position =
        by === 'offset'
          ? { kind: 'offset', offset: rows.length }
          : { kind: 'after', key: key.map((k) => last[names.indexOf(`to_${k.name}`)] ?? last[names.indexOf(`from_${k.name}`)] ?? null) };
    }
    throw new Error('too many pages');
  };

  /** The diff from plain reads of the table at each commit: [diff_type, from_… , to_…] per changed key, in key order. */
  const expected = async (spec: DiffTableSpec): Promise<Cell[][]> => {
    const keyCols = spec.toColumns.filter((c) => c.primaryKey).map((c) => c.name);
    // Blobs read as a marker; their hex tells a changed blob apart.
    const blobs = spec.fromColumns.filter((c) => /blob/i.test(c.type)).map((c) => c.name);
    const read = async (at: string) => {
      const d = await sql.ok(`SELECT *${blobs.map((b) => `, hex(\`${b}\`)`).join('')} FROM \`${spec.table}\``, at);
      const names = d.columns.map((c) => c.name);
      const width = spec.fromColumns.length;
      return new Map(
        d.rows.map((r) => [
          JSON.stringify(keyCols.map((k) => r[names.indexOf(k)])),
          { shown: spec.fromColumns.map((c) => r[names.indexOf(c.name)] ?? null), hexes: r.slice(width) },
        ]),
      );
    };
    const before = await read((pair as { from: string }).from);
    const after = await read((pair as { to: string }).to);
    const out: { key: Cell[]; row: Cell[] }[] = [];
    const nulls = spec.fromColumns.map(() => null);
    for (const k of new Set([...before.keys(), ...after.keys()])) {
      const f = before.get(k);
      const t = after.get(k);
      if (f && t && JSON.stringify(f) === JSON.stringify(t)) continue;
      out.push({
        key: JSON.parse(k),
        row: [f && t ? 'modified' : f ? 'removed' : 'added', ...(f?.shown ?? nulls), ...(t?.shown ?? nulls)],
      });
    }
    // Key order as SQLite sorts it: text by UTF-8 bytes, numbers as numbers.
    const cmp = (a: Cell, b: Cell): number =>
      /^\d+$/.test(String(a)) && /^\d+$/.test(String(b))
        ? Number(a) - Number(b)
        : Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
    out.sort((x, y) => x.key.map((v, i) => cmp(v, y.key[i] ?? null)).find((c) => c !== 0) ?? 0);
    return out.map((o) => o.row);
  };

  it('pages of a composite-key diff (keyset and offset) are the whole diff, and plain reads at each commit agree', async () => {
    const spec = await specOf('stock');
    assert.equal(rowDiffSelectList(spec).split(',')[0], 'diff_type');
    const all = await whole(spec);
    const want = await expected(spec);
    assert.deepEqual(numbersAsValues(all.rows), numbersAsValues(want), 'the whole diff is what plain reads of each side give');
    const kinds = new Set(all.rows.map((r) => r[0]));
    assert.deepEqual([...kinds].sort(), ['added', 'modified', 'removed']);
    for (const size of [5, 50, 1000]) {
      const k = await paged(spec, size, 'keyset');
      assert.deepEqual(k.rows, all.rows, `keyset pages of ${size}`);
      for (const cols of k.columns) assert.deepEqual(cols, all.columns, 'each page describes its columns as the whole diff does');
      assert.deepEqual((await paged(spec, size, 'offset')).rows, all.rows, `offset pages of ${size}`);
    }
  });

  it('a kind filter pages to the rows of that kind, in key order', async () => {
    const spec = await specOf('stock');
    const all = await whole(spec);
    for (const kinds of [['added'], ['removed'], ['modified'], ['added', 'removed']] as RowDiffKind[][]) {
      const want = all.rows.filter((r) => kinds.includes(r[0] as RowDiffKind));
      assert.ok(want.length > 0);
      assert.deepEqual((await whole(spec, kinds)).rows, want);
      assert.deepEqual((await paged(spec, 4, 'keyset', kinds)).rows, want, `keyset ${kinds.join('+')}`);
      assert.deepEqual((await paged(spec, 9, 'offset', kinds)).rows, want, `offset ${kinds.join('+')}`);
    }
  });

  it('cursors at the edges: before the first key, between keys, on the last key and past it', async () => {
    const spec = await specOf('stock');
    const all = (await whole(spec)).rows;
    const names = (await whole(spec)).columns.map((c) => c.name);
    const keyOf = (r: Cell[]): Cell[] => [
      r[names.indexOf('to_region')] ?? r[names.indexOf('from_region')] ?? null,
      r[names.indexOf('to_id')] ?? r[names.indexOf('from_id')] ?? null,
    ];
    const after = async (key: Cell[], size = 5) => (await page(spec, { kind: 'after', key }, size)).rows;
    const first = keyOf(all[0]!);
    const last = keyOf(all[all.length - 1]!);
    // Before everything: '' sorts first.
    assert.deepEqual(await after(['', '0']), all.slice(0, 6));
    // On the first key: the rows after it.
    assert.deepEqual(await after(first), all.slice(1, 7));
    // Between keys (id 7 of a region was removed... and every row of 'north' with id < 7.5 is past it).
    const at = all.findIndex((r) => keyOf(r)[0] === 'north' && Number(keyOf(r)[1]) > 7);
    assert.deepEqual(await after(['north', '7']), all.slice(at, at + 6));
    // A region with a backslash (sent as CAST(X'…' AS CHAR)) and one with an emoji.
    for (const region of ['a\\b', '😀', 'é']) {
      const i = all.findIndex((r) => keyOf(r)[0] === region && Number(keyOf(r)[1]) > 3);
      assert.ok(i >= 0);
      assert.deepEqual(await after([region, '3'], 3), all.slice(i, i + 4), region);
    }
    assert.deepEqual(await after(last), []);
    assert.deepEqual(await after(['😀😀', '1']), []);
    // A jump past the end by offset, and one that ends exactly at the last row.
    assert.deepEqual((await page(spec, { kind: 'offset', offset: all.length }, 5)).rows, []);
    assert.deepEqual((await page(spec, { kind: 'offset', offset: all.length - 2 }, 5)).rows, all.slice(-2));
  });

  it('a single-key diff with decimals, blobs and NULLs pages to what plain reads give', async () => {
    const spec = await specOf('flat');
    const all = await whole(spec);
    assert.deepEqual(numbersAsValues(all.rows), numbersAsValues(await expected(spec)));
    assert.deepEqual((await paged(spec, 13, 'keyset')).rows, all.rows);
    assert.deepEqual(
      (await paged(spec, 13, 'keyset', ['modified'])).rows,
      all.rows.filter((r) => r[0] === 'modified'),
    );
  });

  it('a keyless table pages by offset in the diff’s own order, and the counts are the rows of each kind', async () => {
    const spec = await specOf('notes');
    assert.equal(diffKey(spec).length, 0);
    const all = await whole(spec);
    assert.equal(all.rows.length, 8 + 6, 'every fifth note removed, six added');
    assert.deepEqual((await paged(spec, 3, 'offset')).rows, all.rows);
    assert.deepEqual(
      (await paged(spec, 2, 'offset', ['added'])).rows,
      all.rows.filter((r) => r[0] === 'added'),
    );
    const counts = buildRowDiffCountQuery(pair, 'notes');
    const c = await sql.ok(counts.sql, counts.at);
    assert.deepEqual(Object.fromEntries(c.rows.map((r) => [r[0], Number(r[1])])), { added: 6, removed: 8 });
  });

  it('a diff to a newer commit is read anew (the copy of the older diff never answers for it)', async () => {
    const spec = await specOf('flat');
    const before = (await paged(spec, 10, 'keyset')).rows;
    assert.ok(!before.some((r) => r.includes('renamed')));
    const old = pair;
    pair = twoDot((old as { from: string }).from, await head('next2'));
    try {
      const now = await paged(spec, 10, 'keyset');
      assert.deepEqual(now.rows, (await whole(spec)).rows);
      assert.deepEqual(numbersAsValues(now.rows), numbersAsValues(await expected(spec)));
      assert.ok(
        now.rows.some((r) => r.includes('renamed')),
        'the newer diff shows the renamed row',
      );
    } finally {
      pair = old;
    }
    assert.deepEqual((await paged(spec, 10, 'keyset')).rows, before, 'the older pair still reads as before');
  });

  it('a page served from the copy answers as the same query read as written, whatever plain select list it has', async () => {
    // `1 = 1` is no page condition (diffPageShape.ts): the reference reads the whole diff through SQLite.
    const asWritten = (q: string): string =>
      / WHERE /.test(q) ? q.replace(' WHERE ', ' WHERE 1 = 1 AND ') : q.replace(/ (ORDER BY|LIMIT) /, ' WHERE 1 = 1 $1 ');
    for (const table of ['stock', 'flat', 'odd']) {
      const spec = await specOf(table);
      const list = rowDiffSelectList(spec);
      const cols = list.split(', ');
      const variants: [string, string?][] = [
        [list],
        ['*'],
        [`to_commit, ${[...cols].reverse().join(', ')}, from_commit`],
        [cols.map((c) => c.toUpperCase()).join(', ')],
        [cols.map((c) => `d.${c}`).join(', '), 'd'],
        [`dolt_diff.diff_type, ${cols[1]}`],
        // After pages that read neither (their copy leaves the commit dates NULL): the dates as
        // DoltLite gives them, and a select list without the kind the filter reads.
        ['to_commit_date, from_commit_date, diff_type'],
        [`${cols[cols.length - 1]}, from_commit_date`],
      ];
      const pages: [DiffPagePosition, RowDiffKind[]?][] = [
        [{ kind: 'offset', offset: 7 }],
        [{ kind: 'offset', offset: 21 }, ['modified']],
        [{ kind: 'offset', offset: 9_999 }],
      ];
      for (const [position, kinds] of pages) {
        const q = buildRowDiffPageQuery(pair, spec, { position, pageSize: 7, ...(kinds ? { kinds } : {}) });
        for (const [select, alias] of variants) {
          let variant = q.sql.replace(list, select);
          if (alias) variant = variant.replace(/(DOLT_DIFF\([^)]*\))/, `$1 AS ${alias}`);
          const served = await sql.query(variant, q.at);
          assert.deepEqual(served, await sql.query(asWritten(variant), q.at), `${table}: ${variant}`);
          assert.equal(served.status, 'success', variant);
        }
      }
    }
  });

  it('the SQL patch a page at a time (served from a copy after the first page, or from the first at an export’s size) is the patch read whole, one statement per changed row of plain reads', async () => {
    const spec = await specOf('stock');
    const want = await expected(spec);
    const wholeQuery = buildPatchQuery(pair, 'stock', { pageSize: 100_000 });
    const all = await sql.ok(`SELECT * FROM (${wholeQuery.sql}) AS w`, wholeQuery.at, 100_000);
    const at = all.columns.findIndex((c) => c.name === 'statement');
    const statements = all.rows.map((r) => String(r[at]));
    const verbs = (kind: string): number => want.filter((r) => r[0] === kind).length;
    assert.deepEqual(
      ['INSERT', 'UPDATE', 'DELETE'].map((v) => statements.filter((t) => t.startsWith(v)).length),
      [verbs('added'), verbs('modified'), verbs('removed')],
      'one statement per changed row, of its kind',
    );
    const run: ReviewRunner = (q, o) => sql.query(q.sql, q.at, o?.limit);
    for (const size of [7, 50, COPY_FROM_FIRST_PAGE]) {
      const dir = mkdtempSync(join(tmpdir(), 'vdb-patch-'));
      try {
        const target = join(dir, 'stock.sql');
        const file = await createPendingFile(target);
        const n = await writePatchFile({ pair, table: 'stock', run, file, signal: new AbortController().signal, pageSize: size });
        assert.equal(n, statements.length);
        assert.equal(
          readFileSync(target, 'utf8'),
          statements.map((t) => `${t.trimEnd().replace(/;?$/, ';')}\n`).join(''),
          `pages of ${size}`,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    // The export's pages read statement_order and statement only (their copy leaves the other
    // columns NULL): pages that read the others answer as read as written.
    const page = buildPatchQuery(pair, 'stock', { pageSize: 7, afterOrder: 7 });
    for (const select of ['*', 'table_name, diff_type, statement', 'diff_type, statement_order']) {
      const variant = page.sql.replace('statement_order, statement FROM', `${select} FROM`);
      assert.notEqual(variant, page.sql);
      const served = await sql.ok(variant, page.at);
      assert.equal(served.rows.length, Math.min(8, statements.length - 7), variant);
      assert.deepEqual(served, await sql.query(variant.replace(' WHERE ', ' WHERE 1 = 1 AND '), page.at), variant);
    }
  });
});
