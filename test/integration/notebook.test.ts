// SQL notebooks inside a real extension host against the seeded hub: cells run through the real
// controller (notebook.cell.execute), outputs carry the grid JSON and the markdown fallback,
// and every answer is checked against the server itself.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, Notebooks, Settings } from '../../src/shared/ids';
import { QUERY_RESULT_MIME } from '../../src/shared/mime';
import type { QueryOutput } from '../../src/shared/queryResultOutput';
import { toVscode } from '../../src/notebook/sqlNotebookSerializer';
import type { NotebookData } from '../../src/core/sql/notebookDocument';
import { waitFor } from '../helpers/waitFor.cjs';
import { harness, type Harness } from './versioningHarness';

const SLOW_SQL = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500000000) SELECT count(*) FROM c';

describe('SQL notebooks', function () {
  this.timeout(120_000);
  let h: Harness;
  const db = { owner: 'alice', name: 'prices' };

  before(async () => {
    // VS Code asks for workspace trust before running any notebook cell, and nobody answers in a
    // test: say so at once instead of timing out every test.
    assert.ok(
      vscode.workspace.isTrusted,
      'the test workspace is not trusted, so notebook cells cannot run: start the VS Code server with --disable-workspace-trust',
    );
    h = await harness();
    if (!h.api.services.accounts.activeAccount(h.hostId)) await h.signInAsAlice();
    await h.api.tree.databases.add(h.hostId, db);
  });

  afterEach(async () => {
    const config = vscode.workspace.getConfiguration();
    await config.update(Settings.sqlRowLimit, undefined, vscode.ConfigurationTarget.Global);
    await config.update(Settings.sqlTimeoutMs, undefined, vscode.ConfigurationTarget.Global);
    // Reverting first: closing a dirty untitled notebook would ask to save and wait forever.
    await within(vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor'), 10_000, 'close the notebook').catch(
      () => undefined,
    );
    await within(vscode.commands.executeCommand('workbench.action.closeAllEditors'), 10_000, 'close editors').catch(() => undefined);
  });

  async function openNotebook(cells: { sql: string; ref?: string }[], ref = 'main'): Promise<vscode.NotebookDocument> {
    const data: NotebookData = {
      version: 1,
      target: { hostId: h.hostId, ...db, ref },
      cells: cells.map((c) => ({
        kind: 'sql' as const,
        source: c.sql,
        ...(c.ref ? { target: { hostId: h.hostId, ...db, ref: c.ref } } : {}),
      })),
    };
    const doc = await vscode.workspace.openNotebookDocument(Notebooks.type, toVscode(data));
    await within(vscode.window.showNotebookDocument(doc), 20_000, 'show the notebook');
    // The kernel id VS Code uses is `<extension id>/<controller id>`; selecting it up front
    // means no kernel picker can wait for an answer nobody gives.
    await within(
      vscode.commands.executeCommand('_notebook.selectKernel', { id: Notebooks.controller, extension: EXTENSION_ID }),
      20_000,
      'select the SQL kernel',
    );
    return doc;
  }

  /** Fails with a message instead of hanging the whole suite (e.g. on a kernel picker nobody answers). */
  async function within<T>(p: Thenable<T>, ms: number, what: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    });
    try {
      return await Promise.race([Promise.resolve(p), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function run(doc: vscode.NotebookDocument, index: number): Promise<void> {
    await within(
      vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: index, end: index + 1 }], document: doc.uri }),
      60_000,
      'execute the cell',
    );
    // The command resolves when the execution was handed over; wait for it to end.
    await waitFor(
      `cell ${index} to finish`,
      () => {
        const summary = doc.cellAt(index).executionSummary;
        return !!summary?.timing?.endTime || summary?.success === false;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
  }

  function outputsOf(doc: vscode.NotebookDocument, index: number): QueryOutput[] {
    return doc
      .cellAt(index)
      .outputs.map((o) => o.items.find((i) => i.mime === QUERY_RESULT_MIME))
      .filter((i): i is vscode.NotebookCellOutputItem => !!i)
      .map((i) => JSON.parse(new TextDecoder().decode(i.data)) as QueryOutput);
  }

  function markdownOf(doc: vscode.NotebookDocument, index: number): string {
    const item = doc.cellAt(index).outputs[0]?.items.find((i) => i.mime === 'text/markdown');
    return item ? new TextDecoder().decode(item.data) : '';
  }

  it('runs a cell at a branch: the grid JSON matches the server, with the commit it ran at and a markdown fallback', async () => {
    const sql = 'SELECT id, name, price FROM products ORDER BY id';
    const doc = await openNotebook([{ sql }]);
    await run(doc, 0);
    const [out] = outputsOf(doc, 0);
    assert.ok(out, 'no grid output');
    const server = await h.server.runSql(db, { ref: 'main', q: sql });
    assert.equal(out.result.status, 'success');
    assert.deepEqual(out.result.rows, server.rows);
    assert.deepEqual(
      out.result.columns.map((c) => c.name),
      ['id', 'name', 'price'],
    );
    const main = (await h.server.listBranches(db)).items.find((b) => b.name === 'main');
    assert.equal(out.commit, main?.head_commit_sha);
    assert.equal(doc.cellAt(0).executionSummary?.success, true);
    assert.match(markdownOf(doc, 0), /\| id \| name \| price \|/);
  });

  it('each statement of a cell gets its own grid', async () => {
    const doc = await openNotebook([{ sql: 'SELECT 1 AS one;\nSELECT 2 AS two;' }]);
    await run(doc, 0);
    assert.deepEqual(
      outputsOf(doc, 0).map((o) => o.result.rows),
      [[['1']], [['2']]],
    );
  });

  it('row_limit: only the limit comes back, with the banner status and the server message', async () => {
    await vscode.workspace.getConfiguration().update(Settings.sqlRowLimit, 2, vscode.ConfigurationTarget.Global);
    const doc = await openNotebook([{ sql: 'SELECT * FROM products' }]);
    await run(doc, 0);
    const [out] = outputsOf(doc, 0);
    assert.equal(out?.result.status, 'row_limit');
    assert.ok((out?.result.rows.length ?? 0) <= 2);
    assert.ok(out?.result.message, 'no server message');
    assert.equal(out?.limit, 2);
    assert.match(markdownOf(doc, 0), /rowLimit/);
  });

  it('a SQL error is a result with the server message, not an exception', async () => {
    const doc = await openNotebook([{ sql: 'SELECT * FROM no_such_table' }]);
    await run(doc, 0);
    const [out] = outputsOf(doc, 0);
    assert.equal(out?.result.status, 'error');
    assert.match(out?.result.message ?? '', /no_such_table/);
    assert.equal(doc.cellAt(0).executionSummary?.success, false);
  });

  it('timeout: a slow query stops at the configured timeout and says so', async () => {
    await vscode.workspace.getConfiguration().update(Settings.sqlTimeoutMs, 1000, vscode.ConfigurationTarget.Global);
    const doc = await openNotebook([{ sql: SLOW_SQL }]);
    const started = Date.now();
    await run(doc, 0);
    const [out] = outputsOf(doc, 0);
    assert.equal(out?.result.status, 'timeout');
    assert.ok(Date.now() - started < 30_000);
  });

  it('cancel aborts the request and the cell ends without an error', async () => {
    const doc = await openNotebook([{ sql: SLOW_SQL }]);
    const execution = vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: doc.uri });
    // The controller took the cell (its execution order is set as it starts, before any request).
    await waitFor('the cell to start running', () => doc.cellAt(0).executionSummary?.executionOrder !== undefined, {
      timeoutMs: 30_000,
      intervalMs: 20,
    });
    const started = Date.now();
    await vscode.commands.executeCommand('notebook.cell.cancelExecution', { ranges: [{ start: 0, end: 1 }], document: doc.uri });
    await execution;
    await waitFor('the cancelled cell to say so', () => doc.cellAt(0).outputs.length > 0, { intervalMs: 100 });
    assert.ok(Date.now() - started < 10_000, 'cancelling took too long');
    const text = doc
      .cellAt(0)
      .outputs.flatMap((o) => o.items)
      .map((i) => new TextDecoder().decode(i.data))
      .join('\n');
    assert.match(text, /Cancelled/);
    assert.equal(outputsOf(doc, 0).length, 0);
    // The hub still answers.
    assert.equal((await h.server.runSql(db, { ref: 'main', q: 'SELECT 1' })).status, 'success');
  });

  it('runs at a commit hash and at a tag, each answering as the server does at that ref', async () => {
    const tags = (await h.server.listTags(db)).items;
    const v1 = tags.find((t) => t.name === 'v1');
    assert.ok(v1, 'seeded tag v1 missing');
    const sql = 'SELECT count(*) AS n FROM products';
    const doc = await openNotebook([
      { sql, ref: v1.commit_sha },
      { sql, ref: 'v1' },
    ]);
    await run(doc, 0);
    await run(doc, 1);
    const [atCommit] = outputsOf(doc, 0);
    const [atTag] = outputsOf(doc, 1);
    const expected = await h.server.runSql(db, { ref: v1.commit_sha, q: sql });
    assert.deepEqual(atCommit?.result.rows, expected.rows);
    assert.deepEqual(atTag?.result.rows, expected.rows);
    assert.equal(atTag?.commit, v1.commit_sha);
    assert.equal(atCommit?.target.ref, v1.commit_sha);
  });

  it('completes table names after FROM from the schema at the cell ref', async () => {
    const doc = await openNotebook([{ sql: 'SELECT * FROM ' }]);
    const cell = doc.cellAt(0);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      cell.document.uri,
      new vscode.Position(0, 'SELECT * FROM '.length),
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('products'), `no products in ${labels.slice(0, 20).join(', ')}`);
    assert.ok(labels.includes('stores'));
  });
});
