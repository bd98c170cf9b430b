// The motion canvas (src/renderer/gridMotion.ts) in a real Chromium: a leap of the scroll draws the
// rows on screen on one canvas and the row elements once the scroll settles; what the canvas shows
// is what the row elements show (compared as pixels of two screenshots); a keyboard move and a
// failed page keep row elements; the canvas takes the theme's colours from the grid's CSS.
import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { describeIfChromium, launchGridBrowser } from '../../helpers/gridBrowser';

// Page-side code as a string (tsx would wrap functions passed to evaluate in helpers the page lacks).
// A diff of `total` rows: every third added, every third removed, the rest modified (price).
const HOST_JS = `
window.held = [];
window.failPages = {};
window.rowOf = function (v, price) {
  return [String(v + 1), 'item-' + (v + 1), price.toFixed(2), ['fruit', 'dairy', 'meat'][v % 3], v % 7 === 0 ? null : 'a note about ' + v + (v % 5 === 0 ? ' that is long enough to be cut short at the edge of its column, and long enough to be a long value' : '')];
};
window.mountDiff = function (total) {
  var columns = [{ name: 'id', type: 'int', is_primary_key: true }, { name: 'name', type: 'text' }, { name: 'price', type: 'decimal(10,2)' },
    { name: 'category', type: 'text' }, { name: 'note', type: 'text' }];
  var output = { v: 1, kind: 'paged', sourceId: 'diff', columns: columns, target: { hostId: 'h', owner: 'a', name: 'b', ref: 'pull' },
    commit: 'abcdef0123456789abcdef0123456789', title: 'items', pageSize: 500, totalRows: total, serverSort: false, serverFilter: false, frozenColumns: 1,
    // Comments in the pull on a row and on two cells (a pull's Changes view draws their counts).
    rowsOf: { table: 'items', keyColumns: [0] }, rowComments: true,
    commentMarks: [{ key: ['30003'], count: 1 }, { key: ['30005'], column: 'category', count: 2 }, { key: ['30008'], column: 'note', count: 12 }] };
  var answer = function (m) {
    if (window.failPages[m.start]) {
      window.grid.receive({ type: 'page.error', sourceId: 'diff', requestId: m.requestId, start: m.start, end: m.end, message: 'server said 503' });
      return;
    }
    var rows = [], old = [], kinds = [];
    for (var v = m.start; v < Math.min(m.end, total); v++) {
      var kind = ['added', 'removed', 'modified'][v % 3];
      kinds.push(kind);
      rows.push(window.rowOf(v, (v % 97) + 1.25));
      old.push(kind === 'modified' ? window.rowOf(v, (v % 97) + 0.25) : null);
    }
    window.grid.receive({ type: 'page.result', sourceId: 'diff', requestId: m.requestId, start: m.start, rows: rows, kinds: kinds, old: old });
  };
  var host = { copy: function () {}, export: function () {}, post: function (m) {
    if (m.type !== 'page.request') return;
    if (window.hold) window.held.push(function () { answer(m); });
    else setTimeout(function () { answer(m); }, 0);
  } };
  window.grid = new VdbGrid.ResultGrid(output, host, document.getElementById('host'), { maxHeight: 400 });
};
/**
 * Scrolls to \`top\` and resolves at the first draw of the canvas after it (with none of its rows
 * waiting, when \`loaded\`), with what the canvas shows then: read in the task that drew it (a
 * MutationObserver's microtask), so however slow the machine, the scroll cannot settle first.
 */
window.leap = function (top, loaded) {
  var layer = document.querySelector('.vdb-motion'), canvas = layer.querySelector('canvas');
  return new Promise(function (resolve, reject) {
    var seen = [];
    var give = setTimeout(function () {
      obs.disconnect();
      reject(new Error('no draw of the canvas' + (loaded ? ' with its rows loaded' : '') + ' after the leap to ' + top + ' px: saw ' + JSON.stringify(seen)));
    }, 20000);
    var obs = new MutationObserver(function () {
      seen.push({ hidden: layer.hidden, rows: layer.dataset.rows, waiting: layer.dataset.waiting });
      if (layer.hidden || (loaded && layer.dataset.waiting !== '0')) return;
      clearTimeout(give);
      obs.disconnect();
      var r = canvas.getBoundingClientRect();
      resolve({ rows: layer.dataset.rows, waiting: Number(layer.dataset.waiting),
        rowElements: document.querySelectorAll('.vdb-row:not([hidden]) .vdb-cell[data-r="' + layer.dataset.rows.split('-')[0] + '"]').length,
        png: canvas.toDataURL('image/png').split(',')[1], corner: Array.from(canvas.getContext('2d').getImageData(1, 1, 1, 1).data),
        x: r.x, y: r.y, width: r.width, height: r.height });
    });
    obs.observe(layer, { attributes: true });
    document.querySelector('.vdb-grid').scrollTop = top;
  });
};
/** From now on, whether the canvas was ever shown. */
window.watchMotion = function () {
  window.motionShown = false;
  var layer = document.querySelector('.vdb-motion');
  new MutationObserver(function () { if (!layer.hidden) window.motionShown = true; }).observe(layer, { attributes: true });
};
window.motion = function () {
  var m = document.querySelector('.vdb-motion');
  return m.hidden ? null : { rows: m.dataset.rows, waiting: Number(m.dataset.waiting) };
};
/** The share of pixels that differ by more than \`tolerance\` in a channel between two PNGs (base64). */
window.pixelDiff = async function (a, b, tolerance) {
  var load = function (src) { return new Promise(function (ok, fail) { var i = new Image(); i.onload = function () { ok(i); }; i.onerror = fail; i.src = 'data:image/png;base64,' + src; }); };
  var ia = await load(a), ib = await load(b);
  var data = function (img) { var c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
    var x = c.getContext('2d'); x.drawImage(img, 0, 0); return x.getImageData(0, 0, img.width, img.height).data; };
  var da = data(ia), db = data(ib), differ = 0;
  for (var p = 0; p < da.length; p += 4) {
    if (Math.abs(da[p] - db[p]) > tolerance || Math.abs(da[p + 1] - db[p + 1]) > tolerance || Math.abs(da[p + 2] - db[p + 2]) > tolerance) differ++;
  }
  return { differ: differ / (da.length / 4), width: ia.width, height: ia.height, same: ia.width === ib.width && ia.height === ib.height };
};
/** How many pixels of a PNG (base64) in the rectangle are near the colour [r, g, b]. */
window.inkOf = async function (png, rect, rgb) {
  var i = new Image();
  await new Promise(function (ok, fail) { i.onload = ok; i.onerror = function () { fail(new Error('not a PNG: ' + png.slice(0, 40))); }; i.src = 'data:image/png;base64,' + png; });
  var c = document.createElement('canvas'); c.width = i.width; c.height = i.height;
  var x = c.getContext('2d'); x.drawImage(i, 0, 0);
  var d = x.getImageData(Math.round(rect.x), Math.round(rect.y), Math.round(rect.width), Math.round(rect.height)).data, n = 0;
  for (var p = 0; p < d.length; p += 4) if (Math.abs(d[p] - rgb[0]) < 60 && Math.abs(d[p + 1] - rgb[1]) < 60 && Math.abs(d[p + 2] - rgb[2]) < 60) n++;
  return n;
};`;

