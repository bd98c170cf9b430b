import { strict as assert } from 'node:assert';
import { AxisWindow } from '../../../src/renderer/gridWindow';
import { FakeViewport } from '../../helpers/fakeViewport';
import { RowWindow } from '../../../src/renderer/rowWindow';

describe('row window (fixed row height)', () => {
  it('renders the same rows as the library window at every offset and viewport height', () => {
    // The library's window (AxisWindow) is the reference: the grid drew its rows before.
    for (const height of [440, 37, 1000]) {
      for (const count of [0, 1, 7, 5_000]) {
        const a = new FakeViewport();
        const b = new FakeViewport();
        a.resize({ width: 800, height });
        b.resize({ width: 800, height });
        const opts = { count, overscan: 8, paddingStart: 26, onChange: () => undefined };
        const lib = new AxisWindow({ ...opts, horizontal: false, sizeOf: () => 22, scrollPaddingStart: 26, viewport: a });
        const mine = new RowWindow({ ...opts, size: 22, viewport: b });
        for (const y of [0, 1, 21, 22, 26, 47, 48, 5_000, 22 * 2_500 + 13, 22 * 5_000]) {
          a.scrollTo(false, y);
          b.scrollTo(false, y);
          const at = `count ${count}, height ${height}, offset ${y}`;
          assert.deepEqual(mine.range(), lib.range(), at);
          assert.deepEqual(mine.items(), lib.items(), at);
          assert.equal(mine.totalSize(), lib.totalSize(), at);
        }
      }
    }
  });

  it('a million rows cost no more than ten: no per-row state', () => {
    const vp = new FakeViewport();
    const w = new RowWindow({ count: 10, size: 22, overscan: 8, paddingStart: 26, viewport: vp, onChange: () => undefined });
    w.setCount(1_000_000);
    vp.scrollTo(false, 22 * 1_000_000); // past the end: the DOM would clamp it
    const r = w.range();
    // 440 px show 20 rows, 8 more above.
    assert.deepEqual(r, { first: 999_972, last: 999_999 });
    assert.equal(w.startOf(999_999), 26 + 999_999 * 22);
    assert.equal(w.totalSize(), 26 + 1_000_000 * 22);
  });

  it('tells the grid when the rendered range or the count changes, not on every scroll pixel', () => {
    const vp = new FakeViewport();
    let changes = 0;
    const w = new RowWindow({ count: 1000, size: 20, overscan: 2, viewport: vp, onChange: () => changes++ });
    vp.scrollTo(false, 5);
    const before = changes;
    vp.scrollTo(false, 6); // still rows 0..24
    assert.equal(changes, before);
    vp.scrollTo(false, 400);
    assert.equal(changes, before + 1);
    w.setCount(2000);
    assert.equal(changes, before + 2);
  });

  it('reveal scrolls the least distance, keeping a row clear of the sticky header', () => {
    const vp = new FakeViewport();
    const w = new RowWindow({ count: 1000, size: 20, overscan: 2, paddingStart: 30, viewport: vp, onChange: () => undefined });
    w.reveal(5);
    assert.equal(vp.offsets.y, 0);
    w.reveal(100);
    assert.equal(vp.offsets.y, 30 + 101 * 20 - 440);
    w.reveal(50);
    assert.equal(vp.offsets.y, 30 + 50 * 20 - 30);
  });

  it('a filter shrinking the count shrinks the window', () => {
    const vp = new FakeViewport();
    const w = new RowWindow({ count: 1000, size: 20, overscan: 2, viewport: vp, onChange: () => undefined });
    w.setCount(3);
    assert.deepEqual(w.range(), { first: 0, last: 2 });
    assert.equal(w.totalSize(), 60);
    w.setCount(0);
    assert.equal(w.range(), undefined);
  });

  it('a scroll that leaps past every rendered row draws the rows on screen alone, and the overscan once it settles', () => {
    const vp = new FakeViewport();
    let changes = 0;
    const w = new RowWindow({ count: 100_000, size: 20, overscan: 8, viewport: vp, onChange: () => changes++ });
    // 440 px show 22 rows.
    assert.deepEqual(w.range(), { first: 0, last: 29 });
    vp.scroll(false, 20 * 5); // a wheel step: rows 5..26 meet the rendered 0..29
    assert.deepEqual(w.range(), { first: 0, last: 34 });
    vp.scroll(false, 20 * 10_000); // a leap
    assert.deepEqual(w.range(), { first: 10_000, last: 10_021 });
    vp.scroll(false, 20 * 20_000); // another, from a window without overscan
    assert.deepEqual(w.range(), { first: 20_000, last: 20_021 });
    vp.scroll(false, 20 * 20_003); // a small step after a leap meets its rows: overscan again
    assert.deepEqual(w.range(), { first: 19_995, last: 20_032 });
    vp.scroll(false, 20 * 50_000);
    const before = changes;
    vp.settle();
    assert.deepEqual(w.range(), { first: 49_992, last: 50_029 }, 'settled: the overscan is drawn');
    assert.equal(changes, before + 1, 'the grid is told once');
  });

  it("a reveal (the keyboard's move) is never a leap, however far; a scroll after it may be", () => {
    const vp = new FakeViewport();
    // As the browser does: setting the offset reports nothing until the scroll event.
    vp.scrollTo = (h, offset) => {
      if (!h) vp.offsets.y = offset;
    };
    const w = new RowWindow({ count: 100_000, size: 20, overscan: 8, viewport: vp, onChange: () => undefined });
    w.reveal(99_999);
    vp.scroll(false, vp.offsets.y); // its scroll event
    assert.equal(w.leaping, false);
    assert.deepEqual(w.range(), { first: 99_970, last: 99_999 }, 'the overscan is drawn: the rows are elements at once');
    vp.scroll(false, 0); // a scrollbar drag to the top
    assert.equal(w.leaping, true);
    assert.deepEqual(w.range(), { first: 0, last: 21 });
    // A reveal the browser sends no scroll for (it did not move): the next drag is a leap all the same.
    w.reveal(50_000);
    vp.scroll(false, 20 * 80_000);
    assert.equal(w.leaping, true, 'a drag elsewhere after a reveal that did not scroll');
  });
});
