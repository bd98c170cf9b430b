// The hub's pure pieces, without a server: Dolt hash encoding, MySQL-form translation,
// statement splitting, cursor tokens.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { bytesToDoltHash, doltHashToHex, hexToDoltHash, isDoltHash } from '../../src/hub/doltHash';
import { MAX_QUERY_TOKENS, mysqlToSqliteText, translateQuery } from '../../src/hub/mysqlDialect';
import { hasMoreTokensThan } from '../../src/core/sql/sqlTokens';
import { splitStatements } from '../../src/core/sql/statements';
import { isReadOnlyFunction, refusal } from '../../src/hub/readOnlyGuard';
import { Paginator } from '../../src/hub/pagination';
import { withScale } from '../../src/hub/decimalScale';

describe('hub pure logic', () => {
  it('encodes Dolt hashes as 32 characters of 0-9a-v (Dolt test vector) and back', () => {
    const bytes = createHash('sha512').update('abc').digest().subarray(0, 20);
    assert.equal(bytesToDoltHash(bytes), 'rmnjb8cjc5tblj21ed4qs821649eduie');
    assert.equal(doltHashToHex('rmnjb8cjc5tblj21ed4qs821649eduie'), bytes.toString('hex'));
    const hex = '874ce46d95077b1186dde13167e8f82e3635fb4d';
    assert.equal(doltHashToHex(hexToDoltHash(hex)), hex);
    assert.equal(isDoltHash('rmnjb8cjc5tblj21ed4qs821649eduie'), true);
    assert.equal(isDoltHash('main'), false);
    assert.equal(isDoltHash('rmnjb8cjc5tblj21ed4qs821649eduiw'), false);
    assert.throws(() => doltHashToHex('xyz'));
  });

  it('translates the MySQL forms and leaves other SQL alone', () => {
    assert.deepEqual(translateQuery('show tables;'), { kind: 'showTables', full: false });
    assert.deepEqual(translateQuery('  SHOW FULL TABLES  '), { kind: 'showTables', full: true });
    assert.deepEqual(translateQuery('DESCRIBE `my table`'), { kind: 'describe', table: 'my table' });
    assert.deepEqual(translateQuery('desc t1'), { kind: 'describe', table: 't1' });
    assert.deepEqual(translateQuery('SHOW COLUMNS FROM "t"'), { kind: 'describe', table: 't' });
    assert.deepEqual(translateQuery('show create table `x`;'), { kind: 'showCreateTable', table: 'x' });
    assert.deepEqual(translateQuery('SELECT 1;'), { kind: 'sql', sql: 'SELECT 1' });
    assert.equal(translateQuery('SELECT 1; SELECT 2').kind, 'invalid');
    assert.equal(translateQuery('   ').kind, 'invalid');
  });

  it('refuses a query of more tokens than MAX_QUERY_TOKENS before building them; comments and spaces do not count', () => {
    const values = (n: number): string => `SELECT count(*) FROM (VALUES ${Array.from({ length: n }, (_, i) => `(${i})`).join(',')}) AS v`;
    // Each row is 4 tokens: ( i ) and the comma; 5 more around them.
    const under = values(Math.floor((MAX_QUERY_TOKENS - 9) / 4));
    assert.equal(translateQuery(under).kind, 'sql');
    const over = translateQuery(values(MAX_QUERY_TOKENS / 4 + 1));
    assert.equal(over.kind, 'invalid');
    assert.match((over as { message: string }).message, /more than 200,000 tokens/);
    assert.equal(translateQuery(`SELECT 1 /* ${'x '.repeat(MAX_QUERY_TOKENS * 2)} */`).kind, 'sql', 'a long comment is one token');
    assert.equal(hasMoreTokensThan("SELECT 'a b c' , x", 4), false);
    assert.equal(hasMoreTokensThan("SELECT 'a b c' , x", 3), true);
  });

  it("finds the one statement where the client does, with MySQL's rules", () => {
    assert.equal(translateQuery("SELECT ';' AS a -- ; comment\n").kind, 'sql');
    assert.equal(translateQuery('SELECT `a;b` FROM t /* ; */').kind, 'sql');
    assert.equal(translateQuery("SELECT 'it''s;' ; ;").kind, 'sql');
    assert.equal(translateQuery('SELECT 1; DROP TABLE t').kind, 'invalid');
    // `\'` is an escaped quote in MySQL: the `;` after it is inside the string, as the client reads it.
    const escaped = "SELECT 'a\\'; DROP TABLE t; -- '";
    assert.equal(splitStatements(escaped).length, 1);
    assert.equal(translateQuery(escaped).kind, 'sql');
    // `--` before a non-space is two minus signs in MySQL, not a comment hiding the second statement.
    assert.equal(splitStatements('SELECT 5--3; DROP TABLE t').length, 2);
    assert.equal(translateQuery('SELECT 5--3; DROP TABLE t').kind, 'invalid');
  });

  it('writes MySQL string literals again as SQLite reads the same value', () => {
    const sql = (q: string): string => {
      const t = mysqlToSqliteText(q);
      assert.equal(t.kind, 'sql', q);
      return (t as { sql: string }).sql;
    };
    assert.equal(sql("SELECT count(*) FROM p WHERE name = 'x\\' OR 1=1 -- '"), "SELECT count(*) FROM p WHERE name = 'x'' OR 1=1 -- '");
    assert.equal(sql("SELECT 'a\\'b', 'c''d', 'e\\\\'"), "SELECT 'a''b', 'c''d', 'e\\'");
    assert.equal(sql('SELECT "say \\"hi\\""'), 'SELECT "say ""hi"""');
    assert.equal(sql("SELECT 'tab\\there'"), "SELECT 'tab\there'");
    assert.equal(sql("SELECT 'a\\0b'"), "SELECT ('a' || char(0) || 'b')");
    assert.equal(sql('SELECT 5--3 # note'), 'SELECT 5- -3 -- note');
    assert.equal(sql('SELECT `we``ird` FROM t'), 'SELECT `we``ird` FROM t');
    assert.equal(mysqlToSqliteText("SELECT 'open").kind, 'invalid');
  });

  it('tells the read-only guard which functions and pragmas only read', () => {
    for (const f of [
      'dolt_commit',
      'DOLT_RESET',
      'dolt_branch',
      'dolt_checkout',
      'dolt_merge',
      'dolt_tag',
      'dolt_gc',
      'dolt_config',
      'dolt_default_branch',
      'fts3_tokenizer',
      // Not known to only read: allowed only once on the list.
      'fts5',
      'bm25',
      'highlight',
      'vec1_train',
      'vec1_info',
      'rtreenode',
      'sqlite_log',
      'load_extension',
      'some_future_function',
    ]) {
      assert.equal(isReadOnlyFunction(f), false, f);
    }
    for (const f of [
      'dolt_hashof',
      'dolt_merge_base',
      'dolt_hash32',
      'dolt_rev',
      'upper',
      'printf',
      'now',
      'json_extract',
      'row_number',
      'char',
    ])
      assert.equal(isReadOnlyFunction(f), true, f);
    // Authorizer action codes: 19 PRAGMA (name, value), 24 ATTACH, 31 FUNCTION (-, name).
    assert.equal(refusal(19, 'table_info', 't'), undefined);
    assert.equal(refusal(19, 'user_version', null), undefined);
    assert.match(refusal(19, 'user_version', '3') ?? '', /PRAGMA user_version = … is not allowed/);
    assert.match(refusal(19, 'journal_mode', null) ?? '', /PRAGMA journal_mode is not allowed/);
    assert.match(refusal(24, ':memory:', null) ?? '', /^ATTACH is not allowed: the SQL endpoint is read-only/);
    assert.match(refusal(31, null, 'dolt_reset') ?? '', /^dolt_reset\(\) changes the database/);
  });

  it('prints decimals with the declared scale', () => {
    assert.equal(withScale('0.5', 2), '0.50');
    assert.equal(withScale('3', 2), '3.00');
    assert.equal(withScale('-1.25', 2), '-1.25');
    assert.equal(withScale('7', 0), '7');
    assert.equal(withScale('1.5e+20', 2), '1.5e+20');
    // Texts that are not plain decimals, or have more digits than the scale, stay as they are.
    for (const t of ['', '-', '3.', '.5', '1.234', '- 1', '1.2.3', 'Inf', '0x10', '1e5', '+1', '12a'])
      assert.equal(withScale(t, 2), t, JSON.stringify(t));
    assert.equal(withScale('1.5', 0), '1.5');
    assert.equal(withScale('-0', 3), '-0.000');
    assert.equal(withScale('123', 1), '123.0');
    assert.equal(withScale('-7.1', 4), '-7.1000');
  });

  it('makes cursors that only work for their list and cannot be edited', () => {
    const p = new Paginator('secret', 2);
    const items = [1, 2, 3, 4, 5];
    const first = p.page('L', items, null);
    assert.deepEqual(first.items, [1, 2]);
    const second = p.page('L', items, first.next as string);
    assert.deepEqual(second.items, [3, 4]);
    assert.deepEqual(p.page('L', items, second.next as string), { items: [5] });
    assert.throws(() => p.page('other', items, first.next as string), /page_token/);
    assert.throws(() => new Paginator('another secret', 2).page('L', items, first.next as string), /page_token/);
    const [payload, mac] = (first.next as string).split('.');
    const edited = Buffer.from(
      Buffer.from(payload as string, 'base64url')
        .toString()
        .replace('"o":2', '"o":4'),
    ).toString('base64url');
    assert.throws(() => p.page('L', items, `${edited}.${mac}`), /page_token/);
    assert.throws(() => p.page('L', [1], first.next as string), /stale|past the end/);
  });
});
