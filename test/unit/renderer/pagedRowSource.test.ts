import { strict as assert } from 'node:assert';
import { PagedRowSource } from '../../../src/renderer/pagedRowSource';
import { pagedSourceFor } from '../../../src/renderer/pagedGridSource';
import type { GridPagingMessage } from '../../../src/shared/gridPaging';
import type { Cell } from '../../../src/shared/wire';

const columns = [
  { name: 'id', type: 'bigint', is_primary_key: true },
  { name: 'label', type: 'text' },
];

/** A host holding `total` rows that answers when told to, so tests choose the order. */
class FakeHost {
  requests: { requestId: number; start: number; end: number }[] = [];
  /** Every request ever made, and every cancel, in order. */
  asked: { requestId: number; start: number; end: number }[] = [];
  cancelled: number[] = [];
  constructor(readonly total: number) {}
  rows(start: number, end: number): Cell[][] {
    const out: Cell[][] = [];
    for (let i = start; i < Math.min(end, this.total); i++) out.push([String(i + 1), `row ${i + 1}`]);
    return out;
  }
}

function setup(
  total: number,
  knownTotal = true,
  pageSize = 100,
): { src: PagedRowSource; host: FakeHost; answer: (r: { requestId: number; start: number; end: number }) => void; answerAll: () => void } {
  const host = new FakeHost(total);
  const src = new PagedRowSource({
    sourceId: 's',
    columns,
    pageSize,
    totalRows: knownTotal ? total : undefined,
    transport: {
      request: (requestId, start, end) => {
        host.requests.push({ requestId, start, end });
        host.asked.push({ requestId, start, end });
      },
      cancel: (requestId) => {
        host.cancelled.push(requestId);
        host.requests = host.requests.filter((r) => r.requestId !== requestId);
      },
    },
  });
  const answer = (r: { requestId: number; start: number; end: number }): void => {
    host.requests = host.requests.filter((q) => q.requestId !== r.requestId);
    src.receive({ type: 'page.result', sourceId: 's', requestId: r.requestId, start: r.start, rows: host.rows(r.start, r.end) });
  };
  // Answers what is asked for, and what that asks for next, until nothing is out.
  const answerAll = (): void => {
    while (host.requests.length > 0) answer(host.requests[0]!);
  };
  return { src, host, answer, answerAll };
}

const spans = (rs: readonly { start: number; end: number }[]): number[][] => rs.map((r) => [r.start, r.end]);

