import { strict as assert } from 'node:assert';
import { PageServer, type PageSource, type PageView } from '../../../../src/core/paging/pageServer';
import type { HostPagingMessage } from '../../../../src/shared/gridPaging';

/** A source whose reads wait until the test releases them, over rows 0..n-1 ("r0", "r1" ...). */
class GatedSource implements PageSource {
  readonly reads: { start: number; end: number; view: PageView; signal: AbortSignal; release: (fail?: Error) => void }[] = [];
  disposed = false;
  dispose(): void {
    this.disposed = true;
  }
  constructor(
    private readonly n: number,
    private readonly total?: number,
  ) {}
  read(start: number, end: number, view: PageView, signal: AbortSignal) {
    return new Promise<{ rows: (string | null)[][] }>((resolve, reject) => {
      this.reads.push({
        start,
        end,
        view,
        signal,
        release: (fail) => {
          if (fail) reject(fail);
          else {
            const rows: (string | null)[][] = [];
            for (let i = start; i < Math.min(end, this.n); i++) rows.push([`r${i}`, view.filters.length ? 'filtered' : null]);
            resolve({ rows });
          }
        },
      });
    });
  }
  async count(): Promise<number | undefined> {
    return this.total;
  }
}

const tick = () => new Promise((r) => setImmediate(r));

function serverOver(source: PageSource, concurrency = 2) {
  const posted: HostPagingMessage[] = [];
  const server = new PageServer({ sourceId: 's1', source, post: (m) => posted.push(m), concurrency });
  return { server, posted };
}

const request = (requestId: number, start: number, end: number) => ({
  type: 'page.request' as const,
  sourceId: 's1',
  requestId,
  start,
  end,
});

