import assert from 'node:assert/strict';
import { cellOf, importTable, openFromTree, plain } from './tableHelpers.mjs';

export const name =
  'the table browser keeps what it loaded when the server fails mid-scroll (Retry reloads), and says when the branch moves (Refresh reopens at the new head)';
/** The window opens signed in to Test Hub as alice, with alice/prices in the view (see README, "Where a scenario starts"). */
export const given = { signedIn: 'alice', databases: ['alice/prices'] };
export const timeout = 300_000;
// While the hub is stopped on purpose, reads fail; the browser logs them as warnings, and the
// ref check may fail the same way.
export const expectedErrors = [/fetch failed|ECONNREFUSED|could not reach|not reachable/i];

const ROWS = 3000;

/** @param {import('../lib/context.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { page } = ctx;
  const lines = ['id,label'];
  for (let i = 1; i <= ROWS; i++) lines.push(`${i},row ${i}`);
  await importTable(ctx, 'series', `${lines.join('\n')}\n`, ['id']);

  const grid = await openFromTree(ctx, 'series');
  const summary = grid.locator('.vdb-summary');
  await summary.filter({ hasText: `${ROWS.toLocaleString('en-US')} rows` }).waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  await cellOf(grid, 0, 0).waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });

  // The server goes away mid-scroll: the rows of the page it could not read say so, with Retry;
  // the first rows, already loaded, stay on screen after scrolling back. Pages are 500 rows and the
  // grid reads four pages ahead of the ones on screen (READ_AHEAD in src/renderer/pagedGridSource.ts):
  // at the top it reads pages 0 to 4 (page 4 may still be on its way when the server stops). With
  // rows 2,485 on in view, pages 4 and 5 are on screen, page 0 is kept (within four pages), and
  // page 5 (rows 2,500 on), never asked for before, is read — and fails (page 4 too, if its read
  // was cut off). A jump to the end would let page 0 go and read it again, so the scenario
  // scrolls only there.
  const scrollToRow = (row) =>
    grid.locator('.vdb-grid').evaluate(
      (el, [r, n]) => {
        el.scrollTop = (el.scrollHeight * r) / (n + 1);
      },
      [row, ROWS],
    );
  let failedRow = -1;
  await ctx.hub.whileStopped(async () => {
    await cellOf(grid, 0, 1).click();
    await scrollToRow(2485);
    // A row of the failed page: its own error, its Retry in view.
    const firstFailed = grid.locator('.vdb-retry').first();
    await firstFailed.waitFor({ state: 'visible', timeout: ctx.scaled(90_000) });
    failedRow = Number(await firstFailed.getAttribute('data-retry'));
    // That row's own Retry from now on: the grid reuses row elements, so "the first Retry in the
    // DOM" may be another failed row's by the next read (page 4's rows can fail after page 5's).
    const failed = grid.locator(`.vdb-retry[data-retry="${failedRow}"]`);
    assert.ok(failedRow >= 2000 && failedRow < 3000, `the failed row ${failedRow} is on a page not read before the server went away`);
    assert.match(await failed.locator('xpath=..').innerText(), /Could not load these rows: .+/);
    const box = await failed.boundingBox();
    const gridBox = await grid.boundingBox();
    assert.ok(box && gridBox && box.x + box.width <= gridBox.x + gridBox.width, 'Retry is inside the grid, not cut off by a long message');
    // The failed row still shows its number in the gutter, with the error bar beside it on its line.
    const num = grid.locator(`.vdb-rownum[data-rownum="${failedRow}"]`);
    assert.equal(await num.innerText(), String(failedRow + 1));
    const numBox = await num.boundingBox();
    const barBox = await failed.locator('xpath=..').boundingBox();
    assert.ok(
      numBox && barBox && barBox.x >= numBox.x + numBox.width - 1 && Math.abs(barBox.y - numBox.y) < 1,
      `the bar (${JSON.stringify(barBox)}) is beside row number ${failedRow + 1} (${JSON.stringify(numBox)})`,
    );
    await ctx.screenshot('failed-rows-with-retry');
    await page.keyboard.press('Control+Home');
    await cellOf(grid, 0, 1).waitFor({ state: 'visible', timeout: ctx.scaled(10_000) });
    assert.equal(await cellOf(grid, 0, 1).innerText(), 'row 1', 'the loaded first page is kept while the server is away');
    await scrollToRow(failedRow);
    await grid.locator(`.vdb-retry[data-retry="${failedRow}"]`).waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  });
  // Back up: Retry reads the failed page, and its rows show.
  await grid.locator(`.vdb-retry[data-retry="${failedRow}"]`).click();
  await cellOf(grid, failedRow, 1).waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  assert.equal(await cellOf(grid, failedRow, 1).innerText(), `row ${failedRow + 1}`);
  await ctx.screenshot('retried');

  // main moves on (ten more rows); the browser still shows its commit, and says main moved once it
  // looks again (when the panel regains focus).
  const more = ['id,label'];
  for (let i = ROWS + 1; i <= ROWS + 10; i++) more.push(`${i},row ${i}`);
  await importTable(ctx, 'series', `${more.join('\n')}\n`, ['id'], 'update');
  const [after] = await plain(ctx, 'SELECT COUNT(*) FROM series');
  assert.equal(after[0], String(ROWS + 10));
  await ctx.treeItem('Tables').then((r) => r.click());
  // Back with a click in the view (on its summary line; not on its tab at once: see e2e/README,
  // "Coming back to a webview"). Looked for when the panel gets the focus back (the browser stayed
  // the active editor, so no view state changed), well before the 30 s poll.
  await summary.click();
  const moved = grid.locator('[data-banner="moved"]');
  await moved.waitFor({ state: 'visible', timeout: ctx.scaled(10_000) });
  assert.match(await moved.innerText(), /main/);
  assert.ok(
    await summary.filter({ hasText: `${ROWS.toLocaleString('en-US')} rows` }).isVisible(),
    'still the rows of the commit it opened at',
  );
  await ctx.screenshot('ref-moved');
  await moved.locator('.vdb-refresh').click();
  await summary
    .filter({ hasText: `${(ROWS + 10).toLocaleString('en-US')} rows` })
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  await ctx.screenshot('refreshed');
}
