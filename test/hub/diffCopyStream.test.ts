// Copies of diffs read as their pages need them (src/hub/doltSql/diffCopyStream.ts): an export's
// first page is answered before the copy is read whole, the worker reads the rest between queries,
// and every page is the diff computed independently from the data each commit holds, also when
// the database changes while a copy is being read. Plus the pieces: ties between keys, cells cut
// out of a row's JSON text, and the pool lending a connection.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import init from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { EngineCore } from '../../src/hub/engineWorker';
import { hexToDoltHash } from '../../src/hub/doltHash';
import { buildRowDiffPageQuery, type DiffPagePosition } from '../../src/core/review/doltQueries';
import { ID_VALUE_SPEC } from './fixtures/diffSpecs';
import { twoDot } from '../../src/core/review/revisions';
import { KeyTies } from '../../src/hub/doltSql/diffCopyKeys';
import { jsonCells } from '../../src/hub/doltSql/diffAnswers';
import { ConnectionPool } from '../../src/hub/connectionPool';
import { FLOAT, INTEGER, NULL, PackedRowsWriter, TEXT } from '../../src/hub/doltSql/diffRowPacking';
import { AnswerRowsWriter } from '../../src/hub/doltSql/diffAnswers';
import { pageRows } from '../../src/hub/doltSql/diffRowCache';
import type { DiffCopy } from '../../src/hub/doltSql/diffCopyRead';
import type { DiffPageShape } from '../../src/hub/doltSql/diffPageShape';
import type { Cell } from '../../src/shared/wire';

const ROWS = 12_000;
const ADDED = 500;

/** The diff one → two as plain reads of the data give it, in key order: [kind, from_id, from_v, to_id, to_v]. */
function expectedDiff(): Cell[][] {
  const out: Cell[][] = [];
  for (let id = 1; id <= ROWS + ADDED; id++) {
    if (id > ROWS) out.push(['added', null, null, String(id), `v${id}`]);
    else if (id % 3 === 0) out.push(['removed', String(id), `v${id}`, null, null]);
    else if (id % 3 === 1) out.push(['modified', String(id), `v${id}`, String(id), `v${id}!`]);
  }
  return out;
}

