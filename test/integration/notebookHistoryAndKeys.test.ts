// In a real VS Code: the query history picker searches SQL text, database and ref as you type
// (not only the label the quick pick shows), and the context key that scopes Ctrl+Enter follows
// the active editor: true only for a .sql editor with a Versioned DB target.
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { silentLogger } from '../../src/core/logger';
import { historyLabel, type HistoryEntry } from '../../src/core/sql/history';
import type { NotebookCommandDeps } from '../../src/notebook/notebookCommandDeps';
import { showQueryHistory, type HistoryPickItem } from '../../src/notebook/queryHistoryCommands';
import { EditorTargets, SqlEditorTargetContext } from '../../src/notebook/sqlEditorTargets';
import { QueryHistoryStore } from '../../src/notebook/queryHistoryStore';
import { hostScriptedUi } from './hostScriptedUi';
import { MemoryMemento } from './memoryMemento';
import { waitFor } from '../helpers/waitFor.cjs';

const target = (ref: string) => ({ hostId: 'http://127.0.0.1:1', owner: 'alice', name: 'prices', ref });
const longSql = `SELECT ${Array.from({ length: 20 }, (_, i) => `price_column_${i}`).join(', ')} FROM warehouse_stock`;

describe('SQL notebooks: query history picker and the Ctrl+Enter context key', function () {
  this.timeout(60_000);

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('typing a table name or a branch finds entries whose label does not show it; Enter picks one', async () => {
    const history = new QueryHistoryStore(new MemoryMemento(), () => 100);
    const entry = (id: string, sql: string, ref: string): HistoryEntry => ({
      id,
      sql,
      target: target(ref),
      ranAt: `2026-11-2${id}T10:00:00Z`,
      status: 'success',
      rowCount: 3,
      elapsedMs: 4,
    });
    // Added oldest first; the history lists newest first.
    await history.add(entry('1', 'SELECT * FROM products', 'main'));
    await history.add(entry('2', longSql, 'release-7'));
    await history.add(entry('3', 'SELECT count(*) FROM stores', 'feature-x'));
    const ui = hostScriptedUi();
    const deps = { ui, history, log: silentLogger } as unknown as NotebookCommandDeps;

    let qp: vscode.QuickPick<HistoryPickItem> | undefined;
    const shown = showQueryHistory(deps, () => (qp = vscode.window.createQuickPick<HistoryPickItem>()));
    const picker = await waitFor('the history picker', () => qp);
    const labels = (): string[] => picker.items.map((i) => i.label);
    assert.deepEqual(labels(), ['SELECT count(*) FROM stores', historyLabel(history.all()[1]!), 'SELECT * FROM products']);
    assert.ok(!labels()[1]!.includes('warehouse_stock'), 'the shortened label hides the table name');
    assert.equal(picker.matchOnDescription, false);
    assert.equal(picker.matchOnDetail, false);

    picker.value = 'warehouse_stock';
    await waitFor('the search for a table', () => labels().length === 1);
    assert.deepEqual(labels(), [historyLabel(history.all()[1]!)]);

    picker.value = 'feature-x';
    await waitFor('the search for a branch', () => labels()[0] === 'SELECT count(*) FROM stores' && labels().length === 1);

    picker.value = 'no such words';
    await waitFor('no match', () => labels().length === 0);

    // Pick the long one with the keyboard, then "Copy SQL" in the next step.
    picker.value = 'release-7 price_column_19';
    await waitFor('the search for a ref and a column', () => labels().length === 1);
    picker.activeItems = [picker.items[0]!];
    ui.answer('Copy SQL');
    // The picker lives in the workbench: under load it may not be showing yet when the extension
    // host's state already is, and an accept before that does nothing. Accept until it is taken.
    let settled = false;
    void shown.finally(() => (settled = true));
    await waitFor(
      'the picker to take Enter',
      async () => {
        if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return settled;
      },
      { timeoutMs: 20_000, intervalMs: 500 },
    );
    await shown;
    assert.deepEqual(ui.copied, [longSql]);
    assert.equal(ui.remaining(), 0);
  });

  it('versionedDb.sqlEditorHasTarget is true only while a .sql editor with a target is active', async () => {
    const targets = new EditorTargets(new MemoryMemento());
    const values: boolean[] = [];
    const context = new SqlEditorTargetContext(targets, (v) => values.push(v));
    // Files on disk, not untitled documents: those are dirty and would stay open (asking to be
    // saved) into the next test file, which runs SQL from whatever editor is active.
    const dir = mkdtempSync(join(tmpdir(), 'vdb-keys-'));
    const file = (name: string, text: string): vscode.Uri => {
      writeFileSync(join(dir, name), text);
      return vscode.Uri.file(join(dir, name));
    };
    try {
      const sqlA = await vscode.workspace.openTextDocument(file('a.sql', 'SELECT 1;'));
      await vscode.window.showTextDocument(sqlA);
      await waitFor('a .sql editor', () => vscode.window.activeTextEditor?.document === sqlA);
      context.update();
      assert.equal(context.value, false, 'no target yet: Ctrl+Enter is left to other SQL extensions');

      await targets.set(sqlA.uri, target('main'));
      assert.equal(context.value, true, 'setting the target turns it on at once');

      const text = await vscode.workspace.openTextDocument(file('notes.txt', 'SELECT 1;'));
      await vscode.window.showTextDocument(text);
      await waitFor('leaving the .sql editor', () => !context.value);

      const sqlB = await vscode.workspace.openTextDocument(file('b.sql', 'SELECT 2;'));
      await vscode.window.showTextDocument(sqlB);
      await waitFor('the second .sql editor', () => vscode.window.activeTextEditor?.document === sqlB);
      assert.equal(context.value, false, 'another .sql file without a target');

      await vscode.window.showTextDocument(sqlA);
      await waitFor('back in the first .sql editor', () => context.value);
      assert.deepEqual(
        values.filter((v, i) => i === 0 || v !== values[i - 1]),
        values,
        'the key is set only when it changes',
      );
      assert.equal(values.at(-1), true);
    } finally {
      context.dispose();
      targets.dispose();
    }
  });
});
