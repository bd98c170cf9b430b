// The hub's pure pieces, without a server: Dolt hash encoding, MySQL-form translation,
// statement splitting, cursor tokens.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { bytesToDoltHash, doltHashToHex, hexToDoltHash, isDoltHash } from '../../src/hub/doltHash';
import { splitFirstStatement, translateQuery } from '../../src/hub/mysqlDialect';
import { isReadOnlyFunction, refusal } from '../../src/hub/readOnlyGuard';
import { Paginator } from '../../src/hub/pagination';
import { withScale } from '../../src/hub/selectRunner';

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

  it('splits only at a semicolon outside quotes and comments', () => {
    assert.equal(splitFirstStatement("SELECT ';' AS a -- ; comment\n").rest, '');
    assert.equal(splitFirstStatement('SELECT `a;b` FROM t /* ; */').rest, '');
    assert.equal(splitFirstStatement("SELECT 'it''s;' ; ;").rest.trim(), '');
    assert.equal(splitFirstStatement('SELECT 1; DROP TABLE t').rest.trim(), 'DROP TABLE t');
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
    ]) {
      assert.equal(isReadOnlyFunction(f), false, f);
    }
    for (const f of ['dolt_hashof', 'dolt_merge_base', 'dolt_hash32', 'dolt_rev', 'upper', 'printf', 'now'])
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
