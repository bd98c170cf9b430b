// Pull requests inside a real extension host against the seeded local hub: the command logic
// with the real API client, the real progress notification and a real webview panel. Only the
// person is scripted (quick pick answers, the merge confirmation); every result is checked on
// the server and in the HTML the view shows.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { HubClient } from '../../src/api/index';
import { showOperationFailure, withOperationProgress } from '../../src/commands/operations';
import { commentOnPullCommand, editPullCommand, setPullStateCommand, type PullEnv } from '../../src/commands/pullActions';
import { createPullCommand } from '../../src/commands/createPullCommand';
import { mergePullCommand } from '../../src/commands/mergePullCommand';
import type { PullTarget } from '../../src/core/targets';
import { silentLogger } from '../../src/core/logger';
import { Commands, EXTENSION_ID } from '../../src/shared/ids';
import { PullPanels, type PullPanel } from '../../src/views/pullPanel';
import { waitFor } from '../helpers/waitFor.cjs';
import { integrationConfig } from './testEnv';
import { hostScriptedUi } from './hostScriptedUi';
import { harness } from './versioningHarness';

function allTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs);
}

function tabLabels(): string {
  return allTabs()
    .map((t) => t.label)
    .join(', ');
}

function pullTabs(): vscode.Tab[] {
  return allTabs().filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('versionedDb.pull'));
}

