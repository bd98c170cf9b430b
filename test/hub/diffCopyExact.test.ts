// The copy of a diff the hub keeps (src/hub/doltSql/diffRowCache.ts), read through the C column
// accessors (diffCopyRead.ts), holds exactly what reading every cell of the same statement one by one
// through the JS API gives: each cell's SQLite type and value (the cell function hands them back
// to SQLite), and its text as the hub answers it (selectRunner.ts: `sqlite3_column_text`, blobs as
// a marker). The values are the hard ones: reals that need 17 digits, infinities, -0.0, integral
// reals, integers past 2^53 and at the int64 limits, blobs (empty too), text with a leading BOM,
// invalid UTF-8, a real U+FFFD, NUL, emoji, and NULLs, in a column without a type and in typed
// ones, in the key too. Runs on DoltLite itself, no hub.
import assert from 'node:assert/strict';
import init, { type Sqlite3, type Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { DiffRowCache, type DiffCopy } from '../../src/hub/doltSql/diffRowCache';
import { IntegerKeyOrder } from '../../src/hub/doltSql/diffCopyRead';
import { readValue } from '../../src/hub/doltSql/diffCopyCells';
import type { Cell } from '../../src/hub/doltSql/diffRowPacking';
import { BINARY_CELL, type Cell as AnswerCell } from '../../src/shared/wire';

/** SQL expressions of values JSON text does not carry as they are, and some it does. */
const VALUES = [
  '1',
  '-1',
  '0',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '9223372036854775807',
  '-9223372036854775807 - 1',
  '0.1 + 0.2',
  '1.0 / 3',
  '2.0',
  '-0.0',
  '1e999',
  '-1e999',
  '5e-324',
  '1e-7',
  '1e16',
  '123456789012345678.0',
  // Reals whose text must be SQLite's, and whose value the very double.
  '1.7976931348623157e308',
  '2.2250738585072014e-308',
  '4.9406564584124654e-324 * 3',
  '0.7 * 3',
  '4.35 * 100',
  '1e21 + 1e5',
  '2.0 / 3 * 1e-200',
  '9007199254740993.0',
  "'12'",
  "''",
  "char(65279) || 'bom'",
  'char(65279)',
  'char(65279, 65279)',
  "'a' || char(0) || 'b'",
  "CAST(x'ff41' AS TEXT)",
  "CAST(x'c3' AS TEXT)",
  'char(65533)',
  "'😀 é \u2028'",
  `'"[1]"'`,
  "'null'",
  "x''",
  "x'00ff'",
  'NULL',
];

function buildDiff(sqlite3: Sqlite3): { db: Sqlite3Db; from: string; to: string } {
  const db = new sqlite3.oo1.DB('/copy-exact.db', 'c');
  // `v` has no type (values kept as given), `r` REAL, `t` TEXT; the key is text.
  db.exec('CREATE TABLE odd (k TEXT PRIMARY KEY, v, r REAL, t TEXT, n INTEGER)');
  db.exec('BEGIN');
  VALUES.forEach((v, i) =>
    db.exec(`INSERT INTO odd VALUES (${i % 3 === 0 ? `char(65279) || '${i}'` : `'k${i}'`}, ${v}, ${v}, ${v}, ${v})`),
  );
  db.exec(`INSERT INTO odd VALUES (CAST(x'ff' AS TEXT), 1, 1, 1, 1), ('gone', 2, 2, 2, 2)`);
  db.exec('COMMIT');
  db.exec(`SELECT dolt_commit('-A', '-m', 'first')`);
  const from = String(db.selectValue(`SELECT dolt_hashof('HEAD')`));
  db.exec('BEGIN');
  // Every row changed: each takes the next row's values; one row removed, some added.
  VALUES.forEach((_, i) => {
    const v = VALUES[(i + 1) % VALUES.length] as string;
    db.exec(`UPDATE odd SET v = ${v}, r = ${v}, t = ${v}, n = ${v} WHERE k = ${i % 3 === 0 ? `char(65279) || '${i}'` : `'k${i}'`}`);
  });
  db.exec(`DELETE FROM odd WHERE k = 'gone'`);
  db.exec(`INSERT INTO odd VALUES ('new', 0.1 * 3, 0.1 * 3, char(65279), 9007199254740993), (char(65533), x'01', NULL, NULL, NULL)`);
  db.exec('COMMIT');
  db.exec(`SELECT dolt_commit('-A', '-m', 'second')`);
  return { db, from, to: String(db.selectValue(`SELECT dolt_hashof('HEAD')`)) };
}

/** Each row of `sql` read cell by cell: exact values, and the cells as runSelect answers them. */
function cellByCell(sqlite3: Sqlite3, db: Sqlite3Db, sql: string, width: number): { exact: Cell[][]; answers: AnswerCell[][] } {
  const stmt = db.prepare(sql);
  const exact: Cell[][] = [];
  const answers: AnswerCell[][] = [];
  try {
    while (stmt.step()) {
      const row: Cell[] = [];
      const answer: AnswerCell[] = [];
      for (let i = 0; i < stmt.columnCount; i++) {
        const cell = readValue(sqlite3, stmt.pointer, i);
        row.push(cell);
        if (i < width)
          answer.push(cell.type === 5 ? null : cell.type === 4 ? BINARY_CELL : (sqlite3.capi.sqlite3_column_text(stmt.pointer, i) ?? ''));
      }
      exact.push(row);
      answers.push(answer);
    }
  } finally {
    stmt.finalize();
  }
  return { exact, answers };
}

/** A cell as comparable data: its type, and its value with -0 and bytes told apart, integers as digits. */
const shown = (c: Cell): unknown => [
  c.type,
  c.value instanceof Uint8Array
    ? `bytes:${Buffer.from(c.value).toString('hex')}`
    : typeof c.value === 'number' && Object.is(c.value, -0)
      ? '-0'
      : c.type === 1
        ? `int:${String(c.value)}` // packed rows give an integer past 32 bits as a BigInt
        : c.value,
];

function assertSame(sqlite3: Sqlite3, db: Sqlite3Db, copy: DiffCopy | undefined, sql: string, width: number): void {
  assert.ok(copy, 'the copy is made');
  const want = cellByCell(sqlite3, db, sql, width);
  assert.equal(copy.rows, want.exact.length);
  for (let r = 0; r < copy.rows; r++) {
    assert.deepEqual(copy.packed.row(r).map(shown), (want.exact[r] as Cell[]).map(shown), `row ${r}: exact values`);
    // Decoding from a later column on (a key after the columns) steps over every kind of cell.
    for (let from = 1; from <= copy.packed.width; from++)
      assert.deepEqual(copy.packed.row(r, from).map(shown), (want.exact[r] as Cell[]).slice(from).map(shown), `row ${r} from ${from}`);
    // The cells as a page passes them on: each cut out of the row's JSON text.
    const a = copy.answers.pieces(r);
    assert.deepEqual(
      a.pieces.map((p) => JSON.parse(p) as Cell),
      want.answers[r],
      `row ${r}: answered cells`,
    );
    assert.deepEqual(
      [...a.types],
      (want.exact[r] as Cell[]).slice(0, width).map((c) => c.type),
      `row ${r}: types`,
    );
  }
}

describe('a diff copy holds what reading it cell by cell through the JS API gives', () => {
  let sqlite3: Sqlite3;
  let diff: { db: Sqlite3Db; from: string; to: string };
  before(async () => {
    sqlite3 = await init();
    diff = buildDiff(sqlite3);
  });
  after(() => diff?.db.close());

  /** The copy of `sql` (its columns, then one ORDER BY value) as a page of the hub would obtain it. */
  const copyOf = (cacheKey: string, sql: string, columns: string[], unsortedSql?: string) =>
    new DiffRowCache(1 << 24)
      .obtain(sqlite3, diff.db, {
        cacheKey,
        sql,
        columns,
        keyWidth: 1,
        deadline: Date.now() + 60_000,
        ...(unsortedSql ? { unsortedSql } : {}),
      })
      ?.view();

  /** The statements `f` prepares on the diff's connection. */
  const prepared = (f: () => void): string[] => {
    const db = diff.db;
    const own = db.prepare.bind(db);
    const seen: string[] = [];
    db.prepare = ((sql: string) => (seen.push(sql), own(sql))) as typeof db.prepare;
    try {
      f();
    } finally {
      db.prepare = own;
    }
    return seen;
  };

  it('a row diff: every kind of value in every column, and the key after the columns', () => {
    const columns = ['to_k', 'to_v', 'to_r', 'to_t', 'to_n', 'to_commit', 'from_k', 'from_v', 'from_r', 'from_t', 'from_n', 'diff_type'];
    const order = 'COALESCE("to_k", "from_k")';
    const select = columns.map((c) => (c === 'to_commit' ? `NULL AS "${c}"` : `"d"."${c}"`)).join(', ');
    const sql = `SELECT ${select}, ${order} FROM dolt_diff_odd('${diff.from}', '${diff.to}') AS "d" ORDER BY ${order}`;
    const copy = copyOf('diff', sql, columns);
    assertSame(sqlite3, diff.db, copy, sql, columns.length);
    const kinds = new Set(
      Array.from({ length: copy!.rows }, (_, r) => JSON.parse(copy!.answers.pieces(r).pieces[columns.length - 1] as string)),
    );
    assert.deepEqual([...kinds].sort(), ['added', 'modified', 'removed']);
    assert.deepEqual(
      [...copy!.kinds].map((k) => ['', 'added', 'modified', 'removed'][k]),
      Array.from({ length: copy!.rows }, (_, r) => JSON.parse(copy!.answers.pieces(r).pieces[columns.length - 1] as string)),
      'each row’s kind code is its diff_type',
    );
  });

  it('a patch: statements with every kind of value, in statement order', () => {
    const columns = ['statement_order', 'table_name', 'diff_type', 'statement'];
    const sql = `SELECT ${columns.map((c) => `"p"."${c}"`).join(', ')}, statement_order FROM dolt_patch('${diff.from}', '${diff.to}', 'odd') AS "p" ORDER BY statement_order`;
    const copy = copyOf('patch', sql, columns);
    assertSame(sqlite3, diff.db, copy, sql, columns.length);
    assert.ok(copy!.rows > VALUES.length, 'a statement per changed row');
  });

  it('read without the sort when its integer keys come in increasing order, sorted when they do not', () => {
    const columns = ['statement_order', 'table_name', 'diff_type', 'statement'];
    const head = (key: string): string =>
      `SELECT ${columns.map((c) => `"p"."${c}"`).join(', ')}, ${key} FROM dolt_patch('${diff.from}', '${diff.to}', 'odd') AS "p"`;
    for (const key of ['statement_order', '-statement_order', "CASE WHEN statement_order = 3 THEN 'x' ELSE statement_order END"]) {
      const sql = `${head(key)} ORDER BY ${key}`;
      let copy: DiffCopy | undefined;
      // As diffPageServe.ts's copySql writes it: without the ORDER BY.
      const unsorted = head(key);
      const seen = prepared(() => (copy = copyOf(`patch ${key}`, sql, columns, unsorted)));
      assertSame(sqlite3, diff.db, copy, sql, columns.length);
      // In order (statement_order): the unsorted read is kept; decreasing, or a text key: read sorted.
      assert.equal(
        seen.some((s) => s.includes(sql)),
        key !== 'statement_order',
        `${key}: ${seen.join(' / ')}`,
      );
    }
  });
});

describe('IntegerKeyOrder: rows in strictly increasing integer key order', () => {
  const inOrder = (keys: unknown[][], types?: number[][]): boolean => {
    const order = new IntegerKeyOrder(keys[0]?.length ?? 0);
    return keys.every((key, r) => key.every((v, k) => order.cell(k, types?.[r]?.[k] ?? 1, v)) && order.endRow());
  };
  it('says yes to increasing keys, term by term, numbers and BigInts compared by value', () => {
    assert.equal(inOrder([[1], [2], [10]]), true);
    assert.equal(
      inOrder([
        [1, 5],
        [1, 6],
        [2, 0],
        [2n ** 60n, -1],
      ]),
      true,
    );
    assert.equal(inOrder([[9007199254740991], [9007199254740993n]]), true);
  });
  it('says no to a tie, a decrease, and a key of any other type', () => {
    assert.equal(inOrder([[1], [2], [2]]), false);
    assert.equal(
      inOrder([
        [1, 5],
        [1, 5],
      ]),
      false,
    );
    assert.equal(inOrder([[2], [1]]), false);
    assert.equal(
      inOrder([
        [1, 5],
        [1, 4],
      ]),
      false,
    );
    assert.equal(inOrder([[2n ** 60n], [1]]), false);
    assert.equal(inOrder([[1], [1.5]], [[1], [2]]), false);
    assert.equal(inOrder([[1], [null]], [[1], [5]]), false);
  });
});
