// The user's SQL timeout setting reaches every feature's requests (issue #22): with
// `versionedDb.sql.timeoutMs` set, each feature is driven the way a person would drive it (the
// registered commands, the live tree) on a second host, a recording forwarder in front of the test
// hub, and every SQL request the forwarder saw carries that timeout. Before the one SQL port only
// notebook runs and Load All Rows did.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { signIn } from '../../src/auth/signInFlow';
import { normalizeSiteUrl } from '../../src/core/hostUrl';
import { silentLogger } from '../../src/core/logger';
import type { NotebookData } from '../../src/core/sql/notebookDocument';
import { toVscode } from '../../src/notebook/sqlNotebookSerializer';
import { Commands, EXTENSION_ID, Notebooks, Settings } from '../../src/shared/ids';
import { QUERY_RESULT_MIME } from '../../src/shared/mime';
import type { QueryOutput } from '../../src/shared/queryResultOutput';
import type { TreeNode } from '../../src/tree/treeNodes';
import { waitFor } from '../helpers/waitFor.cjs';
import { integrationConfig } from './testEnv';
import { harness, labelOf, type Harness } from './versioningHarness';

const TIMEOUT = 4321;

/** One SQL request as the forwarder saw it. */
interface SqlSeen {
  method: string;
  q: string;
  timeout: number | undefined;
}

/** A loopback HTTP forwarder to the hub that records the SQL requests passing through. */
async function recordingForwarder(hubUrl: string): Promise<{ url: string; seen: SqlSeen[]; close(): Promise<void> }> {
  const hub = new URL(hubUrl);
  const seen: SqlSeen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', hub);
      if (/\/sql$/.test(url.pathname)) seen.push(sqlSeen(req.method ?? '', url, body));
      const headers = { ...req.headers, host: hub.host };
      const out = http.request({ host: hub.hostname, port: hub.port, method: req.method, path: req.url, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(() => r())) };
}

function sqlSeen(method: string, url: URL, body: Buffer): SqlSeen {
  if (method === 'GET') {
    const t = url.searchParams.get('timeout_ms');
    return { method, q: url.searchParams.get('q') ?? '', timeout: t === null ? undefined : Number(t) };
  }
  const j = JSON.parse(body.toString('utf8')) as { q?: string; timeout_ms?: number };
  return { method, q: j.q ?? '', timeout: j.timeout_ms };
}

