import { strict as assert } from 'node:assert';
import type { QueryResult } from '../../../../src/shared/wire';
import { completionsAt, hoverAt, parseDescribe, parseShowTables, referencedTables, type Schema } from '../../../../src/core/sql/completion';

const schema: Schema = {
  tables: [
    {
      name: 'employees',
      columns: [
        { name: 'id', type: 'bigint', primaryKey: true, nullable: false },
        { name: 'first_name', type: 'varchar(255)', primaryKey: false, nullable: true },
        { name: 'team_id', type: 'bigint', primaryKey: false, nullable: true },
      ],
    },
    {
      name: 'teams',
      columns: [
        { name: 'id', type: 'bigint', primaryKey: true, nullable: false },
        { name: 'team_name', type: 'varchar(100)', primaryKey: false, nullable: false },
      ],
    },
  ],
};

function labels(text: string, offset = text.length): string[] {
  return completionsAt(text, offset, schema).items.map((i) => i.label);
}

describe('SQL completion', () => {
  it('after FROM or JOIN offers tables only', () => {
    assert.deepEqual(labels('SELECT * FROM '), ['employees', 'teams']);
    assert.deepEqual(labels('SELECT * FROM employees e JOIN te'), ['employees', 'teams']);
    assert.equal(completionsAt('SELECT * FROM te', 16, schema).prefix, 'te');
  });

  it("after an alias and a dot offers that table's columns", () => {
    assert.deepEqual(labels('SELECT t. FROM employees e JOIN teams t ON e.team_id = t.id', 'SELECT t.'.length), ['id', 'team_name']);
    assert.deepEqual(labels('SELECT e.fi FROM employees AS e', 'SELECT e.fi'.length), ['id', 'first_name', 'team_id']);
    assert.deepEqual(labels('SELECT teams.'), ['id', 'team_name']);
  });

  it('in a select list, columns of the tables in the statement come first', () => {
    const ctx = completionsAt('SELECT fi FROM employees', 'SELECT fi'.length, schema);
    const cols = ctx.items.filter((i) => i.kind === 'column').map((i) => i.label);
    assert.deepEqual(cols, ['id', 'first_name', 'team_id']);
    assert.ok(ctx.items.some((i) => i.kind === 'keyword' && i.label === 'WHERE'));
    const first = ctx.items.reduce((a, b) => (b.rank < a.rank ? b : a));
    assert.equal(first.kind, 'column');
    assert.match(ctx.items.find((i) => i.label === 'id')!.detail, /bigint, primary key/);
  });

  it('only looks at the statement under the cursor', () => {
    const text = 'SELECT * FROM teams;\nSELECT  FROM employees;';
    const ctx = completionsAt(text, text.indexOf('SELECT  ') + 7, schema);
    const cols = ctx.items.filter((i) => i.kind === 'column').map((i) => i.label);
    assert.deepEqual(cols, ['id', 'first_name', 'team_id']);
  });

  it('finds referenced tables with aliases and comma lists', () => {
    assert.deepEqual(referencedTables('select * from employees e, `teams` as t where e.id = 1'), [
      { table: 'employees', alias: 'e' },
      { table: 'teams', alias: 't' },
    ]);
    assert.deepEqual(referencedTables('select * from employees where id = 1'), [{ table: 'employees' }]);
  });

  it('hover describes a table and a column', () => {
    const text = 'SELECT e.first_name FROM employees e';
    const onTable = hoverAt(text, text.indexOf('employees') + 2, schema);
    assert.ok(onTable);
    assert.equal(onTable.lines[0], 'table employees (3 columns)');
    const onCol = hoverAt(text, text.indexOf('first_name') + 1, schema);
    assert.deepEqual(onCol?.lines, ['employees.first_name: varchar(255)', 'not a key, nullable']);
    assert.equal(hoverAt(text, text.indexOf('SELECT') + 1, schema), undefined);
  });

  it('parses SHOW TABLES and DESCRIBE results', () => {
    const show: QueryResult = { status: 'success', columns: [{ name: 'Tables_in_db', type: 'text' }], rows: [['a'], ['b']] };
    assert.deepEqual(parseShowTables(show), ['a', 'b']);
    const describe: QueryResult = {
      status: 'success',
      columns: ['Field', 'Type', 'Null', 'Key', 'Default', 'Extra'].map((name) => ({ name, type: 'text' })),
      rows: [
        ['id', 'bigint', 'NO', 'PRI', null, ''],
        ['note', 'text', 'YES', '', null, ''],
      ],
    };
    assert.deepEqual(parseDescribe(describe), [
      { name: 'id', type: 'bigint', nullable: false, primaryKey: true },
      { name: 'note', type: 'text', nullable: true, primaryKey: false },
    ]);
    assert.deepEqual(parseShowTables({ ...show, status: 'error' }), []);
  });
});
