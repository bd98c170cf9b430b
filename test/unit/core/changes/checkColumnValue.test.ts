// Whether a typed value fits its column, per declared type (as Dolt prints them in DESCRIBE), and
// what the message at the cell says when it does not.
import { strict as assert } from 'node:assert';
import { checkColumnValue } from '../../../../src/core/changes/checkColumnValue';
import { parseColumnType } from '../../../../src/shared/columnType';

const fits = (type: string, value: string | null, nullable = true): boolean =>
  checkColumnValue({ name: 'c', type, nullable }, value) === undefined;

describe('checkColumnValue', () => {
  const cases: [string, string[], string[]][] = [
    ['int', ['0', '-2147483648', '2147483647', '+5', '007'], ['2147483648', '1.0', '1e3', '', ' 1', 'one']],
    ['int unsigned', ['0', '4294967295'], ['-1', '4294967296']],
    ['bigint', ['9223372036854775807', '-9223372036854775808'], ['9223372036854775808']],
    ['bigint unsigned', ['18446744073709551615'], ['18446744073709551616', '-1']],
    ['tinyint', ['127', '-128'], ['128']],
    ['tinyint(1)', ['1', '0', '-5'], ['true', '200']],
    ['decimal(10,2)', ['0.5', '12345678.99', '-1', '.25', '3.'], ['123456789', '1.234', '1e2', '', '.', '-']],
    ['decimal(30,10)', ['12345678901234567890.1234567890'], ['123456789012345678901.0']],
    ['double', ['1.5e300', '-0.25', '3'], ['1e999', 'NaN', 'abc', '']],
    ['date', ['2026-01-05', '2024-02-29'], ['2025-02-29', '2026-13-01', '2026-1-5', '05/01/2026', '']],
    [
      'datetime',
      ['2026-01-05 09:00:00'],
      ['2026-01-05T09:00:00', '2026-01-05 09:00:00.5', '2026-01-05', '2026-01-05 24:00:00', '2026-01-05 09:00:00+02:00'],
    ],
    ['datetime(6)', ['2026-01-05 09:00:00.123456', '2026-01-05 09:00:00'], ['2026-01-05 09:00:00.1234567']],
    ['timestamp(3)', ['2026-01-05 09:00:00.123'], ['2026-01-05 09:00:00.1234']],
    ['time', ['09:30:00', '-838:59:59', '100:00:00'], ['839:00:00', '9:60:00', '09:30']],
    ['year', ['2026', '1901', '0000'], ['1900', '26', '2156']],
    ['json', ['{"a": [1, 2]}', '"text"', 'null', '3'], ['{a: 1}', '', "{'a': 1}"]],
    ["enum('small','large','it''s')", ['small', "it's"], ['Small', 'medium', '']],
    ["set('a','b','c')", ['a', 'a,c', ''], ['a, c', 'd']],
    ['varchar(5)', ['', 'abcde', 'ééééé', '😀😀😀😀😀'], ['abcdef']],
    ['char(2)', ['PT'], ['PRT']],
    ['tinytext', ['x'.repeat(255)], ['é'.repeat(128)]],
    ['text', ['any\nlines\tand "quotes"'], []],
    ['blob', [], ['anything']],
  ];
  for (const [type, good, bad] of cases) {
    it(`${type}: fits ${good.length}, refuses ${bad.length}`, () => {
      for (const v of good) assert.ok(fits(type, v), `${JSON.stringify(v)} should fit ${type}`);
      for (const v of bad) assert.ok(!fits(type, v), `${JSON.stringify(v)} should not fit ${type}`);
    });
  }

  it('NULL fits only a nullable column; the empty string is a value, not NULL', () => {
    assert.equal(checkColumnValue({ name: 'name', type: 'varchar(10)', nullable: false }, null), 'name cannot be NULL.');
    assert.equal(checkColumnValue({ name: 'name', type: 'varchar(10)', nullable: false }, ''), undefined);
    assert.equal(checkColumnValue({ name: 'price', type: 'decimal(10,2)', nullable: true }, null), undefined);
    assert.equal(
      checkColumnValue({ name: 'price', type: 'decimal(10,2)', nullable: true }, ''),
      'price (decimal(10,2)) needs a decimal number (digits, one point, no exponent).',
    );
  });

  it('says what fits', () => {
    assert.equal(
      checkColumnValue({ name: 'qty', type: 'smallint unsigned', nullable: true }, '70000'),
      'qty (smallint unsigned) needs a whole number from 0 to 65535.',
    );
    assert.equal(
      checkColumnValue({ name: 'at', type: 'datetime(6)', nullable: true }, 'tomorrow'),
      'at (datetime(6)) needs a date and time as YYYY-MM-DD HH:MM:SS[.ffffff], without a time zone.',
    );
    assert.equal(
      checkColumnValue({ name: 'size', type: "enum('s','m')", nullable: true }, 'l'),
      "size (enum('s','m')) needs one of 's', 'm'.",
    );
  });

  it('parses the declared types the editor chooses by', () => {
    assert.equal(parseColumnType('VARCHAR(255)').maxChars, 255);
    assert.equal(parseColumnType('varchar(1000)').long, true);
    assert.equal(parseColumnType('longtext').long, true);
    assert.equal(parseColumnType('json').kind, 'json');
    assert.equal(parseColumnType('tinyint(1)').kind, 'boolean');
    assert.equal(parseColumnType('BOOLEAN').kind, 'boolean');
    assert.equal(parseColumnType('bigint(20) unsigned').max, 18446744073709551615n);
    assert.deepEqual(parseColumnType("enum('a','b''c')").values, ['a', "b'c"]);
    assert.equal(parseColumnType('varbinary(16)').kind, 'binary');
    assert.equal(parseColumnType('bit(1)').kind, 'binary');
    assert.equal(parseColumnType('TEXT').kind, 'text');
    assert.equal(parseColumnType('').kind, 'text');
  });
});
