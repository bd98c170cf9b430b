// Load All Rows in a real extension host against the seeded hub: which notebook results offer it
// (and why others do not), the sessions that serve a loaded result ending with their cell and
// their notebook, and the streamed export of every row (file written; cancelled → no file).
// What the grid draws is the e2e scenarios' part (54, 55); here the host side is driven directly.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, Notebooks, Settings } from '../../src/shared/ids';
import { QUERY_RESULT_MIME } from '../../src/shared/mime';
import type { QueryOutput } from '../../src/shared/queryResultOutput';
import { toVscode } from '../../src/notebook/sqlNotebookSerializer';
import type { NotebookData } from '../../src/core/sql/notebookDocument';
import { waitFor } from '../helpers/waitFor.cjs';
import { harness, type Harness } from './versioningHarness';

describe('Load All Rows (notebook host side)', function () {
  this.timeout(120_000);
  let h: Harness;
  const db = { owner: 'alice', name: 'prices' };
  const restore: (() => void)[] = [];

  before(async () => {
    assert.ok(vscode.workspace.isTrusted, 'the test workspace is not trusted, so notebook cells cannot run');
    h = await harness();
    if (!h.api.services.accounts.activeAccount(h.hostId)) await h.signInAsAlice();
    await h.api.tree.databases.add(h.hostId, db);
    await vscode.workspace.getConfiguration().update(Settings.sqlRowLimit, 2, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration().update(Settings.sqlRowLimit, undefined, vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    for (const r of restore.splice(0)) r();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors').then(undefined, () => undefined);
  });

  async function openNotebook(sqls: string[]): Promise<vscode.NotebookEditor> {
    const data: NotebookData = {
      version: 1,
      target: { hostId: h.hostId, ...db, ref: 'main' },
      cells: sqls.map((source) => ({ kind: 'sql' as const, source })),
    };
    const doc = await vscode.workspace.openNotebookDocument(Notebooks.type, toVscode(data));
    const editor = await vscode.window.showNotebookDocument(doc);
    await vscode.commands.executeCommand('_notebook.selectKernel', { id: Notebooks.controller, extension: EXTENSION_ID });
    return editor;
  }

  async function run(doc: vscode.NotebookDocument, index: number): Promise<void> {
    const before = doc.cellAt(index).executionSummary?.executionOrder;
    await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: index, end: index + 1 }], document: doc.uri });
    await waitFor(
      `cell ${index} to finish`,
      () => {
        const s = doc.cellAt(index).executionSummary;
        return s?.executionOrder !== before && (!!s?.timing?.endTime || s?.success === false);
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
  }

  function outputOf(doc: vscode.NotebookDocument, index: number): QueryOutput {
    const item = doc.cellAt(index).outputs[0]?.items.find((i) => i.mime === QUERY_RESULT_MIME);
    assert.ok(item, `cell ${index} has no grid output`);
    return JSON.parse(new TextDecoder().decode(item.data)) as QueryOutput;
  }

  const loadAll = () => h.api.notebooks.loadAll;

  it('offers Load All Rows on a single SELECT past the limit; says why not for repeated names and for SHOW', async () => {
    const editor = await openNotebook([
      'SELECT id, name FROM products',
      'SELECT id, name AS id FROM products',
      'SHOW TABLES',
      'SELECT 1 AS one',
    ]);
    for (let i = 0; i < 4; i++) await run(editor.notebook, i);
    const [select, repeated, show, small] = [0, 1, 2, 3].map((i) => outputOf(editor.notebook, i));
    assert.equal(select!.result.status, 'row_limit');
    assert.equal(select!.canLoadAll, true);
    assert.ok(select!.key);
    assert.equal(repeated!.canLoadAll, undefined);
    assert.match(repeated!.loadAllUnavailable ?? '', /more than one column named "id"/);
    assert.equal(show!.result.status, 'row_limit', 'the seed has more than 2 tables');
    assert.match(show!.loadAllUnavailable ?? '', /Only SELECT queries can be paged; this is SHOW/);
    assert.equal(small!.result.status, 'success');
    assert.equal(small!.canLoadAll, undefined);
    assert.equal(small!.loadAllUnavailable, undefined);
  });

  it('serves a loaded result until its cell runs again or its notebook closes; refuses what it cannot page', async () => {
    const editor = await openNotebook(['SELECT id, name FROM products ORDER BY id', 'SELECT id, name AS id FROM products']);
    await run(editor.notebook, 0);
    await run(editor.notebook, 1);
    const out = outputOf(editor.notebook, 0);
    assert.equal(loadAll().handle(editor, { type: 'loadAll', key: out.key, outputId: 'o1' }), true);
    assert.equal(loadAll().sessions.length, 1);
    const main = (await h.server.listBranches(db)).items.find((b) => b.name === 'main');
    assert.equal(loadAll().sessions[0]!.output.commit, main?.head_commit_sha, 'pages are read at the commit the cell ran at');
    // Repeated names, an unknown key: refused, nothing served.
    loadAll().handle(editor, { type: 'loadAll', key: outputOf(editor.notebook, 1).key, outputId: 'o2' });
    loadAll().handle(editor, { type: 'loadAll', key: 'not-a-result', outputId: 'o3' });
    assert.equal(loadAll().sessions.length, 1);
    // Running the cell again replaces its outputs: the session ends with them.
    await run(editor.notebook, 0);
    assert.equal(loadAll().sessions.length, 0);
    loadAll().handle(editor, { type: 'loadAll', key: outputOf(editor.notebook, 0).key, outputId: 'o1' });
    assert.equal(loadAll().sessions.length, 1);
    // The grid going away (re-rendered) ends it too.
    loadAll().handle(editor, { type: 'paged.closed', sourceId: loadAll().sessions[0]!.sourceId, outputId: 'o1' });
    assert.equal(loadAll().sessions.length, 0);
    loadAll().handle(editor, { type: 'loadAll', key: outputOf(editor.notebook, 0).key, outputId: 'o1' });
    assert.equal(loadAll().sessions.length, 1);
    const uri = editor.notebook.uri.toString();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    const open = () => vscode.workspace.notebookDocuments.some((d) => d.uri.toString() === uri);
    await waitFor('the notebook to close', () => !open(), { timeoutMs: 20_000, intervalMs: 100 });
    assert.equal(loadAll().sessions.length, 0, 'closing the notebook ends its sessions');
  });

  function stub<K extends keyof typeof vscode.window>(name: K, fake: unknown): void {
    const w = vscode.window as unknown as Record<string, unknown>;
    const original = w[name];
    w[name] = fake;
    restore.push(() => {
      w[name] = original;
    });
  }

  it('exports every row of a loaded result to CSV; a cancelled export leaves no file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vdb-loadall-'));
    const target = path.join(dir, 'products.csv');
    stub('showSaveDialog', async () => vscode.Uri.file(target));
    const editor = await openNotebook(['SELECT id, name, price FROM products ORDER BY id']);
    await run(editor.notebook, 0);
    loadAll().handle(editor, { type: 'loadAll', key: outputOf(editor.notebook, 0).key, outputId: 'o1' });
    const session = loadAll().sessions[0]!;
    loadAll().handle(editor, { type: 'export.stream', sourceId: session.sourceId, format: 'csv', outputId: 'o1' });
    assert.equal(await session.lastExport, target);
    const plain = await h.server.runSql(db, { ref: 'main', q: 'SELECT id, name, price FROM products ORDER BY id' });
    assert.equal(plain.status, 'success');
    const lines = fs.readFileSync(target, 'utf8').trimEnd().split('\r\n');
    assert.equal(lines[0], 'id,name,price');
    assert.equal(lines.length, plain.rows.length + 1, 'every row, not just the two of the first response');
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',')[0]),
      plain.rows.map((r) => r[0]),
    );

    // Cancelled from the progress notification: nothing under the name, nothing beside it.
    const cancelled = path.join(dir, 'cancelled.csv');
    stub('showSaveDialog', async () => vscode.Uri.file(cancelled));
    let ran = false;
    stub('withProgress', async (_o: unknown, task: (p: unknown, t: vscode.CancellationToken) => Promise<unknown>) => {
      ran = true;
      const source = new vscode.CancellationTokenSource();
      source.cancel();
      return task({ report: () => undefined }, source.token);
    });
    loadAll().handle(editor, { type: 'export.stream', sourceId: session.sourceId, format: 'csv', outputId: 'o1' });
    assert.equal(await session.lastExport, undefined, 'a cancelled export saves nothing');
    assert.ok(ran, 'the export started');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['products.csv']);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
