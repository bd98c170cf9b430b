import { strict as assert } from 'node:assert';
import { AxisWindow } from '../../../src/renderer/gridWindow';
import { FakeViewport } from '../../helpers/fakeViewport';

describe('virtualization window', () => {
  it('renders only the rows in view plus overscan, out of 100,000', () => {
    const vp = new FakeViewport();
    const w = new AxisWindow({
      horizontal: false,
      count: 100_000,
      sizeOf: () => 22,
      overscan: 5,
      paddingStart: 26,
      viewport: vp,
      onChange: () => undefined,
    });
    const r = w.range();
    assert.ok(r);
    assert.equal(r.first, 0);
    // 440 px viewport / 22 px rows = 20 rows, + 5 overscan below.
    assert.ok(r.last >= 19 && r.last <= 26, `last ${r.last}`);
    assert.equal(w.totalSize(), 26 + 100_000 * 22);
  });

  it('follows the scroll offset and tells the grid to re-render', () => {
    const vp = new FakeViewport();
    let changes = 0;
    const w = new AxisWindow({ horizontal: false, count: 100_000, sizeOf: () => 22, overscan: 5, viewport: vp, onChange: () => changes++ });
    vp.scrollTo(false, 22 * 50_000);
    const r = w.range();
    assert.ok(r);
    assert.ok(r.first >= 49_990 && r.first <= 50_000, `first ${r.first}`);
    assert.ok(r.last - r.first < 40);
    assert.ok(changes > 0);
    const items = w.items();
    assert.equal((items[0] as { start: number }).start, r.first * 22);
  });

  it('columns use their own widths', () => {
    const vp = new FakeViewport();
    const widths = [100, 300, 50, 400, 200, 200];
    const w = new AxisWindow({
      horizontal: true,
      count: widths.length,
      sizeOf: (i) => widths[i] as number,
      overscan: 0,
      paddingStart: 56,
      viewport: vp,
      onChange: () => undefined,
    });
    assert.equal(w.totalSize(), 56 + 1250);
    assert.deepEqual(
      w.items().map((i) => [i.index, i.start, i.size]),
      [
        [0, 56, 100],
        [1, 156, 300],
        [2, 456, 50],
        [3, 506, 400],
      ],
    );
    widths[0] = 500;
    w.remeasure();
    assert.equal(w.totalSize(), 56 + 1650);
    assert.equal(w.startOf(1), 556);
  });

  it('reveal scrolls the least distance, keeping a row clear of the sticky header', () => {
    const vp = new FakeViewport();
    const w = new AxisWindow({
      horizontal: false,
      count: 1000,
      sizeOf: () => 20,
      overscan: 2,
      paddingStart: 30,
      scrollPaddingStart: 30,
      viewport: vp,
      onChange: () => undefined,
    });
    w.reveal(5); // already visible: no scroll
    assert.equal(vp.offsets.y, 0);
    w.reveal(100); // below: its bottom aligns with the viewport bottom
    assert.equal(vp.offsets.y, 30 + 101 * 20 - 440);
    w.reveal(50); // above: its top goes just under the header
    assert.equal(vp.offsets.y, 30 + 50 * 20 - 30);
  });

  it('a filter shrinking the count shrinks the window', () => {
    const vp = new FakeViewport();
    const w = new AxisWindow({ horizontal: false, count: 1000, sizeOf: () => 20, overscan: 2, viewport: vp, onChange: () => undefined });
    w.setCount(3);
    assert.deepEqual(w.range(), { first: 0, last: 2 });
    assert.equal(w.totalSize(), 60);
    w.setCount(0);
    assert.equal(w.range(), undefined);
  });
});
