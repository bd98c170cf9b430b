import { strict as assert } from 'node:assert';
import pkg from 'node-sql-parser';
import { checkPageable, duplicateColumnNames, plainTableOf, wrapCount, wrapPage } from '../../../../src/core/sql/pagedQuery';
import { SqlInputError } from '../../../../src/core/sql/quote';
import { SqliteEngine } from '../../../helpers/sqliteEngine';

const mysql = new pkg.Parser();

describe('Load All Rows: wrapping a user query in pages', () => {
  let db: SqliteEngine;
  before(async () => {
    db = await SqliteEngine.open();
    db.exec('CREATE TABLE t (id int primary key, v text)');
    for (let i = 1; i <= 53; i++) db.exec('INSERT INTO t VALUES (?, ?)', { bind: [i, `v${i % 5}`] });
  });
  after(() => db.close());

  const accepted = [
    'SELECT * FROM t',
    'select id from t order by v desc, id;',
    'SELECT id FROM t;;  \n',
    "  /* lead */ SELECT id, v FROM t WHERE v = 'a;b' -- trailing comment",
    "SELECT id FROM t WHERE v <> 'it''s; DELETE FROM t'",
    'WITH x AS (SELECT id FROM t WHERE id < 10) SELECT * FROM x ORDER BY id',
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) SELECT i FROM n',
    'WITH `update` AS (SELECT 1 AS a) SELECT a FROM `update`',
    'SELECT id FROM t WHERE id < 5 UNION SELECT id FROM t WHERE id > 50 ORDER BY id',
    'VALUES (1, 2), (3, 4)',
    'SELECT id FROM t LIMIT 20',
  ];
  for (const sql of accepted) {
    it(`wraps ${JSON.stringify(sql)}: pages read in turn equal the query's own rows`, () => {
      const check = checkPageable(sql);
      assert.ok(check.ok, check.ok ? '' : check.reason);
      const all = db.rows(sql.replace(/[\s;]+$/, ''));
      const paged = [];
      for (let offset = 0; offset < all.length + 10; offset += 10) paged.push(...db.rows(wrapPage(sql, 10, offset)));
      assert.deepEqual(paged, all);
      assert.deepEqual(db.rows(wrapCount(sql)), [[String(all.length)]]);
    });
  }

  it('the wrapper text is what the issue asks for, and MySQL parses it', () => {
    const w = wrapPage('SELECT id FROM t -- note', 500, 1000);
    assert.equal(w, 'SELECT * FROM (\nSELECT id FROM t -- note\n) AS `q` LIMIT 500 OFFSET 1000');
    assert.doesNotThrow(() => mysql.astify(w, { database: 'MySQL' }));
    assert.doesNotThrow(() => mysql.astify(wrapCount('SELECT id FROM t'), { database: 'MySQL' }));
  });

  const refused: [string, RegExp][] = [
    ['DELETE FROM t', /this is DELETE/],
    ['UPDATE t SET v = 1', /this is UPDATE/],
    ['INSERT INTO t VALUES (99, 1)', /this is INSERT/],
    ['WITH x AS (SELECT 1) DELETE FROM t', /this is DELETE/],
    ['WITH x AS (SELECT 1) UPDATE t SET v = 2', /this is UPDATE/],
    ['CALL dolt_commit("-am", "x")', /this is CALL/],
    ['SHOW TABLES', /this is SHOW/],
    ['DESCRIBE t', /this is DESCRIBE/],
    ['SELECT 1; DELETE FROM t', /single statement/],
    ['SELECT 1; SELECT 2', /single statement/],
    // MySQL reads \' as a quote inside the string; SQLite ends the string at it and sees a DELETE.
    ["SELECT 'a\\'; DELETE FROM t; -- '", /single statement/],
    ["SELECT 'unclosed", /never closed/],
    ['SELECT 1 /* open', /never closed/],
    ['SELECT (1', /never closed/],
    ['SELECT 1)', /without its/],
    ['SELECT id INTO @x FROM t', /INTO cannot be paged/],
    ['', /empty/],
    ['  -- only a comment', /empty|not a SELECT/],
  ];
  for (const [sql, reason] of refused) {
    it(`refuses ${JSON.stringify(sql)} with a reason, never wrapping it`, () => {
      const check = checkPageable(sql);
      assert.equal(check.ok, false);
      assert.match(check.ok ? '' : check.reason, reason);
      assert.throws(() => wrapPage(sql, 10, 0), SqlInputError);
      assert.throws(() => wrapCount(sql), SqlInputError);
    });
  }

  it('the table is unchanged after all of that', () => {
    assert.deepEqual(db.rows('SELECT COUNT(*) FROM t'), [['53']]);
  });

  it('finds column names a derived table would refuse (MySQL compares them case-insensitively)', () => {
    assert.deepEqual(duplicateColumnNames(['id', 'name', 'ID', 'x', 'name']), ['id', 'name']);
    assert.deepEqual(duplicateColumnNames(['a', 'b']), []);
  });
});

describe('plainTableOf (Load All Rows pages such a query by the table key)', () => {
  it('names the table of exactly SELECT * FROM <table>, and nothing else', () => {
    assert.equal(plainTableOf('SELECT * FROM big'), 'big');
    assert.equal(plainTableOf('select *\n  from `odd ``name`` t`;  -- all of it'), 'odd `name` t');
    assert.equal(plainTableOf('/* c */ SELECT * FROM products ;'), 'products');
    for (const q of [
      'SELECT * FROM big WHERE id > 1',
      'SELECT id FROM big',
      'SELECT * FROM a, b',
      'SELECT * FROM db.big',
      'SELECT * FROM big LIMIT 5',
      'SELECT * FROM "big"',
      'WITH t AS (SELECT 1) SELECT * FROM t',
      'SELECT * FROM dual',
      'SELECT * FROM `unterminated',
    ]) {
      assert.equal(plainTableOf(q), undefined, q);
    }
  });
});