describe('PageServer (the host side of a paged grid)', () => {
  it('reads at most `concurrency` pages at once, the others in the order asked', async () => {
    const src = new GatedSource(10_000);
    const { server, posted } = serverOver(src, 2);
    for (let i = 0; i < 5; i++) assert.equal(server.handle(request(i + 1, i * 100, i * 100 + 100)), true);
    assert.deepEqual(
      src.reads.map((r) => r.start),
      [0, 100],
    );
    src.reads[0]!.release();
    await tick();
    // The slot goes to the oldest waiting request: the grid asks for the page on screen first,
    // then the pages ahead of it, and cancels what it no longer wants.
    assert.deepEqual(
      src.reads.map((r) => r.start),
      [0, 100, 200],
    );
    server.handle({ type: 'page.cancel', sourceId: 's1', requestId: 4 });
    src.reads[1]!.release();
    await tick();
    assert.deepEqual(
      src.reads.map((r) => r.start),
      [0, 100, 200, 400],
      'a cancelled waiting request is skipped',
    );
    const result = posted.find((m) => m.type === 'page.result');
    assert.ok(result && result.type === 'page.result');
    assert.equal(result.requestId, 1);
    assert.equal(result.rows.length, 100);
    assert.equal(result.rows[0]![0], 'r0');
    assert.equal(result.end, undefined);
  });

  it('drops a waiting request the grid cancelled and aborts a running one', async () => {
    const src = new GatedSource(10_000);
    const { server, posted } = serverOver(src, 1);
    server.handle(request(1, 0, 100));
    server.handle(request(2, 100, 200));
    server.handle({ type: 'page.cancel', sourceId: 's1', requestId: 2 });
    server.handle({ type: 'page.cancel', sourceId: 's1', requestId: 1 });
    assert.equal(src.reads[0]!.signal.aborted, true);
    src.reads[0]!.release();
    await tick();
    assert.equal(src.reads.length, 1, 'the cancelled waiting request is never read');
    assert.deepEqual(posted, [], 'nothing is posted for cancelled pages');
  });

  it('marks the last page with end when the source runs out', async () => {
    const src = new GatedSource(150);
    const { server, posted } = serverOver(src);
    server.handle(request(1, 100, 200));
    src.reads[0]!.release();
    await tick();
    const m = posted[0];
    assert.ok(m && m.type === 'page.result');
    assert.equal(m.rows.length, 50);
    assert.equal(m.end, true);
  });

  it('answers a failed read with page.error on its rows and goes on with the others', async () => {
    const src = new GatedSource(1000);
    const { server, posted } = serverOver(src);
    server.handle(request(1, 0, 100));
    server.handle(request(2, 100, 200));
    src.reads[0]!.release(new Error('server said no'));
    src.reads[1]!.release();
    await tick();
    const err = posted.find((m) => m.type === 'page.error');
    assert.deepEqual(err, { type: 'page.error', sourceId: 's1', requestId: 1, start: 0, end: 100, message: 'server said no' });
    assert.ok(posted.some((m) => m.type === 'page.result' && m.requestId === 2));
  });

  it('on a sort or filter change aborts what is in flight, resets, recounts, and never posts a stale page', async () => {
    const src = new GatedSource(1000, 1000);
    const { server, posted } = serverOver(src);
    server.start();
    server.handle(request(9, 0, 100));
    src.reads[0]!.release();
    await tick();
    assert.deepEqual(
      posted.splice(0).map((m) => m.type),
      ['page.result', 'page.total'],
    );
    src.reads.length = 0;
    server.handle(request(1, 0, 100));
    server.handle(request(2, 100, 200));
    server.handle(request(3, 200, 300));
    server.handle({
      type: 'view.change',
      sourceId: 's1',
      sort: [{ column: 'a', direction: 'desc' }],
      filters: [{ column: 'b', op: 'contains', value: "it's" }],
    });
    assert.ok(src.reads.every((r) => r.signal.aborted));
    src.reads[0]!.release();
    await tick();
    assert.deepEqual(
      posted.map((m) => m.type),
      ['page.reset'],
      'the new view is counted once its first page is answered',
    );
    const reset = posted[0];
    assert.ok(reset && reset.type === 'page.reset');
    assert.deepEqual(reset.sort, [{ column: 'a', direction: 'desc' }]);
    assert.equal(reset.message, undefined);
    // The waiting request from before the change is never read; a new one is read in the new view.
    assert.equal(src.reads.length, 2);
    server.handle(request(4, 0, 100));
    assert.equal(src.reads[2]!.view.filters[0]?.column, 'b');
    src.reads[2]!.release();
    await tick();
    assert.deepEqual(
      posted.map((m) => m.type),
      ['page.reset', 'page.result', 'page.total'],
    );
    const page = posted[1];
    assert.ok(page && page.type === 'page.result');
    assert.equal(page.requestId, 4);
    assert.equal(page.rows[0]![1], 'filtered');
  });

  it('counts only after the first page is answered: a count that never answers holds no first page', async () => {
    // One query at a time, as the hub runs a user's queries: whatever is sent first runs first.
    const order: string[] = [];
    let queue: Promise<unknown> = Promise.resolve();
    const serial = <T>(what: string, f: () => Promise<T>): Promise<T> => {
      const p = queue.then(() => (order.push(what), f()));
      queue = p.catch(() => undefined);
      return p;
    };
    const src: PageSource = {
      read: (start) => serial(`read ${start}`, async () => ({ rows: [[`r${start}`]] })),
      count: () => serial('count', () => new Promise<number>(() => undefined)),
    };
    const { server, posted } = serverOver(src);
    server.start();
    await tick();
    assert.deepEqual(order, [], 'nothing is counted before the grid asks for a page');
    server.handle(request(1, 0, 100));
    await tick();
    await tick();
    assert.deepEqual(order, ['read 0', 'count']);
    assert.deepEqual(
      posted.map((m) => m.type),
      ['page.result'],
    );
  });

  it('counts after a first page that failed too', async () => {
    const src = new GatedSource(1000, 1000);
    const { server, posted } = serverOver(src);
    server.start();
    server.handle(request(1, 0, 100));
    src.reads[0]!.release(new Error('busy'));
    await tick();
    assert.deepEqual(
      posted.map((m) => m.type),
      ['page.error', 'page.total'],
    );
  });

  it('keeps the view in force when the source refuses a change, and says why', () => {
    const src: PageSource = {
      read: async () => ({ rows: [] }),
      checkView: (v) => (v.sort.some((s) => s.column === 'nope') ? 'There is no column nope.' : undefined),
    };
    const posted: HostPagingMessage[] = [];
    const server = new PageServer({
      sourceId: 's1',
      source: src,
      post: (m) => posted.push(m),
      view: { sort: [{ column: 'id', direction: 'asc' }], filters: [] },
    });
    server.handle({ type: 'view.change', sourceId: 's1', sort: [{ column: 'nope', direction: 'asc' }], filters: [] });
    assert.deepEqual(posted, [
      { type: 'page.reset', sourceId: 's1', sort: [{ column: 'id', direction: 'asc' }], filters: [], message: 'There is no column nope.' },
    ]);
    assert.deepEqual(server.view.sort, [{ column: 'id', direction: 'asc' }]);
  });

  it('leaves messages for another source or of other kinds to its owner', () => {
    const { server } = serverOver(new GatedSource(10));
    assert.equal(server.handle({ ...request(1, 0, 10), sourceId: 'other' }), false);
    assert.equal(server.handle({ type: 'export.stream', sourceId: 's1', format: 'csv' }), false);
    assert.equal(server.handle({ type: 'refresh', sourceId: 's1' }), false);
  });

  it("posts nothing after dispose, and stops the source's own background reads", async () => {
    const src = new GatedSource(100, 100);
    const { server, posted } = serverOver(src);
    server.handle(request(1, 0, 10));
    server.dispose();
    src.reads[0]!.release();
    await tick();
    assert.deepEqual(posted, []);
    assert.equal(server.handle(request(2, 0, 10)), false);
    assert.equal(src.disposed, true);
  });
});
