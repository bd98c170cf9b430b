// Running SQL from a plain .sql editor into the result panel, with a scripted person picking the
// target: the statement under the cursor runs (not the whole file), at the picked branch, and lands
// in the query history; the panel opens titled with the target.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../../src/shared/ids';
import { silentLogger } from '../../src/core/logger';
import type { NotebookCommandDeps } from '../../src/notebook/notebookCommandDeps';
import { runSqlInEditor } from '../../src/notebook/runIntoPanel';
import { EditorTargets } from '../../src/notebook/sqlEditorTargets';
import { RefResolver } from '../../src/notebook/queryRunner';
import { QueryHistoryStore } from '../../src/notebook/queryHistoryStore';
import { SqlResultPanel } from '../../src/notebook/sqlResultPanel';
import { harness, type Harness } from './versioningHarness';
import { MemoryMemento } from './memoryMemento';

describe('SQL notebooks: .sql editor into the result panel', function () {
  this.timeout(120_000);
  let h: Harness;
  const db = { owner: 'alice', name: 'prices' };

  before(async () => {
    h = await harness();
    if (!h.api.services.accounts.activeAccount(h.hostId)) await h.signInAsAlice();
    await h.api.tree.databases.add(h.hostId, db);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('runs the statement under the cursor at the picked branch and records it in the history', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const clients = h.api.services.clients;
    const refs = new RefResolver((id) => clients.clientFor(id));
    const history = new QueryHistoryStore(new MemoryMemento(), () => 100);
    const panel = new SqlResultPanel(ext.extensionUri, async () => undefined, silentLogger);
    const deps: NotebookCommandDeps = {
      ui: h.ui,
      clients,
      sql: h.api.services.sql,
      databases: h.api.tree.databases,
      refs,
      history,
      panel,
      settings: () => ({ rowLimit: 1000, timeoutMs: 30_000, historySize: 100, saveOutputs: false }),
      editorTargets: new EditorTargets(new MemoryMemento()),
      onTargetsChanged: () => undefined,
      log: silentLogger,
    };
    const text = 'SELECT 1 AS first;\nSELECT count(*) AS n FROM products;\n';
    const doc = await vscode.workspace.openTextDocument({ language: 'sql', content: text });
    const editor = await vscode.window.showTextDocument(doc);
    const inSecond = doc.positionAt(text.indexOf('count'));
    editor.selection = new vscode.Selection(inSecond, inSecond);
    // Several databases may be in the tree by now (the picker offers those on running hosts
    // only, and asks only when there is more than one): pick ours, then the branch.
    const running = new Set(h.api.services.clients.hosts().map((x) => x.id));
    const offered = h.api.tree.databases
      .hostIds()
      .filter((id) => running.has(id))
      .flatMap((id) => h.api.tree.databases.list(id));
    if (offered.length > 1) h.ui.answer('alice/prices');
    h.ui.answer('main');
    await runSqlInEditor(deps);
    assert.deepEqual(h.ui.errors, []);
    const [entry] = history.all();
    assert.equal(entry?.sql, 'SELECT count(*) AS n FROM products');
    assert.deepEqual(entry?.target, { hostId: h.hostId, ...db, ref: 'main' });
    const server = await h.server.runSql(db, { ref: 'main', q: 'SELECT count(*) AS n FROM products' });
    assert.equal(entry?.rowCount, server.rows.length);
    assert.equal(entry?.status, 'success');
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
    assert.ok(tabs.includes('SQL: alice/prices @ main'), `no result panel among ${tabs.join(', ')}`);
    // The target is remembered: a second run asks nothing.
    editor.selection = new vscode.Selection(doc.positionAt(2), doc.positionAt(2));
    await runSqlInEditor(deps);
    assert.equal(history.all()[0]?.sql, 'SELECT 1 AS first');
    assert.equal(h.ui.remaining(), 0);
    panel.dispose();
  });
});
