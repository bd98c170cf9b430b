import { strict as assert } from 'node:assert';
import { splitStatements, statementAt, stripComments } from '../../../../src/core/sql/statements';

describe('SQL statement splitting', () => {
  it('splits on semicolons outside quotes, backticks and comments', () => {
    const sql = 'SELECT \';\' AS a; SELECT `we;ird` FROM t -- no; split\n; /* ; */ SELECT "x;y"';
    assert.deepEqual(
      splitStatements(sql).map((s) => s.text),
      ["SELECT ';' AS a", 'SELECT `we;ird` FROM t -- no; split', '/* ; */ SELECT "x;y"'],
    );
  });

  it('handles doubled and backslash-escaped quotes', () => {
    const sql = "SELECT 'it''s; fine'; SELECT 'a\\'; b'";
    assert.deepEqual(
      splitStatements(sql).map((s) => s.text),
      ["SELECT 'it''s; fine'", "SELECT 'a\\'; b'"],
    );
  });

  it('drops empty and comment-only statements', () => {
    assert.deepEqual(splitStatements(';;  -- just a note\n;\n# another\n'), []);
    assert.equal(splitStatements('SELECT 1;\n\n').length, 1);
  });

  it('reports offsets of each trimmed statement', () => {
    const sql = '  SELECT 1;\n  SELECT 2  ';
    const [a, b] = splitStatements(sql);
    assert.equal(sql.slice(a!.start, a!.end), 'SELECT 1');
    assert.equal(sql.slice(b!.start, b!.end), 'SELECT 2');
  });

  it('finds the statement under the cursor, or the one just before it', () => {
    const sql = 'SELECT 1;\nSELECT 2;\n\n';
    assert.equal(statementAt(sql, 3)?.text, 'SELECT 1');
    assert.equal(statementAt(sql, sql.indexOf('2'))?.text, 'SELECT 2');
    assert.equal(statementAt(sql, sql.length)?.text, 'SELECT 2');
    assert.equal(statementAt('', 0), undefined);
  });

  it('strips comments but keeps quoted text', () => {
    assert.equal(stripComments("SELECT '--x' -- gone\n/* gone */1").replace(/\s+/g, ' ').trim(), "SELECT '--x' 1");
  });
});
