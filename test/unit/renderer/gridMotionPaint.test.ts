import { strict as assert } from 'node:assert';
import { contentText, insetBands } from '../../../src/renderer/gridMotionPaint';

describe("reading a cell's CSS for the motion canvas", () => {
  it('turns the inset shadows the grid uses into bands along the edges, as Chromium computes them', () => {
    // The grid lines: right and bottom, 1 px.
    assert.deepEqual(insetBands('rgba(136, 136, 136, 0.2) -1px -1px 0px 0px inset'), [
      { color: 'rgba(136, 136, 136, 0.2)', left: -1, right: 1, top: -1, bottom: 1 },
    ]);
    // A commented cell's bar: 3 px at the right.
    assert.deepEqual(insetBands('rgb(55, 148, 255) -3px 0px 0px 0px inset')[0], {
      color: 'rgb(55, 148, 255)',
      left: -3,
      right: 3,
      top: 0,
      bottom: 0,
    });
    // An invalid cell's frame: 1 px all round.
    assert.deepEqual(insetBands('rgb(190, 17, 0) 0px 0px 0px 1px inset')[0], {
      color: 'rgb(190, 17, 0)',
      left: 1,
      right: 1,
      top: 1,
      bottom: 1,
    });
    // Two shadows, one not inset (drawn outside the cell: not ours), and none.
    assert.equal(insetBands('rgb(0, 0, 0) 0px 2px 8px 0px, rgb(1, 2, 3) 0px -1px 0px 0px inset').length, 1);
    assert.deepEqual(insetBands('none'), []);
    assert.deepEqual(insetBands('rgb(0, 0, 0) 0px 0px 0px 0px inset'), [], 'a shadow of no size paints nothing');
  });

  it("reads a pseudo-element's computed content as its text", () => {
    assert.equal(contentText(`"''"`), "''");
    assert.equal(contentText('"⤢"'), '⤢');
    assert.equal(contentText('"a \\"quoted\\" mark"'), 'a "quoted" mark');
    assert.equal(contentText('none'), undefined);
    assert.equal(contentText('normal'), undefined);
    assert.equal(contentText('""'), '');
  });
});
