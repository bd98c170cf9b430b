// The grid in a real Chromium: what a user sees and does (virtualized rows, sort by click,
// NULL/<binary> styling, server text shown as text, keyboard selection and copy, export).
// Skipped where Chromium is not installed, except on CI, where that fails.
import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { describeIfChromium, launchGridBrowser } from '../../helpers/gridBrowser';

const MOUNT_JS = `
window.copies = [];
window.exports = [];
window.mountGrid = function (result, limit) {
  window.grid = new VdbGrid.ResultGrid(
    { v: 1, result: result, sql: 'select', target: { hostId: 'h', owner: 'alice', name: 'shop', ref: 'main' }, ranAt: '', elapsedMs: 5, limit: limit },
    {
      copy: function (text, format, rows) { window.copies.push({ text: text, format: format, rows: rows }); },
      export: function (format, content, suggestedName, rows) { window.exports.push({ format: format, content: content, suggestedName: suggestedName, rows: rows }); },
      post: function () {},
    },
    document.getElementById('host'),
  );
};
window.generateRows = function (n) {
  var rows = new Array(n);
  for (var i = 0; i < n; i++) rows[i] = [String(i + 1), 'row ' + (i + 1), '<binary>'];
  return rows;
};`;

describeIfChromium('result grid in Chromium', function () {
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

  async function mount(result: unknown, limit = 1000, generatedRows = 0): Promise<void> {
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    await page.setContent('<div id="host"></div>');
    await page.addScriptTag({ content: gridJs });
    // Page-side code as a string: tsx would wrap functions passed to evaluate in helpers the page lacks.
    await page.addScriptTag({ content: MOUNT_JS });
    const data = generatedRows
      ? `Object.assign(${JSON.stringify(result)}, { rows: generateRows(${generatedRows}) })`
      : JSON.stringify(result);
    await page.evaluate(`mountGrid(${data}, ${limit})`);
  }
  afterEach(async () => {
    await page?.close();
  });

  const cols = [
    { name: 'id', type: 'bigint', is_primary_key: true, source_table: 'items' },
    { name: 'label', type: 'varchar(50)', source_table: 'items' },
    { name: 'data', type: 'blob', source_table: 'items' },
  ];

  it('renders only the visible part of 100,000 rows and scrolls to the end', async () => {
    await mount({ status: 'success', columns: cols, rows: [] }, 1000, 100_000);
    const rendered = await page.locator('.vdb-row:not([hidden])').count();
    assert.ok(rendered > 5 && rendered < 60, `rendered ${rendered} rows`);
    await page.evaluate('document.querySelector(".vdb-grid").scrollTop = 1e9');
    await page.waitForSelector('.vdb-rownum[data-rownum="99999"]');
    assert.equal(await page.locator('.vdb-grid').getAttribute('aria-rowcount'), '100001');
    assert.equal(await page.locator('.vdb-summary').textContent(), '100,000 rows × 3 columns · alice/shop @ main · 5 ms');
  });

  it('sorts numbers numerically when the header is clicked, and says so to screen readers', async () => {
    await mount({
      status: 'success',
      columns: cols,
      rows: [
        ['10', 'a', null],
        ['9', 'b', null],
        ['100', 'c', null],
      ],
    });
    await page.click('.vdb-hcell[data-col="0"]');
    const ids = await page.locator('.vdb-row:not([hidden]) .vdb-cell[data-c="0"]').allTextContents();
    assert.deepEqual(ids, ['9', '10', '100']);
    assert.equal(await page.locator('.vdb-hcell[data-col="0"]').getAttribute('aria-sort'), 'ascending');
    await page.click('.vdb-hcell[data-col="0"]');
    assert.deepEqual(await page.locator('.vdb-row:not([hidden]) .vdb-cell[data-c="0"]').allTextContents(), ['100', '10', '9']);
  });

  it('shows NULL and <binary> apart from text, and server text never as HTML', async () => {
    await mount({
      status: 'success',
      columns: [
        { name: 'a', type: 'text' },
        { name: 'b', type: 'blob' },
        { name: '<i>col</i>', type: 'text' },
      ],
      rows: [[null, '<binary>', '<img src=x onerror="window.pwned=1">']],
    });
    assert.equal(await page.locator('.vdb-cell.null').textContent(), 'NULL');
    assert.equal(await page.locator('.vdb-cell.binary').textContent(), '<binary>');
    assert.equal(await page.locator('.vdb-cell[data-c="2"]').textContent(), '<img src=x onerror="window.pwned=1">');
    assert.equal(await page.locator('#host img, #host i').count(), 0);
    assert.equal(await page.evaluate('window.pwned'), undefined);
  });

  it('header tooltips give type, primary key and source table', async () => {
    await mount({ status: 'success', columns: cols, rows: [['1', 'a', '<binary>']] });
    const title = await page.locator('.vdb-hcell[data-col="0"]').getAttribute('title');
    assert.match(title ?? '', /Type: bigint/);
    assert.match(title ?? '', /Primary key/);
    assert.match(title ?? '', /Source table: items/);
  });

  it('selects a range with the keyboard and copies it as TSV; the toolbar copies as CSV with a header', async () => {
    await mount({
      status: 'success',
      columns: cols,
      rows: [
        ['1', 'a,b', null],
        ['2', 'c', null],
        ['3', 'd', null],
      ],
    });
    await page.click('.vdb-cell[data-r="0"][data-c="0"]');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Control+c');
    assert.equal(await page.locator('.vdb-cell.selected').count(), 4);
    await page.selectOption('.vdb-copy-format', 'csv');
    await page.click('.vdb-copy');
    const copies = (await page.evaluate('window.copies')) as { text: string; format: string }[];
    assert.deepEqual(copies[0], { text: '1\ta,b\r\n2\tc\r\n', format: 'tsv', rows: 2 });
    assert.deepEqual(copies[1], { text: 'id,label\r\n1,"a,b"\r\n2,c\r\n', format: 'csv', rows: 2 });
  });

  it('the quick filter narrows rows; export still saves the whole result', async () => {
    await mount({
      status: 'success',
      columns: cols,
      rows: [
        ['1', 'apple', null],
        ['2', 'banana', null],
        ['3', 'apricot', null],
      ],
    });
    await page.fill('.vdb-filter', 'ap');
    await page.press('.vdb-filter', 'Enter');
    assert.deepEqual(await page.locator('.vdb-row:not([hidden]) .vdb-cell[data-c="1"]').allTextContents(), ['apple', 'apricot']);
    assert.match((await page.locator('.vdb-summary').textContent()) ?? '', /^2 of 3 rows/);
    await page.selectOption('.vdb-export-format', 'json');
    await page.click('.vdb-export');
    const exports = (await page.evaluate('window.exports')) as { content: string; suggestedName: string; rows: number }[];
    assert.equal(exports[0]!.rows, 3);
    assert.equal(exports[0]!.suggestedName, 'shop-main.json');
    assert.equal(JSON.parse(exports[0]!.content).length, 3);
  });

  it('shows the row_limit banner with the server message and what to do', async () => {
    await mount(
      {
        status: 'row_limit',
        message: 'query returned more than 2 rows',
        columns: cols,
        rows: [
          ['1', 'a', null],
          ['2', 'b', null],
        ],
      },
      2,
    );
    const banner = page.locator('[data-banner="row_limit"]');
    assert.equal(await banner.getAttribute('role'), 'status');
    assert.match((await banner.textContent()) ?? '', /Showing the first 2 rows only/);
    assert.match((await banner.textContent()) ?? '', /query returned more than 2 rows/);
    assert.match((await banner.textContent()) ?? '', /versionedDb\.sql\.rowLimit/);
    // The host did not say it can page this result: no Load All Rows button that would do nothing.
    assert.equal(await page.locator('.vdb-loadall').count(), 0);
  });

  it('an SQL error shows an alert banner and no grid', async () => {
    await mount({ status: 'error', message: 'no such table: nope', columns: [], rows: [] });
    assert.equal(await page.locator('[role="alert"]').count(), 1);
    assert.match((await page.locator('[role="alert"]').textContent()) ?? '', /no such table: nope/);
    assert.equal(await page.locator('.vdb-grid').count(), 0);
  });

  it('long values expand in full on Enter', async () => {
    const long = 'line one\nline two ' + 'x'.repeat(200);
    await mount({ status: 'success', columns: cols, rows: [['1', long, null]] });
    await page.click('.vdb-cell[data-r="0"][data-c="1"]');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.vdb-detail pre').textContent(), long);
    await page.keyboard.press('Escape');
  });

  it('dragging a column edge resizes the column', async () => {
    await mount({ status: 'success', columns: cols, rows: [['1', 'a', null]] });
    const before = await page.locator('.vdb-hcell[data-col="1"]').boundingBox();
    const grip = await page.locator('.vdb-resizer[data-resize="1"]').boundingBox();
    assert.ok(before && grip);
    await page.mouse.move(grip.x + 3, grip.y + 5);
    await page.mouse.down();
    await page.mouse.move(grip.x + 103, grip.y + 5, { steps: 4 });
    await page.mouse.up();
    const after = await page.locator('.vdb-hcell[data-col="1"]').boundingBox();
    assert.ok(after && Math.abs(after.width - (before.width + 100)) <= 2, `width ${before.width} -> ${after?.width}`);
    const cell = await page.locator('.vdb-cell[data-c="1"]').boundingBox();
    assert.ok(cell && Math.abs(cell.width - after.width) <= 1);
  });

  it('a grid disposed while converting a large result stops converting and settles `compacted`', async () => {
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    await page.setContent('<div id="host"></div>');
    await page.addScriptTag({ content: gridJs });
    await page.addScriptTag({ content: MOUNT_JS });
    // Mounted and disposed in one task, so the idle-time conversion has surely not finished.
    const data = `Object.assign(${JSON.stringify({ status: 'success', columns: cols, rows: [] })}, { rows: generateRows(30000) })`;
    const settled = await page.evaluate(`(function () {
      mountGrid(${data}, 1000);
      window.grid.dispose();
      return Promise.race([
        window.grid.compacted.then(function () { return 'settled'; }),
        new Promise(function (r) { setTimeout(function () { r('still pending'); }, 3000); }),
      ]);
    })()`);
    assert.equal(settled, 'settled');
  });

  it('a large result moved into the compact store still sorts, filters, copies and exports like before', async () => {
    // 30,000 × 3 is over the size converted before first paint: it converts in idle time.
    await mount({ status: 'success', columns: cols, rows: [] }, 1000, 30_000);
    await page.evaluate('window.grid.compacted');
    await page.click('.vdb-hcell[data-col="0"]');
    await page.click('.vdb-hcell[data-col="0"]');
    const ids = await page.locator('.vdb-row:not([hidden]) .vdb-cell[data-c="0"]').allTextContents();
    assert.deepEqual(ids.slice(0, 3), ['30000', '29999', '29998']);
    await page.fill('.vdb-filter', 'ROW 2999');
    await page.press('.vdb-filter', 'Enter');
    assert.match((await page.locator('.vdb-summary').textContent()) ?? '', /^11 of 30,000 rows/);
    const labels = await page.locator('.vdb-row:not([hidden]) .vdb-cell[data-c="1"]').allTextContents();
    assert.deepEqual(labels, [
      'row 29999',
      'row 29998',
      'row 29997',
      'row 29996',
      'row 29995',
      'row 29994',
      'row 29993',
      'row 29992',
      'row 29991',
      'row 29990',
      'row 2999',
    ]);
    await page.click('.vdb-cell[data-r="9"][data-c="0"]');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Control+c');
    await page.selectOption('.vdb-export-format', 'csv');
    await page.click('.vdb-export');
    const copies = (await page.evaluate('window.copies')) as { text: string }[];
    assert.equal(copies[0]!.text, '29990\trow 29990\r\n2999\trow 2999\r\n');
    const exported = (await page.evaluate('window.exports')) as { content: string; rows: number }[];
    assert.equal(exported[0]!.rows, 30_000);
    const lines = exported[0]!.content.split('\r\n');
    assert.deepEqual(lines.slice(0, 3), ['id,label,data', '30000,row 30000,<binary>', '29999,row 29999,<binary>']);
    assert.equal(lines[30_000], '1,row 1,<binary>');
  });
});