describe('paged row source', () => {
  it('asks for the page on screen, then two ahead and one behind, two at a time, and holds only those', () => {
    const { src, host, answerAll } = setup(100_000);
    src.showing(0, 30);
    assert.deepEqual(spans(host.requests), [
      [0, 100],
      [100, 200],
    ]);
    answerAll();
    assert.deepEqual(spans(host.asked), [
      [0, 100],
      [100, 200],
      [200, 300],
    ]);
    assert.equal(src.rowState(5), 'ready');
    assert.equal(src.cell(5, 1), 'row 6');
    assert.equal(src.cell(250, 1), 'row 251', 'the second page ahead is held');
    assert.equal(src.rowState(350), 'pending', 'and no further');
    // Jump to the end: nothing in between is fetched, the first pages are let go.
    host.asked.length = 0;
    src.showing(99_970, 99_999);
    assert.deepEqual(spans(host.requests), [
      [99_900, 100_000],
      [99_800, 99_900],
    ]);
    answerAll();
    assert.equal(src.residentPages, 2);
    assert.equal(src.cell(99_999, 0), '100000');
    assert.equal(src.rowState(5), 'pending', 'the first page was let go');
  });

  it('scrolled a page at a time against a host that reads one page per step, each page is asked for once, ahead of the screen', () => {
    const total = 20_000;
    const { src, host, answer } = setup(total, true, 500);
    let waitedFor = 0;
    for (let top = 0; top < total; top += 500) {
      const askedBefore = new Set(host.asked.map((r) => r.start));
      src.showing(top, top + 29);
      if (top > 0) assert.ok(askedBefore.has(top), `the page at row ${top} was asked for before the screen got there`);
      assert.ok(src.pendingPages <= 2, `${src.pendingPages} requests out at row ${top}`);
      // On screen (a screen inside one page) and at most two on each side.
      assert.ok(src.residentPages <= 5, `${src.residentPages} pages held at row ${top}`);
      // The host reads one page in the time the grid takes a step: the oldest request.
      if (host.requests[0]) answer(host.requests[0]);
      if (src.rowState(top + 29) !== 'ready') waitedFor++;
    }
    assert.deepEqual(
      host.asked.map((r) => r.start),
      Array.from({ length: total / 500 }, (_, i) => i * 500),
      'every page once, in order',
    );
    assert.deepEqual(host.cancelled, []);
    assert.equal(waitedFor, 0, 'no step waits for a page the host could have read during the step before');
  });

  it('as the grids wire it: four pages ahead, three asked for at once, each page once with no wait', () => {
    const total = 20_000;
    const out: Extract<GridPagingMessage, { type: 'page.request' }>[] = [];
    const asked: number[] = [];
    const src = pagedSourceFor(
      {
        v: 1,
        kind: 'paged',
        sourceId: 's',
        columns,
        target: { hostId: 'h', owner: 'o', name: 'n', ref: 'main' },
        commit: 'c',
        title: 't',
        pageSize: 500,
        totalRows: total,
        serverSort: false,
        serverFilter: false,
      },
      (m) => {
        if (m.type === 'page.request') {
          out.push(m);
          asked.push(m.start);
        } else if (m.type === 'page.cancel') assert.fail(`page ${m.requestId} cancelled`);
      },
    );
    const host = new FakeHost(total);
    const answerOldest = (): void => {
      const r = out.shift();
      if (r) src.receive({ type: 'page.result', sourceId: 's', requestId: r.requestId, start: r.start, rows: host.rows(r.start, r.end) });
    };
    src.showing(0, 29);
    assert.deepEqual(asked, [0, 500, 1000], 'the screen, then the next two: three out');
    for (let i = 0; i < 3; i++) answerOldest();
    assert.deepEqual(asked, [0, 500, 1000, 1500, 2000], 'and on to four pages ahead of the screen, no further');
    for (let top = 0; top < total; top += 500) {
      src.showing(top, top + 29);
      assert.ok(src.pendingPages <= 3, `${src.pendingPages} requests out at row ${top}`);
      assert.ok(src.residentPages <= 9, `${src.residentPages} pages held at row ${top}`);
      // The host reads one page in the time the grid takes a step: the oldest request.
      answerOldest();
      assert.equal(src.rowState(top + 29), 'ready', `row ${top + 29} drawn without waiting`);
    }
    assert.deepEqual(
      asked,
      Array.from({ length: total / 500 }, (_, i) => i * 500),
      'every page once, in order',
    );
  });

  it('scrolling back a little and on again does not ask again for the pages below: what was loaded stays within two pages of the screen', () => {
    const { src, host, answerAll } = setup(100_000);
    for (const top of [0, 100, 200, 300]) {
      src.showing(top, top + 30);
      answerAll();
    }
    assert.deepEqual(
      host.asked.map((r) => r.start),
      [0, 100, 200, 300, 400, 500],
    );
    // Up a few rows (reading ahead upwards now: the pages above are held), then down again.
    src.showing(290, 320);
    answerAll();
    src.showing(310, 340);
    answerAll();
    src.showing(400, 430);
    answerAll();
    assert.deepEqual(
      host.asked.map((r) => r.start),
      // Page 0, let go three pages back, is read ahead upwards; pages 4 and 5 are not asked for again.
      [0, 100, 200, 300, 400, 500, 0, 600],
      'only the pages newly two ahead',
    );
    assert.deepEqual(
      src.loadedSpans().map((r) => r.start),
      [200, 300, 400, 500, 600],
    );
    assert.deepEqual(host.cancelled, []);
    assert.ok(src.residentPages <= 5);
  });

  it('asks for the next page when one arrives, before its listeners draw it', () => {
    const { src, host, answer } = setup(10_000);
    const outWhenTold: number[][][] = [];
    src.subscribe(() => outWhenTold.push(spans(host.requests)));
    src.showing(0, 30);
    answer(host.requests[0]!);
    assert.deepEqual(outWhenTold, [
      [
        [100, 200],
        [200, 300],
      ],
    ]);
  });

  it('a jump cancels the pages still asked for ahead, drops their late answers, and asks for the new place first', () => {
    const { src, host } = setup(100_000);
    src.showing(0, 30);
    const early = host.requests.slice();
    src.showing(50_000, 50_030);
    assert.deepEqual(
      host.cancelled,
      early.map((r) => r.requestId),
    );
    assert.deepEqual(spans(host.requests), [
      [50_000, 50_100],
      [50_100, 50_200],
    ]);
    for (const r of early)
      src.receive({ type: 'page.result', sourceId: 's', requestId: r.requestId, start: r.start, rows: host.rows(r.start, r.end) });
    assert.equal(src.rowState(0), 'pending', 'a late answer is not kept');
    assert.equal(src.residentPages, 2);
    assert.deepEqual(
      spans(host.requests),
      [
        [50_000, 50_100],
        [50_100, 50_200],
      ],
      'a late answer asks for nothing more',
    );
  });

  it('scrolling up reads ahead upwards and keeps one page below', () => {
    const { src, host, answerAll } = setup(10_000);
    src.showing(9_970, 9_999);
    answerAll();
    host.asked.length = 0;
    for (const top of [9_870, 9_770, 9_670, 9_570]) {
      src.showing(top, top + 30);
      answerAll();
    }
    assert.deepEqual(
      host.asked.map((r) => r.start),
      [9_700, 9_600, 9_500, 9_400, 9_300],
      'each step reads on above the screen (two ahead), each page once',
    );
    assert.deepEqual(
      src.loadedSpans().map((r) => r.start),
      [9_300, 9_400, 9_500, 9_600, 9_700, 9_800],
      'pages more than two below the screen (rows 9,570-9,600, pages 95 and 96) were let go',
    );
  });

  it('after a jump reads one page on either side, not ahead, and reads ahead again once the user scrolls on', () => {
    const { src, host, answerAll } = setup(1_000_000);
    src.showing(0, 30);
    answerAll();
    host.asked.length = 0;
    src.showing(500_010, 500_040);
    answerAll();
    assert.deepEqual(
      host.asked.map((r) => r.start),
      [500_000, 500_100, 499_900],
      'a jump: its page, then one below and one above',
    );
    host.asked.length = 0;
    src.showing(500_040, 500_070);
    answerAll();
    assert.deepEqual(
      host.asked.map((r) => r.start),
      [500_200],
      'a scroll down from there reads two pages ahead',
    );
  });

  it('a page that says the source ends there cancels the pages asked for after it', () => {
    const { src, host, answer } = setup(1000);
    src.showing(0, 30);
    answer(host.requests[0]!);
    // Pages 1 and 2 are out; page 1 says the rows end within it.
    const [p1, p2] = host.requests;
    assert.deepEqual([p1?.start, p2?.start], [100, 200]);
    host.requests = [p2!];
    src.receive({ type: 'page.result', sourceId: 's', requestId: p1!.requestId, start: 100, rows: host.rows(100, 150), end: true });
    assert.equal(src.rowCount, 150);
    assert.deepEqual(host.cancelled, [p2!.requestId], 'the page after the end is no longer asked for');
    assert.deepEqual(host.requests, []);
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
    assert.ok(src.residentPages <= 4);
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
    // The page on screen first, then the one after it (two out at once).
    const [p1, p2] = [host.requests[0]!, host.requests[1]!];
    assert.deepEqual([p1.start, p2.start], [100, 200]);
    src.receive({ type: 'page.error', sourceId: 's', requestId: p1.requestId, start: 100, end: 200, message: 'server error 503' });
    host.requests = host.requests.filter((r) => r !== p1);
    answerAll();
    // Then the second page ahead and the one behind.
    assert.deepEqual(
      host.asked.map((r) => r.start),
      [100, 200, 300, 0],
    );
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
    const { src, host, answer } = setup(250, false);
    assert.equal(src.totalKnown, false);
    assert.equal(src.rowCount, 100);
    src.showing(0, 20);
    assert.deepEqual(spans(host.requests), [[0, 100]], 'no row is known past the first page yet');
    answer(host.requests[0]!);
    assert.equal(src.rowCount, 200, 'one full page seen, one more page of placeholders');
    assert.deepEqual(spans(host.requests), [[100, 200]], 'the page after it is asked for ahead');
    answer(host.requests[0]!);
    assert.equal(src.rowCount, 300);
    answer(host.requests[0]!);
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