describe('pull requests against the local hub', function () {
  this.timeout(120_000);
  const config = integrationConfig();
  const client = new HubClient({ baseUrl: config.hubUrl, token: config.token });
  const db = { owner: 'alice', name: 'prices' };
  const hostId = 'integration-hub';
  const ui = hostScriptedUi([], { answerMessages: false });
  let panels: PullPanels;
  let target: PullTarget;

  const env: PullEnv = {
    ui,
    log: silentLogger,
    clients: { hosts: () => [{ id: hostId, label: 'Test Hub', siteUrl: config.hubUrl, isLocal: false }], clientFor: () => client },
    databases: { list: () => [db] },
    operations: { run: (o) => withOperationProgress(o), showFailure: showOperationFailure },
    showPull: (t) => panels.show(t),
    pullChanged: (t) => panels.refresh(t),
  };

  before(() => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, 'extension not loaded');
    panels = new PullPanels({
      extensionUri: ext.extensionUri,
      clientFor: () => client,
      webUrl: () => undefined,
      log: silentLogger,
      actions: {
        merge: (t) => mergePullCommand(env, t),
        setState: (t, s) => setPullStateCommand(env, t, s),
        comment: async (t, body) => (await commentOnPullCommand(env, t, body)) !== undefined,
        edit: async (t, title, description) => (await editPullCommand(env, t, { title, description })) !== undefined,
        openOnWeb: async () => undefined,
      },
    });
  });

  after(() => panels.dispose());

  function panel(): PullPanel {
    const p = panels.panelFor(target);
    assert.ok(p, 'the pull request view is not open');
    return p;
  }

  it('opens a pull request from a branch into main and shows it in its own view', async () => {
    ui.answer('main', 'experiment', 'Prices in cents, take two', 'Second try after **review**.');
    const pull = await createPullCommand(env, { hostId, db });
    assert.deepEqual(ui.errors, []);
    assert.ok(pull, 'no pull request was created');
    target = { hostId, db, pullNumber: pull.pull_number };
    const onServer = await client.getPull(db, pull.pull_number);
    assert.equal(onServer.state, 'open');
    assert.equal(onServer.from_branch.branch_name, 'experiment');
    assert.equal(onServer.to_branch.branch_name, 'main');

    // The workbench reports tabs asynchronously: wait for the view's tab to appear.
    await waitFor(
      () => `a pull request view titled after the pull among the tabs: ${tabLabels()}`,
      () => pullTabs().length === 1 && /Prices in cents, take two/.test(pullTabs()[0]!.label),
      { intervalMs: 100 },
    );
    assert.match(panel().lastContent, /Prices in cents, take two/);
    assert.match(panel().lastContent, /state-open">Open/);
    assert.match(panel().lastContent, /<strong>review<\/strong>/);
  });

  it('a comment posted from the view lands on the server and renders as sanitized markdown', async () => {
    await panel().handle({ type: 'comment', body: 'Checked: **fine**. [quit](command:workbench.action.quit)' });
    const comments = await client.listPullComments(db, target.pullNumber);
    assert.equal(comments.at(-1)?.body, 'Checked: **fine**. [quit](command:workbench.action.quit)');
    assert.match(panel().lastContent, /<strong>fine<\/strong>/);
    assert.doesNotMatch(panel().lastContent, /href="command:/);
  });

  it('edits the title from the view', async () => {
    await panel().handle({ type: 'edit', title: 'Prices in cents', description: 'Second try.' });
    assert.equal((await client.getPull(db, target.pullNumber)).title, 'Prices in cents');
    assert.match(panel().lastContent, /pull-title">Prices in cents</);
  });

  it('closes and reopens from the view; the view follows the server', async () => {
    await panel().handle({ type: 'action', action: 'close' });
    assert.equal((await client.getPull(db, target.pullNumber)).state, 'closed');
    assert.match(panel().lastContent, /state-closed">Closed/);
    assert.match(panel().lastContent, /data-action="reopen"/);

    await panel().handle({ type: 'action', action: 'reopen' });
    assert.equal((await client.getPull(db, target.pullNumber)).state, 'open');
    assert.match(panel().lastContent, /state-open">Open/);
  });

  it('merges after confirmation with the progress notification and ends merged', async () => {
    ui.answer(true);
    ui.infos.length = 0;
    await panel().handle({ type: 'action', action: 'merge' });
    assert.deepEqual(ui.errors, []);
    assert.equal((await client.getPull(db, target.pullNumber)).state, 'merged');
    assert.match(panel().lastContent, /state-merged">Merged/);
    assert.doesNotMatch(panel().lastContent, /data-action="merge"/);
    assert.ok(
      ui.infos.some((m) => /is merged: experiment → main/.test(m)),
      ui.infos.join(' | '),
    );
    const ops = await client.listOperations(db);
    assert.ok(ops.items.some((o) => o.type === 'merge' && o.status === 'succeeded'));
  });

  it('showing the same pull again reuses its view', async () => {
    const before = panel();
    await panels.show(target);
    // The view is the same object, so no second webview was made (PullPanel's constructor is the
    // only place one is created), and VS Code shows one tab for it.
    assert.strictEqual(panels.panelFor(target), before);
    assert.equal(pullTabs().length, 1);
  });
});

describe('pull request commands as the extension registers them', function () {
  this.timeout(120_000);
  const inventory = { owner: 'alice', name: 'inventory' };

  it('close, reopen and show a cross-fork pull through the palette commands, with the signed-in account', async () => {
    const h = await harness();
    if (!h.api.services.accounts.activeAccount(h.hostId)) await h.signInAsAlice();
    const pulls = await h.server.listPulls(inventory);
    const crossFork = pulls.items.find((p) => p.title === 'Fix a typo in B-300');
    assert.ok(crossFork, 'the seeded cross-fork pull is missing');
    // The shape of a tree node: what the context menu passes to the command.
    const node = { kind: 'pull', hostId: h.hostId, db: inventory, pull: crossFork };

    await vscode.commands.executeCommand(Commands.closePullRequest, node);
    assert.equal((await h.server.getPull(inventory, crossFork.pull_number)).state, 'closed');
    await vscode.commands.executeCommand(Commands.reopenPullRequest, node);
    assert.equal((await h.server.getPull(inventory, crossFork.pull_number)).state, 'open');

    await vscode.commands.executeCommand(Commands.showPullRequest, node);
    await waitFor(
      () => `a view of the cross-fork pull among the tabs: ${tabLabels()}`,
      () => pullTabs().some((t) => /Fix a typo in B-300/.test(t.label)),
      { intervalMs: 100 },
    );
  });
});
