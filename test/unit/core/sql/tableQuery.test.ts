// Table browsing SQL run for real in DoltLite (the hub's engine), checked against plain reads of
// the same table and against the rows as inserted; every statement also parsed as MySQL.
import { strict as assert } from 'node:assert';
import pkg from 'node-sql-parser';
import {
  buildCountQuery,
  buildPageQuery,
  buildSelectAll,
  columnClass,
  cursorOf,
  keysetSupported,
  orderColumns,
  planPage,
  type ColumnFilter,
  type PagePosition,
  type TableColumnInfo,
  type TableView,
} from '../../../../src/core/sql/tableQuery';
import { SqlInputError } from '../../../../src/core/sql/quote';
import { buildSampleQuery } from '../../../../src/core/sql/keySamples';
import { SqliteEngine, type EngineCell } from '../../../helpers/sqliteEngine';
import { HOSTILE_TEXT } from './hostileText';

const mysql = new pkg.Parser();
function assertMysql(sql: string): void {
  assert.doesNotThrow(() => mysql.astify(sql, { database: 'MySQL' }), `not MySQL: ${sql}`);
}

const TABLE = 'odd `name\' "tbl%';
const COLUMNS: TableColumnInfo[] = [
  { name: 'k', type: 'varchar(20)', primaryKey: true, nullable: false },
  { name: 'n`2', type: 'int', primaryKey: true, nullable: false },
  { name: 'label', type: 'varchar(100)', primaryKey: false },
  { name: 'price', type: 'decimal(10,2)', primaryKey: false },
  { name: 'ratio', type: 'double', primaryKey: false },
];

/** A small deterministic generator, so the data set is the same every run. */
function* lcg(seed: number): Generator<number> {
  let s = seed;
  for (;;) {
    s = (s * 1103515245 + 12345) % 2147483648;
    yield s;
  }
}

function makeRows(count: number): EngineCell[][] {
  const rnd = lcg(42);
  const next = (n: number): number => (rnd.next().value as number) % n;
  const keys = ['a', 'b', "c'", 'd`', 'ü', '%'];
  const rows: EngineCell[][] = [];
  const seen = new Set<string>();
  while (rows.length < count) {
    const k = keys[next(keys.length)] as string;
    const n = String(next(50) - 10);
    if (seen.has(`${k}|${n}`)) continue;
    seen.add(`${k}|${n}`);
    const labelPick = next(HOSTILE_TEXT.length + 3);
    const label =
      labelPick >= HOSTILE_TEXT.length
        ? labelPick === HOSTILE_TEXT.length
          ? null
          : `label ${rows.length % 7}`
        : (HOSTILE_TEXT[labelPick] as string);
    const price = next(5) === 0 ? null : `${next(300)}.${String(next(100)).padStart(2, '0')}`;
    const ratio = String(next(1000) / 7);
    rows.push([k, n, label, price, ratio]);
  }
  return rows;
}

