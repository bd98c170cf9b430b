import { strict as assert } from 'node:assert';
import { scrollerViewport } from '../../../src/renderer/scrollerViewport';

/**
 * A scrolling element as far as the viewport touches it: offsets that count their reads, and a
 * `dirty` flag a listener sets the way the grid's render writes the DOM. A read while dirty is
 * what makes a browser lay the page out again in the middle of a scroll event.
 */
class FakeScroller extends EventTarget {
  top = 0;
  left = 0;
  dirty = false;
  reads = 0;
  readsWhileDirty = 0;
  readonly ownerDocument = { defaultView: null };
  readonly clientWidth = 800;
  readonly clientHeight = 400;
  private read(v: number): number {
    this.reads++;
    if (this.dirty) this.readsWhileDirty++;
    return v;
  }
  get scrollTop(): number {
    return this.read(this.top);
  }
  set scrollTop(v: number) {
    this.top = v;
  }
  get scrollLeft(): number {
    return this.read(this.left);
  }
  set scrollLeft(v: number) {
    this.left = v;
  }
  scroll(top: number, left: number): void {
    this.top = top;
    this.left = left;
    this.dispatchEvent(new Event('scroll'));
  }
}

type Scroller = Parameters<typeof scrollerViewport>[0];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('scroller viewport (the grid scroller as both windows see it)', () => {
  it('reads both offsets once per scroll event, before any listener can write the DOM', () => {
    const s = new FakeScroller();
    const vp = scrollerViewport(s as unknown as Scroller);
    const seen: string[] = [];
    // The rows' listener "renders" at once, as the grid's microtask does after a listener returns.
    const offRows = vp.observeOffset(false, (o, scrolling) => {
      seen.push(`rows ${o} ${scrolling}`);
      s.dirty = true;
    });
    const offCols = vp.observeOffset(true, (o, scrolling) => seen.push(`cols ${o} ${scrolling}`));
    assert.deepEqual(seen, ['rows 0 false', 'cols 0 false']);
    s.dirty = false;
    s.reads = 0;
    s.readsWhileDirty = 0;
    seen.length = 0;
    for (let i = 1; i <= 5; i++) {
      s.dirty = false;
      s.scroll(22 * i, 7 * i);
    }
    assert.equal(s.reads, 10, 'two reads per event, not one per listener and axis');
    assert.equal(s.readsWhileDirty, 0, 'no offset is read after a listener wrote');
    assert.deepEqual(seen.slice(-2), ['rows 110 true', 'cols 35 true']);
    offRows();
    offCols();
  });

  it('reports once more when scrolling stops, and nothing after every listener left', async () => {
    const s = new FakeScroller();
    const vp = scrollerViewport(s as unknown as Scroller);
    const rows: string[] = [];
    const off = vp.observeOffset(false, (o, scrolling) => rows.push(`${o} ${scrolling}`));
    s.scroll(44, 0);
    s.scroll(66, 0);
    await sleep(200);
    assert.deepEqual(rows, ['0 false', '44 true', '66 true', '66 false']);
    off();
    s.scroll(88, 0);
    await sleep(200);
    assert.equal(rows.length, 4, 'an unsubscribed listener hears nothing');
  });

  it('one listener leaving keeps the other axis informed', () => {
    const s = new FakeScroller();
    const vp = scrollerViewport(s as unknown as Scroller);
    const cols: number[] = [];
    const offRows = vp.observeOffset(false, () => undefined);
    const offCols = vp.observeOffset(true, (o) => cols.push(o));
    offRows();
    s.scroll(0, 120);
    assert.deepEqual(cols, [0, 120]);
    offCols();
  });
});
