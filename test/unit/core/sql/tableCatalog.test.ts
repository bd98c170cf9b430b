import { strict as assert } from 'node:assert';
import type { SqlPort } from '../../../../src/core/sql/sqlPort';
import type { QueryResult } from '../../../../src/shared/wire';
import {
  CatalogError,
  SHOW_FULL_TABLES,
  TableCatalogCache,
  buildDescribe,
  parseColumnsOf,
  parseFullTables,
} from '../../../../src/core/sql/tableCatalog';
import { describeColumn } from '../../../../src/core/nodeDescriptions';

const result = (columns: string[], rows: (string | null)[][], status = 'success', message = ''): QueryResult => ({
  columns: columns.map((name) => ({ name, type: 'varchar(64)' })),
  rows,
  status,
  message,
});

describe('table catalog SQL and parsers', () => {
  it('asks in forms Dolt answers as they are, quoting names', () => {
    assert.equal(SHOW_FULL_TABLES, 'SHOW FULL TABLES');
    assert.equal(buildDescribe('products'), 'DESCRIBE `products`');
    assert.equal(buildDescribe('we`ird'), 'DESCRIBE `we``ird`');
  });

  it('reads tables and views from SHOW FULL TABLES, sorted by name', () => {
    const r = result(
      ['Tables_in_prices', 'Table_type'],
      [
        ['stores', 'BASE TABLE'],
        ['cheap', 'VIEW'],
        ['products', 'BASE TABLE'],
      ],
    );
    assert.deepEqual(parseFullTables(r), [
      { name: 'cheap', kind: 'view' },
      { name: 'products', kind: 'table' },
      { name: 'stores', kind: 'table' },
    ]);
    // A plain SHOW TABLES answer (no Table_type) lists tables.
    assert.deepEqual(parseFullTables(result(['Tables_in_x'], [['b'], ['a']])), [
      { name: 'a', kind: 'table' },
      { name: 'b', kind: 'table' },
    ]);
  });

  it('a failed answer is an error naming what could not be read, never an empty list', () => {
    assert.throws(
      () => parseFullTables(result([], [], 'error', 'database is locked')),
      (e: unknown) => e instanceof CatalogError && /the tables: database is locked/.test(e.message) && e.status === 'error',
    );
    assert.throws(() => parseColumnsOf('gone', result([], [], 'error', 'table not found: gone')), /columns of gone: table not found: gone/);
    assert.throws(() => parseColumnsOf('t', result(['Name'], [['x']])), /no Field column/);
  });

  it('reads DESCRIBE: name, type, key and nullability in table order', () => {
    const r = result(
      ['Field', 'Type', 'Null', 'Key', 'Default', 'Extra'],
      [
        ['id', 'bigint', 'NO', 'PRI', null, ''],
        ['name', 'varchar(255)', 'NO', '', null, ''],
        ['note', 'text', 'YES', '', null, ''],
      ],
    );
    const cols = parseColumnsOf('t', r);
    assert.deepEqual(cols, [
      { name: 'id', type: 'bigint', primaryKey: true, nullable: false },
      { name: 'name', type: 'varchar(255)', primaryKey: false, nullable: false },
      { name: 'note', type: 'text', primaryKey: false, nullable: true },
    ]);
    assert.deepEqual(
      cols.map((c) => [describeColumn(c).label, describeColumn(c).description]),
      [
        ['id', 'bigint · primary key'],
        ['name', 'varchar(255) · not null'],
        ['note', 'text · nullable'],
      ],
    );
  });
});

describe('TableCatalogCache', () => {
  const db = { owner: 'alice', name: 'prices' };
  function setup() {
    const sent: string[] = [];
    let fail = false;
    const run: Pick<SqlPort, 'run'>['run'] = async ({ hostId, db: d, ref: commit }, sql) => {
      sent.push(`${hostId} ${d.owner}/${d.name} @${commit}: ${sql}`);
      if (fail) return result([], [], 'error', 'boom');
      if (sql === SHOW_FULL_TABLES) return result(['Tables_in_prices', 'Table_type'], [[`t_${commit}`, 'BASE TABLE']]);
      return result(['Field', 'Type', 'Null', 'Key'], [['id', 'int', 'NO', 'PRI']]);
    };
    const cache = new TableCatalogCache({ run }, 2);
    return { sent, cache, setFail: (v: boolean) => (fail = v) };
  }

  it('asks each commit once; another commit is a new read at that commit', async () => {
    const { sent, cache } = setup();
    assert.deepEqual(await cache.tables('h', db, 'c1'), [{ name: 't_c1', kind: 'table' }]);
    await Promise.all([cache.tables('h', db, 'c1'), cache.tables('h', db, 'c1')]);
    await cache.columns('h', db, 'c1', 'products');
    await cache.columns('h', db, 'c1', 'products');
    assert.deepEqual(sent, ['h alice/prices @c1: SHOW FULL TABLES', 'h alice/prices @c1: DESCRIBE `products`']);
    assert.deepEqual(await cache.tables('h', db, 'c2'), [{ name: 't_c2', kind: 'table' }]);
    assert.equal(sent.length, 3);
    assert.equal(sent[2], 'h alice/prices @c2: SHOW FULL TABLES');
  });

  it('does not keep a failure: the next ask reads again', async () => {
    const { sent, cache, setFail } = setup();
    setFail(true);
    await assert.rejects(cache.tables('h', db, 'c1'), /boom/);
    setFail(false);
    assert.equal((await cache.tables('h', db, 'c1')).length, 1);
    assert.equal(sent.length, 2);
  });

  it('forgets the least recently used commit past its size', async () => {
    const { sent, cache } = setup();
    await cache.tables('h', db, 'a');
    await cache.tables('h', db, 'b');
    await cache.tables('h', db, 'a');
    await cache.tables('h', db, 'c'); // forgets b
    await cache.tables('h', db, 'a');
    await cache.tables('h', db, 'b');
    assert.deepEqual(
      sent.map((s) => s.split(' @')[1]!.split(':')[0]),
      ['a', 'b', 'c', 'b'],
    );
  });
});
