// Paging a row diff end to end without a Dolt server: DOLT_DIFF's output (diff_type, from_<c>,
// to_<c>) is stored as a plain table in DoltLite, the builders' page queries run against it with
// the table function swapped for that table, and the pages are parsed and chained by their own
// cursors. The rows seen must be exactly the stored rows of the chosen kinds, in key order,
// computed here independently in JavaScript.
import { strict as assert } from 'node:assert';
import { buildRowDiffPageQuery, type DiffTableSpec, type RowDiffKind } from '../../../../src/core/review/doltQueries';
import { parseRowDiffPage } from '../../../../src/core/review/rowDiff';
import { twoDot } from '../../../../src/core/review/revisions';
import type { TableColumnInfo } from '../../../../src/core/sql/tableQuery';
import type { Cell } from '../../../../src/shared/wire';
import { SqliteEngine } from '../../../helpers/sqliteEngine';
import { result } from './reviewTestKit';

const COLUMNS: TableColumnInfo[] = [
  { name: 'region', type: 'varchar(8)', primaryKey: true, nullable: false },
  { name: 'id', type: 'bigint', primaryKey: true, nullable: false },
  { name: 'label', type: 'varchar(40)', primaryKey: false },
];
const SPEC: DiffTableSpec = { table: 'sales', fromColumns: COLUMNS, toColumns: COLUMNS };
const PAIR = twoDot('v1', 'v2');

interface DiffRow {
  kind: RowDiffKind;
  region: string;
  id: string;
  from: [Cell, Cell, Cell] | null;
  to: [Cell, Cell, Cell] | null;
}

function* lcg(seed: number): Generator<number> {
  let s = seed;
  for (;;) {
    s = (s * 1103515245 + 12345) % 2147483648;
    yield s;
  }
}

function makeDiff(count: number): DiffRow[] {
  const rnd = lcg(7);
  const next = (n: number): number => (rnd.next().value as number) % n;
  const regions = ['eu', 'us', "o'k", 'ü', 'a b'];
  const out: DiffRow[] = [];
  const seen = new Set<string>();
  while (out.length < count) {
    const region = regions[next(regions.length)] as string;
    // Ids around 2^53, where doubles would merge neighbours.
    const id = (9007199254740000n + BigInt(next(2000))).toString();
    if (seen.has(`${region}|${id}`)) continue;
    seen.add(`${region}|${id}`);
    const kind = (['added', 'modified', 'removed'] as const)[next(3)] as RowDiffKind;
    const label = (s: string): Cell => (next(6) === 0 ? null : `${s} ${next(100)}`);
    out.push({
      kind,
      region,
      id,
      from: kind === 'added' ? null : [region, id, label('old')],
      to: kind === 'removed' ? null : [region, id, label('new')],
    });
  }
  return out;
}

function keyOrder(a: DiffRow, b: DiffRow): number {
  if (a.region !== b.region) return Buffer.compare(Buffer.from(a.region), Buffer.from(b.region));
  return BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0;
}

