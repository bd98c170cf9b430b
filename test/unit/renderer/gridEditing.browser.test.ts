// Editing in the table browser's grid (issue #23) in a real Chromium: the real grid against a page
// host that applies its requests to the real change set model, as the extension host does. Cells
// are edited by double-click, Enter, F2 or typing; Escape cancels, Enter and Tab commit; Delete
// sets NULL (not the empty string); rows are added at the top and deleted; undo and redo; a block
// pasted from a spreadsheet; problems are marked at the cell and keep Propose disabled; a tag's
// grid stays read-only and says why; on a million rows only the pages on screen are read.
import { strict as assert } from 'node:assert';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, describeIfChromium } from '../../helpers/gridBrowser';

const HOST_JS = `
window.posted = [];
window.existingKeys = new Set(['5']);
window.cellOf = function (i, c) {
  if (c === 0) return String(i + 1);
  if (c === 1) return 'name ' + (i + 1);
  if (c === 2) return (i % 3 === 0) ? null : ((i + 1) * 1.5).toFixed(2);
  if (c === 3) return i % 2 ? '1' : '0';
  return '{"n": ' + (i + 1) + '}';
};
window.columns = [
  { name: 'id', type: 'bigint', is_primary_key: true, source_table: 'items' },
  { name: 'name', type: 'varchar(20)', source_table: 'items' },
  { name: 'price', type: 'decimal(10,2)', source_table: 'items' },
  { name: 'active', type: 'tinyint(1)', source_table: 'items' },
  { name: 'data', type: 'json', source_table: 'items' },
];
window.nullable = [false, false, true, true, true];
window.mount = function (total, extra) {
  window.total = total;
  window.cs = new VdbEdit.ChangeSet({
    scope: { hostId: 'h', owner: 'alice', name: 'shop', branch: 'main', table: 'items', baseCommit: 'abcdef0123456789abcdef0123456789' },
    columns: window.columns, keyColumns: [0], nullable: window.nullable,
  });
  var output = Object.assign({
    v: 1, kind: 'paged', sourceId: 'src1', columns: window.columns,
    target: { hostId: 'h', owner: 'alice', name: 'shop', ref: 'main' }, commit: 'abcdef0123456789abcdef0123456789',
    title: 'items @ main', pageSize: 100, totalRows: total, serverSort: true, serverFilter: true, frozenColumns: 1,
    rowsOf: { table: 'items', keyColumns: [0] },
    edit: { keyColumns: [0], locked: [null, null, null, null, null], nullable: window.nullable },
  }, extra || {});
  window.grid = new VdbEdit.ResultGrid(output, window.host, document.getElementById('host'), { maxHeight: 500 });
  if (output.edit && !output.edit.readOnly) window.send({ type: 'edit.overlay', sourceId: 'src1' }, window.cs.overlay());
};
window.send = function (head, body) { window.grid.receive(Object.assign({}, head, body)); };
window.checkKeys = function () {
  var keys = window.cs.keysToCheck();
  if (!keys.length) return;
  setTimeout(function () {
    var there = keys.filter(function (k) { return window.existingKeys.has(k[0]); });
    window.send({ type: 'edit.overlay', sourceId: 'src1' }, window.cs.recordExistingKeys(keys, there));
  }, 5);
};
window.host = {
  copy: function () {}, export: function () {},
  post: function (m) {
    window.posted.push(m);
    if (m.type === 'page.request') {
      setTimeout(function () {
        var rows = [];
        for (var i = m.start; i < Math.min(m.end, window.total); i++) rows.push([0, 1, 2, 3, 4].map(function (c) { return window.cellOf(i, c); }));
        window.grid.receive({ type: 'page.result', sourceId: m.sourceId, requestId: m.requestId, start: m.start, rows: rows });
      }, 2);
    } else if (m.type === 'edit.apply') {
      setTimeout(function () {
        try {
          window.send({ type: 'edit.overlay', sourceId: 'src1' }, window.cs.apply(m.request));
          window.checkKeys();
        } catch (e) {
          window.grid.receive({ type: 'edit.refused', sourceId: 'src1', message: e.message });
        }
      }, 2);
    }
  },
};
window.pasteText = function (text) {
  var dt = new DataTransfer();
  dt.setData('text/plain', text);
  document.querySelector('.vdb-grid').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
};`;

