// The result grid as a screen reader and a keyboard user meet it, in a real Chromium: axe-core
// finds no serious or critical violation (a plain result, a sorted one with a selection, a
// result with NULLs, binary cells and a banner), the grid has the ARIA grid roles with row and
// column indexes and counts, the selection is announced, and the focus is visible.
import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { describeIfChromium, launchGridBrowser } from '../../helpers/gridBrowser';
import { seriousViolations } from '../../helpers/axe.cjs';

const COLUMNS = [
  { name: 'id', type: 'bigint', is_primary_key: true, source_table: 'items' },
  { name: 'label', type: 'varchar(50)', source_table: 'items' },
  { name: 'price', type: 'decimal(10,2)', source_table: 'items' },
  { name: 'data', type: 'blob', source_table: 'items' },
];
const ROWS = Array.from({ length: 40 }, (_, i) => [String(i + 1), i % 7 ? `item ${i + 1}` : null, `${i}.50`, '<binary>']);

describeIfChromium('result grid accessibility in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  let gridJs: string;

  before(async () => {
    ({ browser, gridJs } = await launchGridBrowser());
  });
  after(async () => browser?.close());
  afterEach(async () => page?.close());

  async function mount(status: string, limit = 1000): Promise<void> {
    page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
    await page.setContent('<!doctype html><html lang="en"><head><title>Result</title></head><body><main id="host"></main></body></html>');
    await page.addScriptTag({ content: gridJs });
    const output = {
      v: 1,
      result: { status, columns: COLUMNS, rows: ROWS, ...(status === 'row_limit' ? { message: 'Row limit reached' } : {}) },
      sql: 'SELECT * FROM items',
      target: { hostId: 'h', owner: 'alice', name: 'shop', ref: 'main' },
      ranAt: '',
      elapsedMs: 5,
      limit,
    };
    await page.evaluate(
      `window.grid = new VdbGrid.ResultGrid(${JSON.stringify(output)}, { copy() {}, export() {}, post() {} }, document.getElementById('host'))`,
    );
    await page.waitForSelector('.vdb-cell[data-r="0"][data-c="0"]');
  }

  const expectNoSerious = async (what: string): Promise<void> => {
    const found = await seriousViolations(page);
    assert.deepEqual(found, [], `${what}: ${JSON.stringify(found, null, 1)}`);
  };

  it('a plain result has no serious or critical axe violation, and the ARIA grid roles with counts', async () => {
    await mount('success');
    await expectNoSerious('plain result');
    assert.equal(await page.locator('[role="grid"]').count(), 1);
    assert.equal(await page.locator('[role="grid"]').getAttribute('aria-rowcount'), String(ROWS.length + 1));
    assert.ok((await page.locator('[role="columnheader"][aria-colindex]').count()) >= COLUMNS.length);
    assert.ok((await page.locator('[role="row"][aria-rowindex]').count()) > 5);
    assert.ok((await page.locator('[role="gridcell"]').count()) > 5);
  });

  it('sorted, with a selection made by keyboard and a row-limit banner: still none, and the selection is announced', async () => {
    await mount('row_limit', 40);
    await page.locator('.vdb-hcell[data-col="2"]').click();
    await page.locator('.vdb-cell[data-r="1"][data-c="1"]').click();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
    await expectNoSerious('sorted with a selection');
    assert.ok((await page.locator('[aria-selected="true"]').count()) >= 4, 'the selected cells say so');
    const live = await page.locator('[aria-live]').allTextContents();
    assert.ok(
      live.some((t) => t.trim().length > 0),
      `a live region speaks: ${JSON.stringify(live)}`,
    );
    // The cell the keyboard is on is drawn with a visible ring (an outline or a box shadow).
    const ring = String(
      await page.evaluate(`(() => {
        const el = document.querySelector('.vdb-cell.active');
        if (!el) return 'no focused cell';
        const s = getComputedStyle(el);
        return s.outlineStyle + ' ' + s.outlineWidth + ' / ' + s.boxShadow;
      })()`),
    );
    assert.ok(!/^no focused cell$/.test(ring) && !/^none 0px \/ none$/.test(ring), `the focused cell is drawn visibly (${ring})`);
  });
});