describe('copies of diffs read as their pages need them', function () {
  this.timeout(120_000);
  let dir: string;
  let one: string;
  let two: string;
  let version = 1;
  const db = () => ({ key: 'alice/s', path: join(dir, 's.db'), version });
  const spec = ID_VALUE_SPEC;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vdb-diffstream-'));
    const sqlite3 = await init();
    const gen = new sqlite3.oo1.DB('/stream-gen.db', 'c');
    gen.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    gen.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS}) INSERT INTO t SELECT i, 'v' || i FROM n`);
    gen.exec("SELECT dolt_commit('-A', '-m', 'one')");
    gen.exec("UPDATE t SET v = v || '!' WHERE id % 3 = 1");
    gen.exec('DELETE FROM t WHERE id % 3 = 0');
    gen.exec(
      `WITH RECURSIVE n(i) AS (SELECT ${ROWS + 1} UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS + ADDED}) INSERT INTO t SELECT i, 'v' || i FROM n`,
    );
    gen.exec("SELECT dolt_commit('-A', '-m', 'two')");
    [two, one] = (gen.selectValues('SELECT commit_hash FROM dolt_log') as string[]).slice(0, 2).map(hexToDoltHash) as [string, string];
    writeFileSync(join(dir, 's.db'), sqlite3.capi.sqlite3_js_db_export(gen.pointer));
    gen.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const page = (core: EngineCore, position: DiffPagePosition, pageSize: number): Cell[][] => {
    const q = buildRowDiffPageQuery(twoDot(one, two), spec, { position, pageSize });
    const r = core.query(db(), { branch: 'main' }, q.sql, pageSize + 1, 30_000, 's', {
      maxBytes: 1 << 26,
      maxValueBytes: 1 << 20,
      memoryBytes: 1 << 28,
    });
    assert.equal(r.status, 'success', r.message);
    return r.rows;
  };

  /** Every page of the diff by keyset, as an export reads it; `between` runs after each page. */
  const exportAll = async (core: EngineCore, pageSize: number, between: (n: number) => unknown = () => undefined): Promise<Cell[][]> => {
    const rows: Cell[][] = [];
    let position: DiffPagePosition = { kind: 'first' };
    for (let n = 0; ; n++) {
      const got = page(core, position, pageSize);
      rows.push(...got.slice(0, pageSize));
      await between(n);
      if (got.length <= pageSize) return rows;
      const last = got[pageSize - 1] as Cell[];
      position = { kind: 'after', key: [last[3] ?? last[1] ?? null] };
    }
  };

  it('answers an export’s first page before its copy is read whole, reads the rest between queries, and every page is the diff', async () => {
    const core = await EngineCore.create();
    const sizes: number[] = [];
    const rows = await exportAll(core, 2000, (n) => {
      if (n === 0) {
        sizes.push(core.diffCopyStats().bytes);
        // What the worker does between queries, until nothing is left to read.
        while (core.backgroundRead(50));
        sizes.push(core.diffCopyStats().bytes);
      }
    });
    assert.deepEqual(rows, expectedDiff());
    assert.equal(core.diffCopyStats().copies, 1, 'one copy served every page');
    assert.ok((sizes[0] ?? 0) > 0 && (sizes[0] ?? 0) < (sizes[1] ?? 0), `the copy grew between queries: ${sizes.join(' → ')} bytes`);
  });

  it('pages read on a copy that is still being read, with the grid’s page size too', async () => {
    const core = await EngineCore.create();
    assert.deepEqual(await exportAll(core, 2000), expectedDiff(), 'export pages, no reading between queries');
    const grid = await EngineCore.create();
    assert.deepEqual(await exportAll(grid, 500), expectedDiff(), 'grid pages (the first starts the copy)');
  });

  it('a write to the database while a copy is being read ends that copy; later pages are still the diff', async () => {
    const core = await EngineCore.create();
    let stats: { copies: number; bytes: number } | undefined;
    const rows = await exportAll(core, 2000, async (n) => {
      if (n !== 1) return;
      const w = await core.write(
        db(),
        version + 1,
        { name: 'Alice', email: 'alice@example.com' },
        { kind: 'branch', name: 'side', from: { branch: 'main' } },
      );
      assert.ok(w.ok);
      version++;
      stats = core.diffCopyStats();
    });
    assert.deepEqual(rows, expectedDiff());
    assert.deepEqual(stats?.copies, 0, 'the copy being read ended with the write');
  });
});

describe('ties between keys of a copy read in order (diffCopyKeys.ts)', () => {
  const tie = (a: [number, unknown][], b: [number, unknown][]): boolean => {
    const t = new KeyTies(a.length);
    a.forEach(([type, value], k) => t.cell(k, type, value));
    t.endRow();
    b.forEach(([type, value], k) => t.cell(k, type, value));
    return t.endRow();
  };
  const bytes = (s: string) => new TextEncoder().encode(s);

  it('ties numbers by value across INTEGER and REAL and BigInt, text by its bytes, NULL with NULL', () => {
    assert.equal(tie([[INTEGER, 1]], [[FLOAT, 1]]), true);
    assert.equal(tie([[INTEGER, 2n ** 60n]], [[INTEGER, 2n ** 60n]]), true);
    assert.equal(tie([[INTEGER, 1]], [[INTEGER, 2]]), false);
    assert.equal(
      tie(
        [
          [TEXT, 'a'],
          [INTEGER, 1],
        ],
        [
          [TEXT, 'a'],
          [INTEGER, 1],
        ],
      ),
      true,
    );
    assert.equal(
      tie(
        [
          [TEXT, 'a'],
          [INTEGER, 1],
        ],
        [
          [TEXT, 'a'],
          [INTEGER, 2],
        ],
      ),
      false,
    );
    assert.equal(tie([[TEXT, bytes('\uFFFD')]], [[TEXT, bytes('\uFFFD')]]), true);
    assert.equal(tie([[TEXT, 'A']], [[TEXT, 'a']]), false, 'no case folding');
    assert.equal(tie([[NULL, null]], [[NULL, null]]), true);
    assert.equal(tie([[NULL, null]], [[INTEGER, 0]]), false);
    assert.equal(tie([[TEXT, '1']], [[INTEGER, 1]]), false, 'text never equals a number');
  });

  it('the first row ties with nothing, and each row is compared with the one just before', () => {
    const t = new KeyTies(1);
    const seq = [1, 1, 2, 2, 2, 3];
    const got = seq.map((v) => {
      t.cell(0, INTEGER, v);
      return t.endRow();
    });
    assert.deepEqual(got, [false, true, false, true, true, false]);
  });
});

describe('a page of a copy still being read (diffRowCache.ts pageRows)', () => {
  /** A copy of keys 1, 2, 3, 3 (the last two tie), of which the first `read` rows are in. */
  const copyOf = (read: number, complete: boolean): DiffCopy => {
    const keys = [1, 2, 3, 3].slice(0, read);
    const packed = new PackedRowsWriter(2);
    const answers = new AnswerRowsWriter(1);
    for (const k of keys) {
      packed.startRow();
      packed.textCell(0, 'modified');
      packed.cell(1, INTEGER, k);
      answers.add(['modified'], [TEXT]);
    }
    return {
      columns: ['diff_type'],
      rows: keys.length,
      packed: packed.finish(),
      answers: answers.finish(),
      keyWidth: 1,
      kinds: Uint8Array.from(keys, () => 2),
      tieBefore: Uint8Array.from([0, 0, 0, 1].slice(0, read)),
      kindColumn: 0,
      bytes: 0,
      complete,
    };
  };
  const shape = (limit: number): DiffPageShape => ({ select: [], afterSource: 0, orderBy: ['k'], orderColumns: [], limit, offset: 0 });
  let sqlite3: Awaited<ReturnType<typeof init>>;
  let conn: Sqlite3Db;
  before(async () => {
    sqlite3 = await init();
    conn = new sqlite3.oo1.DB(':memory:', 'c');
  });
  after(() => conn.close());

  it('reads on when the page, or the row after it that may tie with its last, is not read yet', () => {
    assert.equal(pageRows(sqlite3, conn, copyOf(2, false), shape(3)), 'more', 'the page’s rows are not all in');
    assert.equal(pageRows(sqlite3, conn, copyOf(3, false), shape(3)), 'more', 'the row after the page is not in');
    assert.equal(pageRows(sqlite3, conn, copyOf(4, true), shape(3)), undefined, 'the page ends inside a tie: read through SQLite');
    assert.deepEqual(pageRows(sqlite3, conn, copyOf(4, true), shape(2)), [0, 1]);
    assert.deepEqual(pageRows(sqlite3, conn, copyOf(3, false), shape(2)), [0, 1], 'the row after it is in and does not tie');
  });
});

describe('cells cut out of a row’s JSON text (diffAnswers.ts)', () => {
  it('gives each cell’s own JSON text, whatever quotes, backslashes and characters it holds', () => {
    const rows: (string | null)[][] = [
      ['a', null, ''],
      ['"', '\\', '\\"', '"\\', 'x\\\\"y', '\\\\'],
      [null, null],
      ['\u0000\n\t\u2028', '😀', 'é,]"[', ',', 'null', '"null"'],
      ['a'.repeat(10_000)],
    ];
    for (const row of rows) {
      const pieces = jsonCells(JSON.stringify(row));
      assert.equal(pieces.length, row.length, JSON.stringify(row));
      assert.deepEqual(
        pieces.map((p) => JSON.parse(p) as unknown),
        row,
      );
    }
  });
});

describe('connections lent by the pool (connectionPool.ts)', () => {
  const fake = () => {
    let closed = 0;
    const conn = { close: () => void closed++ } as unknown as Sqlite3Db;
    return { conn, closed: () => closed };
  };

  it('a lent connection is not handed out; given back, it replaces the one opened meanwhile (after that one’s query)', () => {
    const pool = new ConnectionPool();
    const a = fake();
    const b = fake();
    assert.equal(
      pool.get('k', 1, '/k.db', 'main', () => a.conn),
      a.conn,
    );
    const lease = pool.lend(a.conn);
    assert.ok(lease);
    assert.equal(pool.lend(a.conn), undefined, 'lent once');
    assert.equal(
      pool.get('k', 1, '/k.db', 'main', () => b.conn),
      b.conn,
    );
    pool.use(b.conn);
    lease.release();
    assert.equal(b.closed(), 0, 'not closed under its query');
    pool.use(undefined);
    assert.equal(b.closed(), 1, 'closed once its query ended');
    assert.equal(a.closed(), 0);
    assert.equal(
      pool.get('k', 1, '/k.db', 'main', () => fake().conn),
      a.conn,
      'the lent one, whose cache holds what the copy read, is kept',
    );
    assert.equal(pool.size, 1);
  });

  it('given back, it is kept again; its database closing closes it and tells the borrower first', () => {
    const pool = new ConnectionPool();
    const a = fake();
    pool.get('k', 1, '/k.db', 'main', () => a.conn);
    pool.lend(a.conn)?.release();
    assert.equal(
      pool.get('k', 1, '/k.db', 'main', () => fake().conn),
      a.conn,
      'kept again',
    );
    const lease = pool.lend(a.conn);
    let told = 0;
    lease?.onClose(() => {
      assert.equal(a.closed(), 0, 'told before it is closed');
      told++;
    });
    pool.closeDatabase('k');
    assert.equal(told, 1);
    assert.equal(a.closed(), 1);
    lease?.release();
    assert.equal(a.closed(), 1, 'a release after the close changes nothing');
    assert.equal(pool.size, 0);
  });
});
