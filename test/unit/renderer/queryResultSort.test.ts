import { strict as assert } from 'node:assert';
import type { Cell } from '../../../src/shared/wire';
import { cellComparator, compareNumericText, sortRowIndexes, valueKind } from '../../../src/shared/queryResultSort';

describe('type-aware sorting', () => {
  it('classifies SQL type text', () => {
    assert.equal(valueKind('bigint'), 'number');
    assert.equal(valueKind('BIGINT UNSIGNED'), 'number');
    assert.equal(valueKind('decimal(10,2)'), 'number');
    assert.equal(valueKind('double'), 'number');
    assert.equal(valueKind('int(11)'), 'number');
    assert.equal(valueKind('tinyint(1)'), 'boolean');
    assert.equal(valueKind('datetime(6)'), 'temporal');
    assert.equal(valueKind('date'), 'temporal');
    assert.equal(valueKind('varchar(255)'), 'text');
    assert.equal(valueKind('longblob'), 'binary');
    assert.equal(valueKind(''), 'text');
  });

  it('numbers sort as numbers, not as text', () => {
    const sorted = ['10', '9', '-3', '100', '0', '-20', '2.5'].sort(compareNumericText);
    assert.deepEqual(sorted, ['-20', '-3', '0', '2.5', '9', '10', '100']);
  });

  it('compares 64-bit integers and decimals exactly', () => {
    // These two differ only beyond float precision.
    assert.equal(compareNumericText('9007199254740993', '9007199254740992'), 1);
    assert.equal(compareNumericText('0.30000000000000001', '0.3'), 1);
    assert.equal(compareNumericText('1.50', '1.5'), 0);
    assert.equal(compareNumericText('-0', '0'), 0);
    assert.equal(compareNumericText('007', '7'), 0);
    assert.equal(compareNumericText('-1.25', '-1.2'), -1);
  });

  it('handles exponents and puts non-numbers after numbers', () => {
    assert.equal(compareNumericText('1e3', '999'), 1);
    assert.equal(compareNumericText('abc', '5'), 1);
    assert.equal(compareNumericText('5', 'abc'), -1);
  });

  it('NULL sorts first, then <binary>, then values', () => {
    const cmp = cellComparator('number');
    const cells: Cell[] = ['3', null, '<binary>', '1'];
    assert.deepEqual(cells.sort(cmp), [null, '<binary>', '1', '3']);
  });

  it('sortRowIndexes orders by several keys, stable, without touching the rows', () => {
    const rows: Cell[][] = [
      ['b', '10'],
      ['a', '9'],
      ['b', '9'],
      ['a', '10'],
      ['b', '10'],
    ];
    const before = JSON.stringify(rows);
    const order = sortRowIndexes(
      rows,
      [0, 1, 2, 3, 4],
      [
        { column: 0, direction: 'asc' },
        { column: 1, direction: 'desc' },
      ],
      ['text', 'number'],
    );
    assert.deepEqual(order, [3, 1, 0, 4, 2]);
    assert.equal(JSON.stringify(rows), before);
  });

  it('dates and datetimes sort chronologically', () => {
    const cmp = cellComparator('temporal');
    assert.ok(cmp('2026-01-02 00:00:00', '2025-12-31 23:59:59') > 0);
  });

  it('booleans: false before true', () => {
    const cmp = cellComparator('boolean');
    assert.deepEqual(['1', '0', 'true', 'false'].sort(cmp), ['0', 'false', '1', 'true']);
  });
});
