import { strict as assert } from 'node:assert';
import { isPagedOutput, parseGridPagingMessage } from '../../../src/shared/gridPaging';
import { statusBanner } from '../../../src/shared/queryResultOutput';

describe('paged grid protocol', () => {
  it('accepts well-formed messages from the grid and keeps only their known fields', () => {
    assert.deepEqual(parseGridPagingMessage({ type: 'page.request', sourceId: 's', requestId: 3, start: 500, end: 1000, extra: 'x' }), {
      type: 'page.request',
      sourceId: 's',
      requestId: 3,
      start: 500,
      end: 1000,
    });
    assert.deepEqual(
      parseGridPagingMessage({
        type: 'view.change',
        sourceId: 's',
        sort: [{ column: 'a`b', direction: 'desc' }],
        filters: [
          { column: 'n', op: 'range', min: '1' },
          { column: 'x', op: 'contains', value: "'%" },
        ],
      }),
      {
        type: 'view.change',
        sourceId: 's',
        sort: [{ column: 'a`b', direction: 'desc' }],
        filters: [
          { column: 'n', op: 'range', min: '1' },
          { column: 'x', op: 'contains', value: "'%" },
        ],
      },
    );
    assert.deepEqual(parseGridPagingMessage({ type: 'export.stream', sourceId: 's', format: 'jsonl' }), {
      type: 'export.stream',
      sourceId: 's',
      format: 'jsonl',
    });
    assert.deepEqual(parseGridPagingMessage({ type: 'loadAll' }), { type: 'loadAll' });
    assert.deepEqual(parseGridPagingMessage({ type: 'loadAll', key: 'k-1', outputId: 'o' }), { type: 'loadAll', key: 'k-1' });
    assert.deepEqual(parseGridPagingMessage({ type: 'paged.closed', sourceId: 's', outputId: 'o' }), {
      type: 'paged.closed',
      sourceId: 's',
    });
  });

  it('refuses malformed ones', () => {
    for (const bad of [
      null,
      'page.request',
      { type: 'page.request', sourceId: 's', requestId: 1, start: 10, end: 5 },
      { type: 'page.request', sourceId: 's', requestId: 1, start: 0, end: 1_000_000 },
      { type: 'page.request', sourceId: 's', requestId: -1, start: 0, end: 5 },
      { type: 'page.request', sourceId: 's', requestId: 1, start: 0.5, end: 5 },
      { type: 'view.change', sourceId: 's', sort: [{ column: 'a', direction: 'sideways' }], filters: [] },
      { type: 'view.change', sourceId: 's', sort: [], filters: [{ column: 'a', op: 'like', value: '%' }] },
      { type: 'view.change', sourceId: 's', sort: [], filters: [{ column: 'a', op: 'range' }] },
      { type: 'view.change', sourceId: 's', sort: [], filters: [{ column: 1, op: 'isNull' }] },
      { type: 'export.stream', sourceId: 's', format: 'xlsx' },
      { type: 'loadAll', key: 42 },
      { type: 'loadAll', key: 'k'.repeat(101) },
      { type: 'paged.closed' },
      { type: 'drop.table' },
    ]) {
      assert.equal(parseGridPagingMessage(bad), undefined, JSON.stringify(bad));
    }
  });

  it('recognises a paged output', () => {
    const ok = {
      v: 1,
      kind: 'paged',
      sourceId: 's',
      columns: [],
      target: { hostId: 'h', owner: 'o', name: 'n', ref: 'main' },
      commit: 'c',
      pageSize: 500,
    };
    assert.equal(isPagedOutput(ok), true);
    assert.equal(isPagedOutput({ ...ok, pageSize: 0 }), false);
    assert.equal(isPagedOutput({ ...ok, kind: undefined }), false);
  });

  it('the row_limit banner names the limit that applied: the setting, or the server cap below it', () => {
    const rows = (n: number): never[][] => Array.from({ length: n }, () => []);
    const setting = statusBanner({ status: 'row_limit', rows: rows(5) }, 5);
    assert.match(setting?.advice ?? '', /more rows than the limit of 5 \("versionedDb\.sql\.rowLimit"\)/);
    const cap = statusBanner({ status: 'row_limit', rows: rows(10_000) }, 60_000);
    assert.match(cap?.advice ?? '', /The server stops every result at 10,000 rows \(its cap\), below your limit of 60,000/);
  });
});