describe('row diff paging against stored DOLT_DIFF output', () => {
  let db: SqliteEngine;
  const rows = makeDiff(157);

  before(async () => {
    db = await SqliteEngine.open();
    db.exec(
      'CREATE TABLE diffout (diff_type text, from_region text, from_id integer, from_label text, to_region text, to_id integer, to_label text)',
    );
    for (const r of rows) {
      const f = r.from ?? [null, null, null];
      const t = r.to ?? [null, null, null];
      db.exec('INSERT INTO diffout VALUES (?, ?, ?, ?, ?, ?, ?)', {
        bind: [r.kind, f[0], f[1] === null ? null : BigInt(f[1]), f[2], t[0], t[1] === null ? null : BigInt(t[1]), t[2]],
      });
    }
  });
  after(() => db.close());

  function run(sql: string): ReturnType<typeof result> {
    const local = sql.replace("DOLT_DIFF('v1', 'v2', 'sales')", 'diffout');
    assert.notEqual(local, sql, 'the page query reads DOLT_DIFF');
    const names = ['diff_type', 'from_region', 'from_id', 'from_label', 'to_region', 'to_id', 'to_label'];
    return result(names, db.rows(local));
  }

  function expected(kinds?: RowDiffKind[]): string[] {
    return rows
      .filter((r) => !kinds || kinds.includes(r.kind))
      .sort(keyOrder)
      .map((r) => `${r.kind}|${r.region}|${r.id}`);
  }

  for (const kinds of [undefined, ['modified'], ['added', 'removed']] as (RowDiffKind[] | undefined)[]) {
    for (const pageSize of [1, 10, 52]) {
      it(`keyset walk, kinds ${kinds?.join('+') ?? 'all'}, pages of ${pageSize}`, () => {
        const seen: string[] = [];
        let position: Parameters<typeof buildRowDiffPageQuery>[2]['position'] = { kind: 'first' };
        let pages = 0;
        for (;;) {
          const page = parseRowDiffPage(
            run(buildRowDiffPageQuery(PAIR, SPEC, { ...(kinds ? { kinds } : {}), position, pageSize }).sql),
            SPEC,
            pageSize,
          );
          pages++;
          assert.ok(page.rows.length <= pageSize);
          for (const r of page.rows) seen.push(`${r.kind}|${r.key[0]}|${r.key[1]}`);
          if (!page.hasMore) {
            assert.equal(page.nextAfter, undefined);
            break;
          }
          assert.equal(page.rows.length, pageSize, 'a page before the last is full');
          assert.ok(page.nextAfter);
          position = { kind: 'after', key: page.nextAfter };
        }
        const want = expected(kinds);
        assert.deepEqual(seen, want);
        // One query per page: the extra row tells the last page without an empty read after it.
        assert.equal(pages, Math.max(1, Math.ceil(want.length / pageSize)));
      });
    }
  }

  it('offset pages read the same rows as the keyset walk, and a page past the end is empty', () => {
    const want = expected();
    const seen: string[] = [];
    for (let offset = 0; offset < want.length; offset += 25) {
      const page = parseRowDiffPage(
        run(buildRowDiffPageQuery(PAIR, SPEC, { position: { kind: 'offset', offset }, pageSize: 25 }).sql),
        SPEC,
        25,
      );
      seen.push(...page.rows.map((r) => `${r.kind}|${r.key[0]}|${r.key[1]}`));
      assert.equal(page.hasMore, offset + 25 < want.length);
    }
    assert.deepEqual(seen, want);
    const past = parseRowDiffPage(
      run(buildRowDiffPageQuery(PAIR, SPEC, { position: { kind: 'offset', offset: want.length }, pageSize: 25 }).sql),
      SPEC,
      25,
    );
    assert.deepEqual(past.rows, []);
    assert.equal(past.hasMore, false);
  });

  it('a page exactly as long as what is left says there is no more', () => {
    const want = expected(['modified']);
    const page = parseRowDiffPage(
      run(buildRowDiffPageQuery(PAIR, SPEC, { kinds: ['modified'], position: { kind: 'first' }, pageSize: want.length }).sql),
      SPEC,
      want.length,
    );
    assert.equal(page.rows.length, want.length);
    assert.equal(page.hasMore, false);
    const short = parseRowDiffPage(
      run(buildRowDiffPageQuery(PAIR, SPEC, { kinds: ['modified'], position: { kind: 'first' }, pageSize: want.length - 1 }).sql),
      SPEC,
      want.length - 1,
    );
    assert.equal(short.hasMore, true);
  });

  it('each parsed row carries its own old and new values', () => {
    const byKey = new Map(rows.map((r) => [`${r.region}|${r.id}`, r]));
    const page = parseRowDiffPage(run(buildRowDiffPageQuery(PAIR, SPEC, { position: { kind: 'first' }, pageSize: 200 }).sql), SPEC, 200);
    assert.equal(page.rows.length, rows.length);
    for (const r of page.rows) {
      const src = byKey.get(`${r.key[0]}|${r.key[1]}`) as DiffRow;
      const label = r.cells.find((c) => c.column === 'label');
      assert.equal(label?.old, src.from ? src.from[2] : undefined);
      assert.equal(label?.new, src.to ? src.to[2] : undefined);
      if (r.kind === 'modified') assert.equal(label?.changed, src.from?.[2] !== src.to?.[2]);
    }
  });
});
