import { strict as assert } from 'node:assert';
import {
  ReviewResultError,
  bothComplete,
  completenessOf,
  countAt,
  doltTimeToMillis,
  findColumn,
  flagAt,
} from '../../../../src/core/review/resultReader';
import { result } from './reviewTestKit';

describe('reading review query results', () => {
  it('success is complete; row_limit and timeout are partial with their reason; anything else is an error', () => {
    assert.deepEqual(completenessOf(result(['a'], [])), { complete: true });
    assert.deepEqual(completenessOf(result(['a'], [['1']], 'row_limit', 'row limit 1000 reached')), {
      complete: false,
      reason: 'row_limit',
      message: 'row limit 1000 reached',
    });
    assert.deepEqual(completenessOf(result(['a'], [], 'timeout')), { complete: false, reason: 'timeout' });
    for (const status of ['error', 'not_workspace', 'mystery']) {
      assert.throws(
        () => completenessOf(result(['a'], [], status, status === 'error' ? 'table not found: x' : undefined)),
        (e: unknown) => e instanceof ReviewResultError && e.status === status,
      );
    }
    assert.throws(() => completenessOf(result(['a'], [], 'error', 'table not found: x')), /table not found: x/);
    assert.deepEqual(bothComplete({ complete: true }, { complete: false, reason: 'timeout' }), { complete: false, reason: 'timeout' });
    assert.deepEqual(bothComplete({ complete: false, reason: 'row_limit' }, { complete: false, reason: 'timeout' }), {
      complete: false,
      reason: 'row_limit',
    });
  });

  it('columns by exact name first, then ignoring case', () => {
    const r = {
      columns: [
        { name: 'Field', type: 't' },
        { name: 'field', type: 't' },
        { name: 'Key', type: 't' },
      ],
      rows: [],
      status: 'success' as const,
    };
    assert.equal(findColumn(r, 'field'), 1);
    assert.equal(findColumn(r, 'KEY'), 2);
    assert.equal(findColumn(r, 'nope'), -1);
  });

  it('counts and flags as the SQL endpoint sends them', () => {
    assert.equal(countAt(['9007199254740991'], 0, 'n'), 9007199254740991);
    assert.equal(countAt([null], 0, 'n'), null);
    assert.throws(() => countAt(['9007199254740993'], 0, 'n'), /not a count/);
    assert.throws(() => countAt(['1.5'], 0, 'n'), /not a count/);
    assert.equal(flagAt(['1'], 0, 'f'), true);
    assert.equal(flagAt(['TRUE'], 0, 'f'), true);
    assert.equal(flagAt(['0'], 0, 'f'), false);
    assert.throws(() => flagAt([null], 0, 'f'), /not a boolean/);
  });

  it('Dolt datetimes, UTC unless they say otherwise', () => {
    assert.equal(doltTimeToMillis('2026-01-05 12:00:00'), Date.UTC(2026, 0, 5, 12));
    assert.equal(doltTimeToMillis('2019-06-07 00:22:24.856'), Date.UTC(2019, 5, 7, 0, 22, 24, 856));
    assert.equal(doltTimeToMillis('2019-06-07 00:22:24.856123'), Date.UTC(2019, 5, 7, 0, 22, 24, 856));
    assert.equal(doltTimeToMillis('2022-03-23 18:57:38.476 +0000 UTC'), Date.UTC(2022, 2, 23, 18, 57, 38, 476));
    assert.equal(doltTimeToMillis('2026-01-05T12:00:00+02:00'), Date.UTC(2026, 0, 5, 10));
    assert.equal(doltTimeToMillis('2026-01-05T12:00:00Z'), Date.UTC(2026, 0, 5, 12));
    assert.equal(doltTimeToMillis('yesterday'), undefined);
    assert.equal(doltTimeToMillis(null), undefined);
  });
});
