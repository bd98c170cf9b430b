// DoltLite's SQL text as MySQL reads it (DOLT_PATCH statements): identifiers in backticks, string
// values unchanged when MySQL reads them.
import assert from 'node:assert/strict';
import { sqliteToMysqlText } from '../../src/hub/doltSql/mysqlText';
import { significant, stringValue, identifierValue, tokenize } from '../../src/core/sql/sqlTokens';

describe('hub: SQLite statement text to MySQL text', () => {
  it('backticks "double-quoted" identifiers, doubling a backtick inside one', () => {
    assert.equal(
      sqliteToMysqlText(`UPDATE "products" SET "price"=0.35,"odd""name"='x' WHERE "id"=3;`),
      "UPDATE `products` SET `price`=0.35,`odd\"name`='x' WHERE `id`=3;",
    );
    assert.equal(sqliteToMysqlText(`DELETE FROM "a\`b" WHERE "k"=1;`), 'DELETE FROM `a``b` WHERE `k`=1;');
  });

  it('keeps every string value as MySQL reads it: quotes, double quotes and backslashes inside strings', () => {
    const values = [`it's`, `say "hi"`, 'C:\\temp\\new', 'ends with \\', '`tick`', ''];
    const sqlite = `INSERT INTO "t"("a") VALUES ${values.map((v) => `('${v.replace(/'/g, "''")}')`).join(',')};`;
    const mysql = sqliteToMysqlText(sqlite);
    // Read with MySQL's lexical rules: no double-quoted token is left, and each string has its value.
    const toks = significant(tokenize(mysql, { mysqlDashComments: true }));
    assert.equal(toks.filter((t) => t.kind === 'dquoted').length, 0);
    assert.deepEqual(toks.filter((t) => t.kind === 'bquoted').map(identifierValue), ['t', 'a']);
    assert.deepEqual(
      toks.filter((t) => t.kind === 'string').map((t) => stringValue(t)),
      values,
    );
  });

  it('leaves text without quoted identifiers as it is', () => {
    const create = 'CREATE TABLE suppliers(id int PRIMARY KEY, name varchar(100) NOT NULL);';
    assert.equal(sqliteToMysqlText(create), create);
  });
});