describe('table browsing SQL (keyset, offset, sort, filters, count)', () => {
  let db: SqliteEngine;
  const data = makeRows(120);
  const view: TableView = { table: TABLE, columns: COLUMNS };
  const t = '`odd ``name\' "tbl%`';

  before(async () => {
    db = await SqliteEngine.open();
    db.exec(
      `CREATE TABLE ${t} (k varchar(20) NOT NULL, \`n\`\`2\` int NOT NULL, label varchar(100), price decimal(10,2), ratio double, PRIMARY KEY (k, \`n\`\`2\`))`,
    );
    for (const r of data)
      db.exec(`INSERT INTO ${t} VALUES (?, ?, ?, ?, ?)`, { bind: [r[0], Number(r[1]), r[2], r[3] === null ? null : r[3], Number(r[4])] });
  });
  after(() => db.close());

  /** Reads the whole view page by page, each page from the cursor of the one before. */
  function walkForward(v: TableView, pageSize: number): { rows: EngineCell[][]; strategies: string[] } {
    const rows: EngineCell[][] = [];
    const strategies: string[] = [];
    let position: PagePosition = { kind: 'first' };
    for (let guard = 0; guard < 1000; guard++) {
      const q = buildPageQuery(v, position, pageSize);
      assertMysql(q.sql);
      const page = db.rows(q.sql);
      if (q.reversed) page.reverse();
      rows.push(...page);
      strategies.push(position.kind);
      if (page.length < pageSize) break;
      const key = cursorOf(v, page[page.length - 1] as EngineCell[]);
      position = key ? { kind: 'after', key } : { kind: 'offset', offset: rows.length };
    }
    return { rows, strategies };
  }

  /** Reads the whole view from the end backwards, each page from the cursor of the one after. */
  function walkBackward(v: TableView, pageSize: number): EngineCell[][] {
    const pages: EngineCell[][][] = [];
    let position: PagePosition = { kind: 'last' };
    for (let guard = 0; guard < 1000; guard++) {
      const q = buildPageQuery(v, position, pageSize);
      assertMysql(q.sql);
      const page = db.rows(q.sql);
      if (q.reversed) page.reverse();
      pages.unshift(page);
      if (page.length < pageSize) break;
      const key = cursorOf(v, page[0] as EngineCell[]);
      assert.ok(key);
      position = { kind: 'before', key };
    }
    return pages.flat();
  }

  const cols = 'k, `n``2`, label, price, ratio';
  const sortCases: { name: string; sort: TableView['sort']; orderBy: string }[] = [
    { name: 'primary key (composite, hostile names)', sort: [], orderBy: 'k, `n``2`' },
    { name: 'a nullable text column ascending', sort: [{ column: 'label', direction: 'asc' }], orderBy: 'label ASC, k, `n``2`' },
    { name: 'a nullable text column descending', sort: [{ column: 'label', direction: 'desc' }], orderBy: 'label DESC, k, `n``2`' },
    {
      name: 'decimal descending then key part descending',
      sort: [
        { column: 'price', direction: 'desc' },
        { column: 'n`2', direction: 'desc' },
      ],
      orderBy: 'price DESC, `n``2` DESC, k',
    },
  ];

  for (const c of sortCases) {
    it(`keyset pages sorted by ${c.name} read every row once, forwards and backwards`, () => {
      const v: TableView = { ...view, sort: c.sort };
      assert.ok(keysetSupported(v));
      const expected = db.rows(`SELECT ${cols} FROM ${t} ORDER BY ${c.orderBy}`);
      assert.equal(expected.length, data.length);
      for (const size of [3, 7, 50, 500]) {
        const fwd = walkForward(v, size);
        assert.deepEqual(fwd.rows, expected, `forward, pages of ${size}`);
        assert.ok(
          fwd.strategies.slice(1).every((s) => s === 'after'),
          'every page after the first found by keyset',
        );
        assert.deepEqual(walkBackward(v, size), expected, `backward, pages of ${size}`);
      }
      // Against the rows as inserted: nothing lost, nothing doubled.
      const key = (r: EngineCell[]): string => JSON.stringify(r.slice(0, 3));
      assert.deepEqual(expected.map(key).sort(), data.map(key).sort());
    });
  }

  it('sorting on an inexact (double) column falls back to OFFSET pages, still in order', () => {
    const v: TableView = { ...view, sort: [{ column: 'ratio', direction: 'desc' }] };
    assert.equal(keysetSupported(v), false);
    const { rows, strategies } = walkForward(v, 9);
    assert.deepEqual(rows, db.rows(`SELECT ${cols} FROM ${t} ORDER BY ratio DESC, k, \`n\`\`2\``));
    assert.ok(strategies.slice(1).every((s) => s === 'offset'));
    assert.throws(() => buildPageQuery(v, { kind: 'after', key: ['1', 'a', '1'] }, 5), SqlInputError);
  });

  it('random access: planPage reads any page by keyset from a neighbour, by offset, or from the end', () => {
    for (const sort of sortCases.map((c) => c.sort)) {
      const v: TableView = { ...view, sort };
      const full = walkForward(v, 1000).rows;
      const size = 11;
      const pages = Math.ceil(full.length / size);
      for (let i = 0; i < pages; i++) {
        const slice = full.slice(i * size, (i + 1) * size);
        const prev = i > 0 ? cursorOf(v, full[i * size - 1] as EngineCell[]) : undefined;
        const next = (i + 1) * size < full.length ? cursorOf(v, full[(i + 1) * size] as EngineCell[]) : undefined;
        const variants = [
          { known: { previousLast: prev }, kind: i === 0 ? 'first' : 'after' },
          {
            known: { nextFirst: next, totalRows: full.length },
            kind: i === 0 ? 'first' : next && slice.length === size ? 'before' : 'last',
          },
          // Counted from the nearer end: rows after the page fewer than rows before it.
          {
            known: { totalRows: full.length },
            kind: i === 0 ? 'first' : i === pages - 1 ? 'last' : full.length - (i * size + slice.length) < i * size ? 'fromEnd' : 'offset',
          },
        ];
        for (const { known, kind } of variants) {
          const plan = planPage(v, i, size, known);
          assert.equal(plan.position.kind, kind, `page ${i} with ${JSON.stringify(Object.keys(known))}`);
          const q = buildPageQuery(v, plan.position, plan.limit);
          const got = db.rows(q.sql);
          if (q.reversed) got.reverse();
          assert.deepEqual(got, slice, `page ${i} by ${kind}`);
        }
      }
      assert.throws(() => planPage(v, pages, size, { totalRows: full.length }), /past the last row/);
    }
  });

  function matches(f: ColumnFilter, r: EngineCell[]): boolean {
    const idx = COLUMNS.findIndex((c) => c.name === f.column);
    const v = r[idx] ?? null;
    // SQLite's LIKE folds ASCII letters only.
    const fold = (s: string): string => s.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
    switch (f.op) {
      case 'isNull':
        return v === null;
      case 'isNotNull':
        return v !== null;
      case 'equals':
        return v !== null && (idx === 3 ? Number(v) === Number(f.value) : v === f.value);
      case 'contains':
        return v !== null && fold(v).includes(fold(f.value));
      case 'range':
        return v !== null && (f.min === undefined || Number(v) >= Number(f.min)) && (f.max === undefined || Number(v) <= Number(f.max));
    }
  }

  it('filters with hostile text return exactly the rows that match, and COUNT(*) agrees', () => {
    const filters: ColumnFilter[][] = [
      ...HOSTILE_TEXT.map((text) => [{ column: 'label', op: 'contains', value: text } as ColumnFilter]),
      ...HOSTILE_TEXT.map((text) => [{ column: 'label', op: 'equals', value: text } as ColumnFilter]),
      [{ column: 'label', op: 'isNull' }],
      [
        { column: 'price', op: 'isNotNull' },
        { column: 'label', op: 'contains', value: 'LABEL' },
      ],
      [{ column: 'price', op: 'range', min: '50', max: '150.5' }],
      [{ column: 'price', op: 'range', max: '20' }],
      [{ column: 'price', op: 'equals', value: '0012.50' }],
      [
        { column: 'k', op: 'equals', value: "c'" },
        { column: 'n`2', op: 'range', min: '0' },
      ],
    ];
    let nonEmpty = 0;
    for (const f of filters) {
      const v: TableView = { ...view, filters: f, sort: [{ column: 'label', direction: 'desc' }] };
      const expected = data.filter((r) => f.every((x) => matches(x, r)));
      if (expected.length) nonEmpty++;
      const got = walkForward(v, 4).rows;
      const key = (r: EngineCell[]): string => JSON.stringify(r.slice(0, 2));
      assert.deepEqual(got.map(key).sort(), expected.map(key).sort(), JSON.stringify(f));
      const count = buildCountQuery(v);
      assertMysql(count);
      assert.deepEqual(db.rows(count), [[String(expected.length)]], `count ${JSON.stringify(f)}`);
    }
    assert.ok(nonEmpty > 20, `most filters match something (${nonEmpty})`);
  });

  it('keyless tables page by OFFSET; sorted, ties are broken by every column', () => {
    db.exec('CREATE TABLE keyless (a int, b text)');
    for (let i = 0; i < 30; i++) db.exec('INSERT INTO keyless VALUES (?, ?)', { bind: [i % 4, `v${i % 6}`] });
    const kl: TableView = {
      table: 'keyless',
      columns: [
        { name: 'a', type: 'int', primaryKey: false },
        { name: 'b', type: 'text', primaryKey: false },
      ],
    };
    assert.equal(keysetSupported(kl), false);
    assert.deepEqual(orderColumns(kl), []);
    const unsorted = walkForward(kl, 7);
    assert.equal(unsorted.rows.length, 30);
    assert.deepEqual(unsorted.rows, db.rows('SELECT a, b FROM keyless'));
    const sorted = { ...kl, sort: [{ column: 'b', direction: 'desc' as const }] };
    assert.deepEqual(orderColumns(sorted), [
      { column: 'b', direction: 'desc' },
      { column: 'a', direction: 'asc' },
    ]);
    assert.deepEqual(walkForward(sorted, 7).rows, db.rows('SELECT a, b FROM keyless ORDER BY b DESC, a'));
    assert.equal(planPage(kl, 4, 7, { totalRows: 30 }).position.kind, 'offset');
  });

  it('the SQL reads as expected', () => {
    const items: TableView = {
      table: 'items',
      columns: [
        { name: 'id', type: 'bigint', primaryKey: true },
        { name: 'name', type: 'text', primaryKey: false },
      ],
    };
    assert.equal(buildPageQuery(items, { kind: 'first' }, 500).sql, 'SELECT `id`, `name` FROM `items` ORDER BY `id` ASC LIMIT 500');
    assert.equal(
      buildPageQuery(items, { kind: 'after', key: ['9007199254740993'] }, 500).sql,
      'SELECT `id`, `name` FROM `items` WHERE `id` > 9007199254740993 ORDER BY `id` ASC LIMIT 500',
    );
    assert.equal(
      buildPageQuery({ ...items, sort: [{ column: 'name', direction: 'asc' }] }, { kind: 'before', key: ["o'k", '7'] }, 10).sql,
      "SELECT `id`, `name` FROM `items` WHERE ((`name` < 'o''k' OR `name` IS NULL) OR (`name` = 'o''k' AND `id` < 7)) ORDER BY `name` DESC, `id` DESC LIMIT 10",
    );
    // A seek (far jump from a sampled key): keyset, then a short OFFSET; the leading key column's
    // range is spelled out so the engine seeks the index rather than scanning for the OR.
    const pairs: TableView = {
      table: 'pairs',
      columns: [
        { name: 'grp', type: 'varchar(8)', primaryKey: true },
        { name: 'n', type: 'int', primaryKey: true },
      ],
    };
    assert.equal(
      buildPageQuery(pairs, { kind: 'seek', key: ["o'k", '7'], offset: 40 }, 500).sql,
      "SELECT `grp`, `n` FROM `pairs` WHERE (`grp` >= 'o''k' AND (`grp` > 'o''k' OR (`grp` = 'o''k' AND `n` > 7))) ORDER BY `grp` ASC, `n` ASC LIMIT 500 OFFSET 40",
    );
    assert.equal(
      buildSampleQuery(pairs, 2000, 500),
      'WITH RECURSIVE `vdb_b`(`vdb_k0`, `vdb_k1`, `vdb_j`) AS (' +
        'SELECT (SELECT `grp` FROM `pairs` ORDER BY `grp` ASC, `n` ASC LIMIT 1 OFFSET 1999), (SELECT `n` FROM `pairs` ORDER BY `grp` ASC, `n` ASC LIMIT 1 OFFSET 1999), 1 ' +
        'UNION ALL SELECT (SELECT `grp` FROM `pairs` WHERE (`grp` >= `vdb_b`.`vdb_k0` AND ((`grp` > `vdb_b`.`vdb_k0`) OR (`grp` = `vdb_b`.`vdb_k0` AND `n` > `vdb_b`.`vdb_k1`))) ORDER BY `grp` ASC, `n` ASC LIMIT 1 OFFSET 1999), ' +
        '(SELECT `n` FROM `pairs` WHERE (`grp` >= `vdb_b`.`vdb_k0` AND ((`grp` > `vdb_b`.`vdb_k0`) OR (`grp` = `vdb_b`.`vdb_k0` AND `n` > `vdb_b`.`vdb_k1`))) ORDER BY `grp` ASC, `n` ASC LIMIT 1 OFFSET 1999), `vdb_j` + 1 ' +
        'FROM `vdb_b` WHERE `vdb_j` < 500) SELECT `vdb_k0`, `vdb_k1` FROM `vdb_b` ORDER BY `vdb_j`',
    );
    assert.deepEqual(planPage(pairs, 1500, 500, { totalRows: 1_000_000, boundary: { index: 749_999, key: ['x', '1'] } }), {
      position: { kind: 'seek', key: ['x', '1'], offset: 0 },
      limit: 500,
    });
    // A boundary farther than the nearer end is not used.
    assert.deepEqual(planPage(pairs, 1990, 500, { totalRows: 1_000_000, boundary: { index: 0, key: ['x', '1'] } }).position, {
      kind: 'fromEnd',
      offset: 4500,
    });
    assert.equal(
      buildCountQuery({ ...items, filters: [{ column: 'name', op: 'contains', value: '50%_off' }] }),
      "SELECT COUNT(*) FROM `items` WHERE `name` LIKE '%50!%!_off%' ESCAPE '!'",
    );
    assert.equal(buildSelectAll('we`ird'), 'SELECT * FROM `we``ird` LIMIT 1000');
  });

  it('refuses what it cannot build, with a reason', () => {
    assert.throws(() => buildPageQuery(view, { kind: 'first' }, 0), /at least one row/);
    assert.throws(() => buildPageQuery(view, { kind: 'offset', offset: -5 }, 10), /offset/);
    assert.throws(() => buildPageQuery({ ...view, sort: [{ column: 'nope', direction: 'asc' }] }, { kind: 'first' }, 10), /no column nope/);
    assert.throws(() => buildCountQuery({ ...view, filters: [{ column: 'price', op: 'range' }] }), /lower or an upper bound/);
    assert.throws(() => buildPageQuery(view, { kind: 'after', key: ['a'] }, 10), /needs 2 values/);
    assert.equal(cursorOf(view, ['a', '<binary>', null, null, '1']), undefined);
  });

  it('classifies declared types by whether they compare exactly', () => {
    for (const [type, cls] of [
      ['BIGINT UNSIGNED', 'integer'],
      ['tinyint(1)', 'integer'],
      ['decimal(10,2)', 'decimal'],
      ['varchar(255)', 'text'],
      ['longtext', 'text'],
      ['datetime(6)', 'temporal'],
      ['double', 'inexact'],
      ['float', 'inexact'],
      ["enum('a','b')", 'inexact'],
      ['json', 'inexact'],
      ['blob', 'inexact'],
      ['', 'inexact'],
    ] as const) {
      assert.equal(columnClass(type), cls, type);
    }
  });
});
