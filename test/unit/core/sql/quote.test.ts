import { strict as assert } from 'node:assert';
import pkg from 'node-sql-parser';
import { SqlInputError, isPlainNumber, likeContains, quoteIdentifier, sqlCount, sqlString, sqlValue } from '../../../../src/core/sql/quote';
import { SqliteEngine } from '../../../helpers/sqliteEngine';
import { HOSTILE_TEXT } from './hostileText';

const mysql = new pkg.Parser();

describe('SQL quoting (one home for identifiers and literals)', () => {
  let db: SqliteEngine;
  before(async () => {
    db = await SqliteEngine.open();
  });
  after(() => db.close());

  it('quotes identifiers in backticks, doubling backticks, and SQLite reads them back', () => {
    assert.equal(quoteIdentifier('plain'), '`plain`');
    assert.equal(quoteIdentifier('we`ird'), '`we``ird`');
    assert.equal(quoteIdentifier('select'), '`select`');
    for (const name of ['we`ird', 'has space', "quo'te", 'ünï', '`', 'a"b', 'x;y', 'select']) {
      const id = quoteIdentifier(name);
      db.exec(`CREATE TABLE ${id} (${id} TEXT)`);
      db.exec(`INSERT INTO ${id} VALUES ('v')`);
      const cols = db.rows(`SELECT name FROM pragma_table_info(${sqlString(name)})`);
      assert.deepEqual(cols, [[name]], `column of table ${name}`);
      assert.deepEqual(db.rows(`SELECT ${id} FROM ${id}`), [['v']]);
      db.exec(`DROP TABLE ${id}`);
    }
  });

  it('refuses empty names and NUL characters', () => {
    assert.throws(() => quoteIdentifier(''), SqlInputError);
    assert.throws(() => quoteIdentifier('a\u0000b'), /NUL/);
  });

  it('string literals give back exactly the text in SQLite', () => {
    for (const text of HOSTILE_TEXT) {
      assert.deepEqual(db.rows(`SELECT ${sqlString(text)}`), [[text]], JSON.stringify(text));
    }
  });

  it('string literals hold no backslash, so MySQL reads them as SQLite does; MySQL parses them to the same text', () => {
    for (const text of HOSTILE_TEXT) {
      const lit = sqlString(text);
      assert.ok(!lit.includes('\\'), lit);
      const ast = mysql.astify(`SELECT ${lit} AS v`, { database: 'MySQL' }) as unknown as
        { columns: { expr: { type: string; value: unknown } }[] }[] | { columns: { expr: { type: string; value: unknown } }[] };
      const stmt = Array.isArray(ast) ? ast[0]! : ast;
      const expr = stmt.columns[0]!.expr;
      if (expr.type === 'single_quote_string' || expr.type === 'string') {
        // The parser keeps the doubled quotes as written.
        assert.equal(String(expr.value).replace(/''/g, "'"), text);
      } else {
        assert.equal(expr.type, 'cast', `${lit} is a CAST of hex bytes`);
      }
    }
  });

  it('text with a backslash or a control character travels as hex bytes', () => {
    assert.equal(sqlString('a\\b'), "CAST(X'615C62' AS CHAR)");
    assert.equal(sqlString('é\u0001'), "CAST(X'C3A901' AS CHAR)");
    assert.equal(sqlString("it's"), "'it''s'");
    assert.equal(sqlString('tab\tand\nnewline'), "'tab\tand\nnewline'");
  });

  it('numbers stay bare only for exact numeric columns and plain decimals', () => {
    assert.equal(sqlValue('9007199254740993', true), '9007199254740993');
    assert.equal(sqlValue('-12.50', true), '-12.50');
    assert.equal(sqlValue('0012', false), "'0012'");
    assert.equal(sqlValue('1e3', true), "'1e3'");
    assert.equal(sqlValue('1; DROP TABLE t', true), "'1; DROP TABLE t'");
    assert.equal(sqlValue(null, true), 'NULL');
    assert.ok(isPlainNumber('.5') && isPlainNumber('5.') && !isPlainNumber('') && !isPlainNumber('+1') && !isPlainNumber(' 1'));
  });

  it('LIKE patterns match the text literally: %, _ and ! are not wildcards', () => {
    db.exec('CREATE TABLE likes (v TEXT)');
    const values = ['100%', '1000', 'a_b', 'axb', '!x', 'x', 'back\\slash', "it's", 'ünï', '50% off_!'];
    for (const v of values) db.exec('INSERT INTO likes VALUES (?)', { bind: [v] });
    for (const needle of ['%', '_', '!', '0%', 'a_b', '\\', "'", 'ün', '% off_!']) {
      const got = db.rows(`SELECT v FROM likes WHERE v ${likeContains(needle)} ORDER BY v`).map((r) => r[0]);
      const want = values.filter((v) => v.includes(needle)).sort();
      assert.deepEqual(got.sort(), want, `contains ${JSON.stringify(needle)}`);
    }
    assert.equal(likeContains('50%'), "LIKE '%50!%%' ESCAPE '!'");
  });

  it('counts for LIMIT and OFFSET are whole numbers of 0 or more', () => {
    assert.equal(sqlCount(0), '0');
    assert.equal(sqlCount(500), '500');
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) assert.throws(() => sqlCount(bad), SqlInputError);
  });
});