describe('the SQL timeout setting reaches every feature', function () {
  this.timeout(180_000);
  const config = integrationConfig();
  const db = { owner: 'alice', name: 'prices' };
  let h: Harness;
  let rec: Awaited<ReturnType<typeof recordingForwarder>>;
  let hostId: string;
  let hostsBefore: unknown;

  before(async () => {
    h = await harness();
    rec = await recordingForwarder(config.hubUrl);
    hostId = normalizeSiteUrl(rec.url);
    const configuration = vscode.workspace.getConfiguration();
    hostsBefore = configuration.get(Settings.hosts);
    await configuration.update(
      Settings.hosts,
      [
        { name: 'Test Hub', url: config.hubUrl },
        { name: 'Recording Hub', url: rec.url },
      ],
      true,
    );
    await configuration.update(Settings.sqlTimeoutMs, TIMEOUT, true);
    await configuration.update(Settings.sqlRowLimit, 2, true);
    await waitFor('the recording host', () => h.api.services.clients.host(hostId), { timeoutMs: 30_000 });
    h.ui.answer('Personal access token', config.token);
    const account = await signIn(
      {
        ui: h.ui,
        accounts: h.api.services.accounts,
        hosts: () => h.api.services.clients.hosts(),
        validate: (site, token, signal) => h.api.services.validate(site, token, signal),
        oauth: () => Promise.reject(new Error('not in this test')),
        signInToLocalHub: async () => undefined,
        log: silentLogger,
      },
      hostId,
    );
    assert.equal(account?.username, 'alice');
    await h.api.tree.databases.add(hostId, db);
  });

  after(async () => {
    const configuration = vscode.workspace.getConfiguration();
    await configuration.update(Settings.sqlTimeoutMs, undefined, true);
    await configuration.update(Settings.sqlRowLimit, undefined, true);
    await configuration.update(Settings.hosts, hostsBefore, true);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rec?.close();
  });

  /** Runs `act`, waits until it sent SQL through the recording host, and checks every request's timeout. */
  async function feature(name: string, act: () => Promise<unknown>, sent: (s: SqlSeen) => boolean = () => true): Promise<void> {
    const from = rec.seen.length;
    await act();
    const mine = await waitFor(
      `${name} to send SQL`,
      () => {
        const s = rec.seen.slice(from);
        return s.some(sent) ? s : undefined;
      },
      { timeoutMs: 30_000 },
    );
    assert.deepEqual(
      mine.filter((s) => s.timeout !== TIMEOUT).map((s) => `${s.method} ${s.q.slice(0, 80)} timeout_ms=${s.timeout}`),
      [],
      `${name}: every SQL request carries the timeout setting`,
    );
  }

  const node = async (...path: string[]): Promise<TreeNode> => {
    const parent = await h.childrenAt('Recording Hub', ...path.slice(0, -1));
    const found = parent.find((n) => labelOf(n, h) === path.at(-1) || (n.kind === 'category' && n.category === path.at(-1)));
    assert.ok(found, `no ${path.join(' → ')}`);
    return found;
  };
  const childOfKind = async (parent: TreeNode, kind: TreeNode['kind']): Promise<TreeNode> => {
    const found = (await h.api.tree.model.children(parent)).find((n) => n.kind === kind);
    assert.ok(found, `no ${kind} under ${labelOf(parent, h)}`);
    return found;
  };

  it('the tree: Tables at a branch and the Commits list (history)', async () => {
    const main = await node('alice/prices', 'Branches', 'main');
    await feature('Tables', async () => h.api.tree.model.children(await childOfKind(main, 'tables')));
    await feature('Commits', async () => h.api.tree.model.children(await childOfKind(main, 'commits')));
  });

  it('the table browser', async () => {
    const main = await node('alice/prices', 'Branches', 'main');
    const tables = await h.api.tree.model.children(await childOfKind(main, 'tables'));
    const products = tables.find((n) => n.kind === 'table' && n.table.name === 'products');
    assert.ok(products, 'no products table');
    await feature(
      'the table browser',
      () => Promise.resolve(vscode.commands.executeCommand(Commands.openTable, products)),
      (s) => /FROM `products`/.test(s.q),
    );
  });

  it('the Changes view, row history and a pull view with its merge preview', async () => {
    const target = { hostId, db };
    await feature('Changes', () =>
      Promise.resolve(vscode.commands.executeCommand(Commands.showChanges, { kind: 'refs', target, from: 'main~1', to: 'main' })),
    );
    const first = (await h.server.runSql(db, { ref: 'main', q: 'SELECT id FROM products ORDER BY id LIMIT 1' })).rows[0]![0];
    await feature('row history', () =>
      Promise.resolve(
        vscode.commands.executeCommand(Commands.showRowHistory, { target, ref: 'main', table: 'products', key: { id: first } }),
      ),
    );
    const open = (await h.server.listPulls(db)).items.find((p) => p.state === 'open');
    assert.ok(open, 'the seed has an open pull');
    await feature(
      'the pull view',
      () => Promise.resolve(vscode.commands.executeCommand(Commands.showPullRequest, { hostId, db, pullNumber: open.pull_number })),
      (s) => /dolt_merge_base|DOLT_PREVIEW|dolt_preview/i.test(s.q),
    );
  });

  it('a notebook cell and Load All Rows of its result', async () => {
    const data: NotebookData = {
      version: 1,
      target: { hostId, ...db, ref: 'main' },
      cells: [{ kind: 'sql', source: 'SELECT id FROM products' }],
    };
    const doc = await vscode.workspace.openNotebookDocument(Notebooks.type, toVscode(data));
    const editor = await vscode.window.showNotebookDocument(doc);
    await vscode.commands.executeCommand('_notebook.selectKernel', { id: Notebooks.controller, extension: EXTENSION_ID });
    await feature(
      'a notebook cell',
      () => Promise.resolve(vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 0, end: 1 }], document: doc.uri })),
      (s) => s.q === 'SELECT id FROM products',
    );
    const output = await waitFor(
      'the cell output',
      () => {
        const item = doc.cellAt(0).outputs[0]?.items.find((i) => i.mime === QUERY_RESULT_MIME);
        return item ? (JSON.parse(new TextDecoder().decode(item.data)) as QueryOutput) : undefined;
      },
      { timeoutMs: 30_000 },
    );
    assert.equal(output.result.status, 'row_limit', 'the row-limit setting (2) cut the result');
    const loadAll = h.api.notebooks.loadAll;
    const before = new Set(loadAll.sessions.map((x) => x.sourceId));
    await feature(
      'Load All Rows',
      async () => {
        loadAll.handle(editor, { type: 'loadAll', key: output.key, outputId: 'o1' });
        // The grid asks for its first page (the rows are counted only after it is answered), as
        // the renderer does once it draws the loaded result; this test plays the renderer's part
        // instead of depending on whether the output's webview is drawn in time.
        const session = loadAll.sessions.find((x) => !before.has(x.sourceId));
        assert.ok(session, 'Load All Rows started a session');
        loadAll.handle(editor, { type: 'page.request', sourceId: session.sourceId, requestId: 1, start: 0, end: 50, outputId: 'o1' });
      },
      (s) => s.q.includes('SELECT id FROM products') && s.q !== 'SELECT id FROM products',
    );
  });
});