// VS Code's theme variables as a dark theme sets them (the grid's CSS is built from them).
const THEME = `body { --vscode-editor-background: rgb(30, 30, 30); --vscode-foreground: #cccccc; color: #cccccc;
  --vscode-editorWidget-border: #454545; --vscode-list-hoverBackground: rgba(90, 93, 94, 0.31);
  --vscode-diffEditor-insertedLineBackground: rgba(155, 185, 85, 0.2); --vscode-diffEditor-removedLineBackground: rgba(255, 0, 0, 0.2);
  --vscode-diffEditor-insertedTextBackground: rgba(156, 204, 44, 0.2); --vscode-descriptionForeground: rgba(204, 204, 204, 0.7);
  --vscode-editorLineNumber-foreground: #858585; --vscode-editorGroupHeader-tabsBackground: #252526; }`;

describeIfChromium('the grid drawn on a canvas while the scroll leaps', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  let gridJs: string;

  before(async () => {
    ({ browser, gridJs } = await launchGridBrowser());
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 900, height: 600 } });
    await page.setContent(`<style>${THEME}</style><div id="host"></div>`);
    await page.addScriptTag({ content: gridJs });
    await page.addScriptTag({ content: HOST_JS });
    await page.evaluate('mountDiff(100000)');
    await page.waitForSelector('.vdb-cell[data-r="0"][data-c="1"]:not(.placeholder)');
  });
  afterEach(async () => {
    await page?.close();
  });

  type Motion = { rows: string; waiting: number } | null;
  const motion = (): Promise<Motion> => page.evaluate('window.motion()') as Promise<Motion>;
  type Drawn = { rows: string; waiting: number; rowElements: number; png: string; corner: number[] } & Rect;
  type Rect = { x: number; y: number; width: number; height: number };
  /** Leaps to row `row` and gives the canvas as first drawn there (with its rows loaded, when `loaded`). */
  const leap = (row: number, loaded: boolean): Promise<Drawn> => page.evaluate(`window.leap(${row * 22}, ${loaded})`) as Promise<Drawn>;

  it('a leap draws the rows on screen on the canvas, placeholders until their page comes, and the row elements once the scroll settles, its pixels let go', async () => {
    await page.evaluate('window.hold = true');
    const held = await leap(50_000, false);
    const [first, last] = held.rows.split('-').map(Number) as [number, number];
    assert.ok(first <= 50_000 && last >= 50_010 && last - first < 25, `rows ${held.rows}: the screen's, no overscan`);
    assert.equal(held.waiting, last - first + 1, 'every row waits for its page');
    assert.equal(held.rowElements, 0, 'no row element is made during the leap');
    await page.evaluate('window.hold = false; window.held.splice(0).forEach(function (a) { a(); })');
    await page.waitForFunction('window.motion() === null || window.motion().waiting === 0');
    // 150 ms after the last scroll event the row elements are drawn and the canvas goes.
    await page.waitForFunction('window.motion() === null');
    assert.equal(await page.locator('.vdb-row:not([hidden]) .vdb-cell[data-r="50000"][data-c="1"]').textContent(), 'item-50001');
    assert.equal(await page.locator('.vdb-motion canvas').count(), 1);
    assert.equal(await page.evaluate("document.querySelector('.vdb-motion canvas').width"), 0, 'its pixels are let go');
  });

  it('what the canvas shows is what the row elements show once the scroll settles', async () => {
    // Every kind of row on screen, long values, NULLs, comment counts, and a selected column in a focused grid.
    await page.locator('.vdb-cell[data-r="0"][data-c="3"]').click();
    await page.keyboard.press('Control+Space');
    // What the canvas drew, as a PNG, and where it sits on the page.
    const drawn = await leap(30_000, true);
    await page.waitForFunction('window.motion() === null');
    const clip = { x: drawn.x, y: drawn.y, width: drawn.width, height: drawn.height };
    const settled = (await page.screenshot({ clip })).toString('base64');
    const diff = (await page.evaluate(`window.pixelDiff(${JSON.stringify(drawn.png)}, ${JSON.stringify(settled)}, 48)`)) as {
      differ: number;
      same: boolean;
    };
    assert.ok(diff.same, 'images of one size');
    // Text drawn by the canvas and by the layout differs in a few antialiased edge pixels of small
    // marks (about 130 of 330,000 when this was written), no more.
    assert.ok(diff.differ < 0.002, `${(diff.differ * 100).toFixed(2)} % of the pixels differ`);
    // Small marks are few pixels of the whole: each comment count is checked where it is drawn, in
    // the comment colour (the grid's default, #3794ff), left of the cell's 3 px bar.
    for (const [row, col] of [
      [30002, 0],
      [30004, 3],
      [30007, 4],
    ]) {
      const cell = page.locator(`.vdb-row:not([hidden]) .vdb-cell[data-r="${row}"][data-c="${col}"]`);
      const box = await cell.boundingBox();
      assert.ok(box, `cell ${row}, ${col}`);
      const rect = { x: box.x - clip.x, y: box.y - clip.y, width: box.width - 4, height: box.height };
      const ink = (png: string): Promise<number> =>
        page.evaluate(`window.inkOf(${JSON.stringify(png)}, ${JSON.stringify(rect)}, [55, 148, 255])`) as Promise<number>;
      const [onCanvas, asRows] = [await ink(drawn.png), await ink(settled)];
      assert.ok(asRows > 5, `the count of cell ${row}, ${col} is drawn as rows (${asRows} px)`);
      assert.ok(
        Math.abs(onCanvas - asRows) <= asRows / 3,
        `cell ${row}, ${col}: ${onCanvas} px of the count on the canvas, ${asRows} as rows`,
      );
    }
    // And the comparison can fail: the grid without its rows differs from it in far more.
    await page.evaluate("document.querySelectorAll('.vdb-row').forEach(function (r) { r.style.visibility = 'hidden'; })");
    const empty = (await page.screenshot({ clip })).toString('base64');
    const vsEmpty = (await page.evaluate(`window.pixelDiff(${JSON.stringify(drawn.png)}, ${JSON.stringify(empty)}, 48)`)) as {
      differ: number;
    };
    assert.ok(vsEmpty.differ > 0.05, `the rows against no rows: ${(vsEmpty.differ * 100).toFixed(2)} %`);
  });

  it("the canvas takes the theme's colours: the editor background behind the rows", async () => {
    // The gutter's background at its left edge, away from the number's text.
    const { corner } = await leap(70_000, true);
    assert.deepEqual(corner.slice(0, 3), [30, 30, 30]);
  });

  it('a move by the keyboard is not a leap: the active cell is a row element at once', async () => {
    await page.locator('.vdb-cell[data-r="0"][data-c="1"]').click();
    await page.evaluate('window.watchMotion()');
    await page.keyboard.press('Control+End');
    await page.waitForSelector('.vdb-cell[data-r="99999"][data-c="4"].active');
    assert.equal(await page.evaluate('window.motionShown'), false, 'no canvas for a reveal');
  });

  it("a failed page's rows are row elements even during a leap: its Retry is there to press", async () => {
    await page.evaluate('window.failPages[80000] = true');
    await page.evaluate(`document.querySelector('.vdb-grid').scrollTop = ${80_100 * 22}`);
    await page.waitForSelector('.vdb-retry[data-retry="80100"]');
    assert.equal(await motion(), null);
  });
});
