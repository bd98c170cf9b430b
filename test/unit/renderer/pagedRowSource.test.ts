import { strict as assert } from 'node:assert';
import { PagedRowSource } from '../../../src/renderer/pagedRowSource';
import type { Cell } from '../../../src/shared/wire';

const columns = [
  { name: 'id', type: 'bigint', is_primary_key: true },
  { name: 'label', type: 'text' },
];

/** A host holding `total` rows that answers when told to, so tests choose the order. */
class FakeHost {
  requests: { requestId: number; start: number; end: number }[] = [];
  constructor(readonly total: number) {}
  rows(start: number, end: number): Cell[][] {
    const out: Cell[][] = [];
    for (let i = start; i < Math.min(end, this.total); i++) out.push([String(i + 1), `row ${i + 1}`]);
    return out;
  }
}

function setup(total: number, knownTotal = true, pageSize = 100): { src: PagedRowSource; host: FakeHost; answerAll: () => void } {
  const host = new FakeHost(total);
  const src = new PagedRowSource({
    sourceId: 's',
    columns,
    pageSize,
    totalRows: knownTotal ? total : undefined,
    transport: { request: (requestId, start, end) => host.requests.push({ requestId, start, end }) },
  });
  const answerAll = (): void => {
    for (const r of host.requests.splice(0))
      src.receive({ type: 'page.result', sourceId: 's', requestId: r.requestId, start: r.start, rows: host.rows(r.start, r.end) });
  };
  return { src, host, answerAll };
}

describe('paged row source', () => {
  it('fetches the pages on screen and one each side, and holds only those', () => {
    const { src, host, answerAll } = setup(100_000);
    src.showing(0, 30);
    assert.deepEqual(
      host.requests.map((r) => [r.start, r.end]),
      [
        [0, 100],
        [100, 200],
      ],
    );
    answerAll();
    assert.equal(src.rowState(5), 'ready');
    assert.equal(src.cell(5, 1), 'row 6');
    assert.equal(src.rowState(250), 'pending');
    // Jump to the end: nothing in between is fetched, the first pages are let go.
    src.showing(99_970, 99_999);
    assert.deepEqual(
      host.requests.map((r) => [r.start, r.end]),
      [
        [99_900, 100_000],
        [99_800, 99_900],
      ],
    );
    answerAll();
    assert.equal(src.residentPages, 2);
    assert.equal(src.cell(99_999, 0), '100000');
    assert.equal(src.rowState(5), 'pending', 'the first page was let go');
  });

  it('tells its listeners which rows each page brought (what the grid widens its columns for), and nothing for a failure', () => {
    const { src, host, answerAll } = setup(250);
    const told: unknown[] = [];
    src.subscribe((arrived) => told.push(arrived));
    src.showing(150, 160);
    answerAll();
    assert.deepEqual(told, [
      { start: 100, end: 200 },
      { start: 200, end: 250 },
      { start: 0, end: 100 },
    ]);
    told.length = 0;
    src.receive({ type: 'page.reset', sourceId: 's', totalRows: 250, sort: [], filters: [] });
    src.showing(0, 10);
    const [first] = host.requests.splice(0);
    src.receive({ type: 'page.error', sourceId: 's', requestId: first!.requestId, start: 0, end: 100, message: '503' });
    assert.deepEqual(told, [undefined, undefined]);
  });

  it('drops an answer for a page that scrolled away, and answers from before a reset', () => {
    const { src, host } = setup(10_000);
    src.showing(0, 10);
    const early = host.requests.splice(0);
    src.showing(5000, 5010);
    // The first pages' answers arrive late: they are not kept.
    for (const r of early)
      src.receive({ type: 'page.result', sourceId: 's', requestId: r.requestId, start: r.start, rows: [['x', 'stale']] });
    assert.equal(src.rowState(0), 'pending');
    assert.ok(src.residentPages <= 3);
    const before = host.requests.splice(0);
    src.receive({ type: 'page.reset', sourceId: 's', totalRows: 40, sort: [{ column: 'label', direction: 'desc' }], filters: [] });
    for (const r of before)
      src.receive({ type: 'page.result', sourceId: 's', requestId: r.requestId, start: r.start, rows: [['x', 'old sort']] });
    assert.equal(src.rowCount, 40);
    assert.equal(src.residentPages, 0);
    // Another source's messages are not this one's.
    assert.equal(src.receive({ type: 'page.total', sourceId: 'other', totalRows: 7 }), false);
    assert.equal(src.rowCount, 40);
  });

  it('a failed page keeps its error on its rows, others stay loaded, Retry reads it again', () => {
    const { src, host, answerAll } = setup(1000);
    src.showing(150, 180);
    // The page on screen first, then the margin after it, then before it.
    const [p1, p2, p0] = [host.requests[0]!, host.requests[1]!, host.requests[2]!];
    assert.deepEqual([p1.start, p2.start, p0.start], [100, 200, 0]);
    host.requests = [p0, p2];
    answerAll();
    src.receive({ type: 'page.error', sourceId: 's', requestId: p1.requestId, start: 100, end: 200, message: 'server error 503' });
    assert.equal(src.rowState(150), 'failed');
    assert.equal(src.failure(150), 'server error 503');
    assert.equal(src.cell(50, 1), 'row 51');
    assert.equal(src.cell(250, 1), 'row 251');
    // Scrolling does not hammer a failed page; Retry does read it.
    src.showing(150, 181);
    assert.equal(host.requests.length, 0);
    src.retry(160);
    assert.deepEqual(
      host.requests.map((r) => r.start),
      [100],
    );
    answerAll();
    assert.equal(src.cell(150, 1), 'row 151');
  });

  it('with no known total, rows grow as pages come and a short page ends the source', () => {
    const { src, host, answerAll } = setup(250, false);
    assert.equal(src.totalKnown, false);
    assert.equal(src.rowCount, 100);
    src.showing(0, 20);
    answerAll();
    assert.equal(src.rowCount, 200, 'one full page seen, one more page of placeholders');
    src.showing(150, 199);
    answerAll();
    assert.equal(src.rowCount, 300);
    src.showing(250, 299);
    answerAll();
    assert.equal(src.totalKnown, true);
    assert.equal(src.rowCount, 250);
    assert.equal(src.cell(249, 0), '250');
    assert.equal(host.requests.length, 0);
    src.receive({ type: 'page.total', sourceId: 's', totalRows: 250 });
    assert.equal(src.rowCount, 250);
  });

  it('keeps diff kinds and old values per row', () => {
    const { src, host } = setup(3);
    src.showing(0, 2);
    const r = host.requests[0]!;
    src.receive({
      type: 'page.result',
      sourceId: 's',
      requestId: r.requestId,
      start: 0,
      rows: [
        ['1', 'new'],
        ['2', 'added'],
        ['3', 'gone'],
      ],
      kinds: ['modified', 'added', 'removed'],
      old: [['1', 'old'], null, null],
    });
    assert.deepEqual([src.rowKind(0), src.rowKind(1), src.rowKind(2)], ['modified', 'added', 'removed']);
    assert.equal(src.oldCell(0, 1), 'old');
    assert.equal(src.oldCell(1, 1), undefined);
  });
});