describeIfChromium('editing in the table browser grid (Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  let js: string;

  before(async () => {
    const b = await esbuild.build({
      entryPoints: ['test/unit/renderer/editingHarness.ts'],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
    });
    js = b.outputFiles[0]!.text;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  });
  after(async () => browser?.close());
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    await page.setContent('<div id="host"></div>');
    await page.addScriptTag({ content: js });
    await page.addScriptTag({ content: HOST_JS });
  });
  afterEach(async () => page?.close());

  const cell = (r: number, c: number): string => `.vdb-cell[data-r="${r}"][data-c="${c}"]:not(.placeholder)`;
  const text = (r: number, c: number): Promise<string> => page.locator(cell(r, c)).first().innerText();
  const counts = (): Promise<string> => page.locator('[data-counts]').innerText();
  const snapshot = (): Promise<any> => page.evaluate('window.cs.snapshot()');
  async function mount(total = 300, extra?: object): Promise<void> {
    await page.evaluate(`mount(${total}, ${JSON.stringify(extra ?? null)})`);
    await page.waitForSelector(cell(0, 1));
  }
  const paste = (clip: string): Promise<unknown> => page.evaluate(`pasteText(${JSON.stringify(clip)})`);
  async function waitText(r: number, c: number, want: string): Promise<void> {
    await page.locator(cell(r, c), { hasText: want }).first().waitFor();
    assert.equal(await text(r, c), want);
  }

  it('double-click, type, Enter: the cell shows the new value marked changed, the old one in its tooltip; the change set has the whole row', async () => {
    await mount();
    assert.match(await page.locator('.vdb-edithint').innerText(), /New rows are listed at the top of the grid/);
    await page.locator(cell(1, 1)).dblclick();
    const input = page.locator('.vdb-editor .vdb-editor-input');
    assert.equal(await input.inputValue(), 'name 2');
    assert.match(await page.locator('.vdb-editor-hint').innerText(), /Text, up to 20 characters/);
    await input.fill('renamed');
    await input.press('Enter');
    await waitText(1, 1, 'renamed');
    const c = page.locator(cell(1, 1));
    assert.match((await c.getAttribute('class')) ?? '', /changed/);
    assert.equal(await c.getAttribute('title'), 'Was: name 2');
    assert.equal(await page.locator('.vdb-row[data-kind="modified"]').count(), 1);
    assert.equal(await counts(), '1 changed · 0 new · 0 deleted');
    const snap = await snapshot();
    assert.deepEqual(snap.updated, [
      { before: ['2', 'name 2', '3.00', '1', '{"n": 2}'], after: ['2', 'renamed', '3.00', '1', '{"n": 2}'] },
    ]);
    // Enter moved the selection down.
    assert.equal(await page.locator('.vdb-cell.active').getAttribute('data-r'), '2');
  });

  it('typing on a cell starts editing with that character; Escape cancels; F2 edits the value and Tab commits and moves right', async () => {
    await mount();
    await page.locator(cell(2, 1)).click();
    await page.keyboard.press('x');
    const input = page.locator('.vdb-editor .vdb-editor-input');
    assert.equal(await input.inputValue(), 'x');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.vdb-editor').count(), 0);
    assert.equal(await text(2, 1), 'name 3');
    assert.equal((await page.evaluate("window.posted.filter(function (m) { return m.type === 'edit.apply'; }).length")) as number, 0);
    await page.keyboard.press('F2');
    assert.equal(await input.inputValue(), 'name 3');
    await input.press('End');
    await page.keyboard.type(' more');
    await page.keyboard.press('Tab');
    await waitText(2, 1, 'name 3 more');
    assert.equal(await page.locator('.vdb-cell.active').getAttribute('data-c'), '2');
  });

  it('Delete sets NULL, distinct from the empty string; NULL in a NOT NULL column is a problem at the cell and Propose stays off', async () => {
    await mount();
    await page.locator(cell(1, 2)).click();
    await page.keyboard.press('Delete');
    await page.locator(`${cell(1, 2)}.null.changed`).waitFor();
    assert.equal(await text(1, 2), 'NULL');
    // The empty string: open, clear, Enter.
    await page.locator(cell(2, 1)).dblclick();
    await page.locator('.vdb-editor-input').fill('');
    await page.keyboard.press('Enter');
    await page.locator(`${cell(2, 1)}.changed`).waitFor();
    const cls = (await page.locator(cell(2, 1)).getAttribute('class')) ?? '';
    assert.match(cls, /empty/);
    assert.doesNotMatch(cls, /null/);
    const snap = await snapshot();
    assert.deepEqual(
      snap.updated.map((u: any) => [u.after[0], u.after[1], u.after[2]]),
      [
        ['2', 'name 2', null],
        ['3', '', '4.50'],
      ],
    );
    // name is NOT NULL: the cell says why and the change set cannot be proposed.
    assert.equal(await page.locator('[data-edit="propose"]').isDisabled(), false);
    await page.locator(cell(3, 1)).click();
    await page.keyboard.press('Delete');
    const bad = page.locator(`${cell(3, 1)}.invalid`);
    await bad.waitFor();
    assert.equal(await bad.getAttribute('title'), 'name cannot be NULL.\nWas: name 4');
    assert.equal(await bad.getAttribute('aria-invalid'), 'true');
    assert.equal(await counts(), '3 changed · 0 new · 0 deleted · 1 with a problem');
    assert.equal(await page.locator('[data-edit="propose"]').isDisabled(), true);
    assert.equal(await page.locator('[data-edit="propose"]').getAttribute('title'), 'Fix the cells marked as problems first');
    // Fixing it enables Propose, which asks the host.
    await page.locator(cell(3, 1)).dblclick();
    await page.locator('.vdb-editor-problem', { hasText: 'name cannot be NULL.' }).waitFor();
    await page.locator('.vdb-editor-input').fill('fixed');
    await page.keyboard.press('Enter');
    await page.locator('[data-edit="propose"]:not([disabled])').waitFor();
    await page.locator('[data-edit="propose"]').click();
    const actions = await page.evaluate("window.posted.filter(function (m) { return m.type === 'edit.action'; })");
    assert.deepEqual(actions, [{ type: 'edit.action', sourceId: 'src1', action: 'propose' }]);
  });

  it('editors fit the column: a list for booleans, a larger box for JSON, numbers right-aligned; a value that does not fit is marked', async () => {
    await mount();
    await page.locator(cell(0, 3)).dblclick();
    const select = page.locator('.vdb-editor select.vdb-editor-input');
    assert.deepEqual(await select.locator('option').allInnerTexts(), ['1 (true)', '0 (false)', 'NULL']);
    await select.selectOption('1');
    await select.press('Enter');
    await waitText(0, 3, '1');
    await page.locator(cell(0, 4)).dblclick();
    assert.equal(await page.locator('.vdb-editor textarea.vdb-editor-input').count(), 1);
    await page.locator('.vdb-editor textarea').fill('{"n": ');
    await page.keyboard.press('Enter');
    await page.locator(`${cell(0, 4)}.invalid`).waitFor();
    assert.equal(await page.locator(cell(0, 4)).getAttribute('title'), 'data (json) needs valid JSON.\nWas: {"n": 1}');
    await page.locator(cell(0, 2)).dblclick();
    assert.match((await page.locator('.vdb-editor-input').getAttribute('class')) ?? '', /num/);
    await page.locator('.vdb-editor-input').fill('12.345');
    await page.keyboard.press('Enter');
    await page.locator(`${cell(0, 2)}.invalid`).waitFor();
  });

  it('Insert adds a row at the top, labelled new; a duplicate key is found by the server check; Ctrl+Delete deletes rows; undo and redo', async () => {
    await mount();
    await page.locator(cell(0, 1)).click();
    await page.keyboard.press('Insert');
    await page.locator('.vdb-row[data-kind="added"]').waitFor();
    assert.equal(await page.locator('.vdb-row[data-kind="added"] .vdb-rownum').innerText(), 'new');
    assert.equal(await page.locator('.vdb-cell.active').getAttribute('data-r'), '0');
    assert.equal(await text(1, 0), '1', 'the table rows follow the new row');
    assert.match((await page.locator('.vdb-summary').innerText()) ?? '', /301 rows/);
    // The new row's key: 5 is taken in the table (the host's server check says so).
    await page.keyboard.press('5');
    await page.keyboard.press('Tab');
    await page.keyboard.type('fresh');
    await page.keyboard.press('Enter');
    // The new row is invalid from the start (its key is missing), so wait past that state: read at
    // once, a busy machine showed the missing key's message before the typed key reached the grid.
    await page.locator(`${cell(0, 0)}.invalid:not([title^="Missing primary key"])`).waitFor();
    assert.equal(await page.locator(cell(0, 0)).getAttribute('title'), 'A row with id = 5 already exists in items.');
    await page.locator(cell(0, 0)).dblclick();
    await page.locator('.vdb-editor-input').fill('1000');
    await page.keyboard.press('Enter');
    await page.locator(`${cell(0, 0)}:not(.invalid):not(.pending)`, { hasText: '1000' }).waitFor();
    // Delete table rows 3–4 (view rows 3 and 4): struck through, still there.
    await page.locator(cell(3, 1)).click();
    await page.locator(cell(4, 1)).click({ modifiers: ['Shift'] });
    await page.keyboard.press('Control+Delete');
    await page.waitForFunction(`document.querySelectorAll('.vdb-row[data-kind="removed"]').length === 2`);
    assert.equal(await counts(), '0 changed · 1 new · 2 deleted');
    const snap = await snapshot();
    assert.deepEqual(snap.inserted, [['1000', 'fresh', null, null, null]]);
    assert.deepEqual(
      snap.deleted.map((r: any) => r[0]),
      ['3', '4'],
    );
    // A deleted row cannot be edited.
    await page.locator(cell(3, 1)).dblclick();
    assert.equal(await page.locator('.vdb-editor').count(), 0);
    // Undo the delete, then the key edit; redo both.
    await page.keyboard.press('Control+z');
    await page.waitForFunction(`document.querySelectorAll('.vdb-row[data-kind="removed"]').length === 0`);
    await page.keyboard.press('Control+z');
    await waitText(0, 0, '5');
    await page.keyboard.press('Control+Shift+Z');
    await waitText(0, 0, '1000');
    await page.keyboard.press('Control+y');
    await page.waitForFunction(`document.querySelectorAll('.vdb-row[data-kind="removed"]').length === 2`);
    // Deleting the new row removes it.
    await page.locator(cell(0, 1)).click();
    await page.keyboard.press('Control+Delete');
    await page.waitForFunction(`document.querySelectorAll('.vdb-row[data-kind="added"]').length === 0`);
    assert.equal(await text(0, 0), '1');
  });

  it('frozen key cells stay opaque on tinted rows (odd, new, deleted, selected), so cells scrolled beneath never show through', async () => {
    // Theme colors as VS Code's dark themes give them: tints translucent, the editor background not.
    const theme = {
      '--vscode-editor-background': 'rgb(30, 30, 30)',
      '--vscode-list-hoverBackground': 'rgba(255, 255, 255, 0.06)',
      '--vscode-diffEditor-insertedLineBackground': 'rgba(155, 185, 85, 0.2)',
      '--vscode-diffEditor-removedLineBackground': 'rgba(255, 0, 0, 0.2)',
      '--vscode-list-inactiveSelectionBackground': 'rgba(55, 55, 61, 0.5)',
    };
    await page.evaluate(`for (const [k, v] of Object.entries(${JSON.stringify(theme)})) document.documentElement.style.setProperty(k, v)`);
    await mount();
    await page.locator(cell(0, 1)).click();
    await page.keyboard.press('Insert');
    await page.locator('.vdb-row[data-kind="added"]').waitFor();
    await page.locator(cell(3, 1)).click();
    await page.keyboard.press('Control+Delete');
    await page.locator('.vdb-row[data-kind="removed"]').first().waitFor();
    await page.locator(cell(5, 0)).click();
    const backgrounds: { row: string; cell: string; color: string }[] = await page.evaluate(`
      [...document.querySelectorAll('.vdb-row:not([hidden]) .vdb-cell.frozen')].slice(0, 8).map((el) => ({
        row: el.closest('.vdb-row').className,
        cell: el.className,
        color: getComputedStyle(el).backgroundColor,
      }))`);
    assert.ok(backgrounds.some((b) => /\badded\b/.test(b.row)) && backgrounds.some((b) => /\bremoved\b/.test(b.row)));
    assert.ok(backgrounds.some((b) => /\bodd\b/.test(b.row)) && backgrounds.some((b) => /\bselected\b/.test(b.cell)));
    for (const b of backgrounds) assert.equal(b.color, 'rgb(30, 30, 30)', `${b.row} / ${b.cell}`);
  });

  it('pastes a block copied from a spreadsheet (quoted cells too); at a new row the extra rows become new rows; a ragged block is refused', async () => {
    await mount();
    await page.locator(cell(1, 1)).click();
    await paste('"two\tlines\nhere"\t9.50\r\nplain\t\r\n');
    await waitText(1, 1, 'two→lines↵here');
    await waitText(1, 2, '9.50');
    await waitText(2, 1, 'plain');
    assert.equal(await text(2, 2), 'NULL', 'an empty cell pastes as NULL');
    const snap = await snapshot();
    assert.deepEqual(
      snap.updated.map((u: any) => u.after.slice(0, 3)),
      [
        ['2', 'two\tlines\nhere', '9.50'],
        ['3', 'plain', null],
      ],
    );
    assert.equal(await page.evaluate('window.cs.counts().canUndo'), true);
    // One value into a selection fills it.
    await page.locator(cell(5, 2)).click();
    await page.locator(cell(7, 2)).click({ modifiers: ['Shift'] });
    await paste('1.00\n');
    await waitText(7, 2, '1.00');
    assert.equal(await text(6, 2), '1.00');
    // A new row, then rows pasted at it: the extra ones are new rows too.
    await page.keyboard.press('Insert');
    await page.locator('.vdb-row[data-kind="added"]').waitFor();
    await page.locator(cell(0, 0)).click();
    await paste('2001\tA\n2002\tB\n2003\tC\n');
    await page.waitForFunction(`document.querySelectorAll('.vdb-row[data-kind="added"]').length === 3`);
    assert.deepEqual((await snapshot()).inserted, [
      ['2001', 'A', null, null, null],
      ['2002', 'B', null, null, null],
      ['2003', 'C', null, null, null],
    ]);
    await paste('a\tb\nc\n');
    const refusal = page.locator('[data-banner="edit"]');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /not a rectangle of cells: row 2 has 1 cells, row 1 has 2/);
  });

  it('at a tag the grid stays read-only and says why: no edit bar, Enter shows the full value', async () => {
    await mount(300, {
      edit: { keyColumns: [0], locked: [null, null, null, null, null], nullable: [], readOnly: 'Read-only: v1 is a tag.' },
    });
    assert.equal(await page.locator('[data-banner="readonly"]').innerText(), 'Read-only: v1 is a tag.');
    assert.equal(await page.locator('.vdb-editbar').count(), 0);
    await page.locator(cell(0, 1)).click();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.vdb-editor').count(), 0);
    assert.equal(await page.locator('.vdb-detail pre').innerText(), 'name 1');
    await page.keyboard.press('x');
    assert.equal(await page.locator('.vdb-editor').count(), 0);
  });

  it('on a million rows an edit far down is found by key: only the pages on screen are read, and the overlay follows the row', async () => {
    await mount(1_000_000);
    await page.locator(cell(0, 1)).click();
    await page.keyboard.press('Control+End');
    await page.locator(cell(999_999, 1)).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await page.locator('.vdb-editor-input').fill('last');
    await page.keyboard.press('Enter');
    await waitText(999_999, 1, 'last');
    const asked = (await page.evaluate("window.posted.filter(function (m) { return m.type === 'page.request'; }).length")) as number;
    assert.ok(asked <= 8, `only pages near the screen are read (${asked})`);
    // A new row shifts every table row down by one; the edit stays on its row.
    await page.keyboard.press('Insert');
    await page.locator('.vdb-row[data-kind="added"]').waitFor();
    await page.keyboard.press('Control+End');
    await waitText(1_000_000, 1, 'last');
    assert.equal(await page.locator(`.vdb-rownum[data-rownum="1000000"]`).innerText(), '1000000');
  });
});
