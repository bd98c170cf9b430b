// Shared by the table browser scenarios (50, 51): a table made through the API, plain reads for
// expected values, and the browser's grid inside its webview.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { waitFor } from '../../helpers/waitFor.cjs';

/** Imports `csv` into a table on `branch` (main) through the API (`create` a new one, or `update` rows), the way any client does. */
export async function importTable(ctx, table, csv, primaryKeys, operation = 'create', branch = 'main') {
  const data = Buffer.from(csv);
  const s = await ctx.hub.api('/databases/alice/prices/imports/uploads', {
    method: 'POST',
    json: { content_length: data.length, num_parts: 1, file_type: 'csv' },
  });
  assert.equal(s.status, 201, JSON.stringify(s.body));
  const part = s.body.data.parts[0];
  const put = await fetch(part.url, { method: s.body.data.http_method ?? 'PUT', body: data });
  assert.equal(put.status, 200);
  const md5 = createHash('md5').update(createHash('md5').update(data).digest('base64')).digest('base64');
  const started = await ctx.hub.api('/databases/alice/prices/imports', {
    method: 'POST',
    json: {
      branch_name: branch,
      table_name: table,
      file_name: `${table}.csv`,
      file_size: data.length,
      file_type: 'csv',
      import_operation: operation,
      token: s.body.data.token,
      contents_key: s.body.data.contents_key,
      completed_parts: [{ part_number: 1, etag: put.headers.get('etag') ?? '' }],
      file_parts_md5: md5,
      primary_keys: primaryKeys,
    },
  });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  await waitFor(
    `the import of ${table}`,
    async () => {
      const op = await ctx.hub.api(`/operations/${encodeURIComponent(started.body.data.id)}`);
      assert.notEqual(op.body.data.status, 'failed', JSON.stringify(op.body.data.error));
      return op.body.data.status === 'succeeded';
    },
    { timeoutMs: ctx.scaled(60_000), intervalMs: 100 },
  );
}

/** A plain read at main, for expected values. */
export async function plain(ctx, q) {
  const r = await ctx.hub.api(`/databases/alice/prices/sql?ref=main&limit=10000&q=${encodeURIComponent(q)}`);
  assert.equal(r.body.data.status, 'success', r.body.data.message);
  return r.body.data.rows;
}

/** The document inside the active table browser webview (two iframes deep in the workbench). */
export function browserGrid(ctx) {
  return ctx.page.frameLocator('iframe.webview.ready').last().frameLocator('iframe#active-frame').locator('.vdb-result').first();
}

/** Tree → alice/prices → Branches → main → Tables → `table`, then its inline Open Table. */
export async function openFromTree(ctx, table) {
  await ctx.expand('alice/prices');
  await ctx.expand('Branches');
  await ctx.expand('main');
  await ctx.expand('Tables');
  const row = await ctx.treeItem(table);
  await row.hover();
  await row.locator('.action-label[aria-label="Open Table"]').click();
  await ctx.page
    .locator('.part.editor .tab.active', { hasText: `${table} @ main` })
    .first()
    .waitFor({ state: 'visible', timeout: ctx.scaled(30_000) });
  const grid = browserGrid(ctx);
  await grid.waitFor({ state: 'visible', timeout: ctx.scaled(60_000) });
  return grid;
}

/**
 * The grid's column names by column index (`data-col`), read from the DOM's text. Not innerText: a webview
 * that is not being rendered at that instant (VS Code lays out a new one late) gives its textContent, which
 * glues the filter button's "≡" to the name (e2e 34 failed on headers `id≡,name≡,…` once).
 */
export async function headerNames(grid) {
  return grid.locator('.vdb-hcell[data-col]').evaluateAll((cells) => {
    const names = [];
    for (const h of cells) names[Number(h.getAttribute('data-col'))] = h.querySelector('.vdb-hname')?.textContent ?? '';
    return names;
  });
}

/** A drawn (loaded) cell of the grid. */
export function cellOf(grid, r, c) {
  return grid.locator(`.vdb-cell[data-r="${r}"][data-c="${c}"]:not(.placeholder)`).first();
}

/**
 * The text a person sees in the first element `locator` finds, once it is shown with some text. The check and
 * the read are one evaluate: innerText skips text under `visibility: hidden`, and VS Code's notebook webview
 * hides an output's container while it lays it out again, so a banner seen visible and read a moment later
 * read as "" once (e2e 54: `The input did not match /first 10,000 rows/. Input: `).
 */
export async function shownText(locator, timeout) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = await locator
      .first()
      .evaluate((el) => (el.checkVisibility({ visibilityProperty: true }) ? el.innerText : ''), undefined, { timeout })
      .catch(() => '');
    if (text.trim()) return text;
    if (Date.now() > deadline) throw new Error(`no text shown in ${locator} within ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
