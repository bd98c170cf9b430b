import { strict as assert } from 'node:assert';
import type { QueryResult } from '../../../../src/shared/wire';
import { KEYLESS_NOTE, TableGoneError, openTableAt } from '../../../../src/core/paging/tableOpening';
import type { TableColumnInfo } from '../../../../src/core/sql/tableQuery';

const target = { hostId: 'h', owner: 'alice', name: 'prices', ref: 'main' };
const never = async (): Promise<QueryResult> => {
  throw new Error('no page is read while opening');
};

function catalog(tables: string[], columns: TableColumnInfo[]) {
  const asked: string[] = [];
  return {
    asked,
    tables: async (_h: string, _db: unknown, commit: string) => (
      asked.push(`tables@${commit}`),
      tables.map((name) => ({ name, kind: 'table' as const }))
    ),
    columns: async (_h: string, _db: unknown, commit: string, table: string) => (asked.push(`${table}@${commit}`), columns),
  };
}

describe('openTableAt (what the table browser shows)', () => {
  it('a keyed table: titled "t @ ref", key columns first and frozen, Show Row History on its key, no note', async () => {
    const c = catalog(
      ['orders'],
      [
        { name: 'note', type: 'text', primaryKey: false },
        { name: 'region', type: 'varchar(8)', primaryKey: true },
        { name: 'total', type: 'decimal(10,2)', primaryKey: false },
        { name: 'n', type: 'int', primaryKey: true },
      ],
    );
    const { output, source } = await openTableAt({ target, commit: 'c0ffee', table: 'orders' }, c, never);
    assert.equal(output.title, 'orders @ main');
    assert.equal(output.commit, 'c0ffee');
    assert.deepEqual(
      output.columns.map((x) => [x.name, x.is_primary_key]),
      [
        ['region', true],
        ['n', true],
        ['note', false],
        ['total', false],
      ],
    );
    assert.equal(output.frozenColumns, 2);
    assert.deepEqual(output.rowsOf, { table: 'orders', keyColumns: [0, 1] });
    assert.equal(output.note, undefined);
    assert.equal(output.serverSort && output.serverFilter, true);
    assert.equal(source.keyed, true);
    assert.deepEqual(c.asked, ['tables@c0ffee', 'orders@c0ffee']);
  });

  it('a keyless table: pages by position, said in a note; no row history, nothing frozen', async () => {
    const { output, source } = await openTableAt(
      { target, commit: 'c1', table: 'log' },
      catalog(['log'], [{ name: 'line', type: 'text', primaryKey: false }]),
      never,
    );
    assert.equal(output.note, KEYLESS_NOTE);
    assert.equal(output.rowsOf, undefined);
    assert.equal(output.frozenColumns, 0);
    assert.equal(source.keyed, false);
  });

  it('a float key still opens, read by position, and says why', async () => {
    const { output } = await openTableAt(
      { target, commit: 'c1', table: 'm' },
      catalog(['m'], [{ name: 'x', type: 'double', primaryKey: true }]),
      never,
    );
    assert.match(output.note ?? '', /inexact type: pages are read by position/);
  });

  it('a table not at the commit is a TableGoneError naming table, ref and commit; its columns are never asked', async () => {
    const c = catalog(['other'], []);
    await assert.rejects(
      openTableAt({ target, commit: '0123456789abcdef', table: 'products' }, c, never),
      (e: unknown) =>
        e instanceof TableGoneError &&
        e.message === 'The table products does not exist at main (commit 01234567): it was dropped or renamed.',
    );
    assert.deepEqual(c.asked, ['tables@0123456789abcdef']);
  });

  it('dolt_tests, which SHOW TABLES leaves out, opens as a table keyed by test_name (issue #24)', async () => {
    const c = catalog(
      ['orders'],
      [
        { name: 'test_group', type: 'text', primaryKey: false, nullable: true },
        { name: 'test_name', type: 'text', primaryKey: true, nullable: false },
        { name: 'test_query', type: 'text', primaryKey: false, nullable: false },
      ],
    );
    const opened = await openTableAt({ target, commit: 'c2', table: 'dolt_tests' }, c, never);
    assert.equal(opened.kind, 'table');
    assert.equal(opened.output.title, 'dolt_tests @ main');
    assert.deepEqual(opened.output.rowsOf, { table: 'dolt_tests', keyColumns: [0] });
    assert.deepEqual(c.asked, ['tables@c2', 'dolt_tests@c2']);
  });
});
