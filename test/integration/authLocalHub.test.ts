// The built-in local hub from inside a real extension host: "Start Local Hub" runs dist/hub.js
// with the host's own runtime, seeds the new data folder in global storage, signs in as the
// sample user and adds the sample databases; "Stop Local Hub" ends it and the tree says so.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startLocalHub, stopLocalHub } from '../../src/commands/accountCommands';
import { LOCAL_HUB_HOST_ID } from '../../src/auth/localHubIds';
import { waitFor } from '../helpers/waitFor.cjs';
import { accountsMenu, harness, labelOf, type Harness } from './versioningHarness';

describe('local hub (auth)', function () {
  this.timeout(120_000);
  let h: Harness;

  before(async () => {
    h = await harness();
  });

  after(async () => {
    if (h.api.services.localHub.isRunning()) await h.api.services.localHub.stop();
  });

  it('starts, seeds its new folder, signs in and adds the sample databases', async () => {
    const account = await startLocalHub(h.deps);
    assert.deepEqual(h.ui.errors, []);
    assert.equal(account?.hostId, LOCAL_HUB_HOST_ID);
    assert.equal(account?.username, 'alice');
    const host = h.api.services.clients.host(LOCAL_HUB_HOST_ID);
    assert.match(host?.siteUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    const me = await h.api.services.clients.clientFor(LOCAL_HUB_HOST_ID).getCurrentUser();
    assert.equal(me.username, 'alice');
    assert.ok((await accountsMenu()).includes('alice (Local Hub)'));
    const dbs = (await h.childrenAt('Local Hub')).map((n) => labelOf(n, h));
    assert.ok(dbs.includes('alice/prices') && dbs.includes('acme/warehouse'), `sample databases missing: ${dbs.join(', ')}`);
    assert.match(
      h.ui.infos.at(-1) ?? '',
      /Local Hub is running at http:\/\/127\.0\.0\.1:\d+; signed in as alice\. Sample databases were added\./,
    );
  });

  it('stops; its databases stay and the tree offers to start it again', async () => {
    await stopLocalHub(h.deps);
    assert.equal(h.api.services.localHub.isRunning(), false);
    assert.throws(() => h.api.services.clients.clientFor(LOCAL_HUB_HOST_ID), /not running/);
    const children = await h.childrenAt('Local Hub');
    assert.equal(children.length, 1);
    assert.equal(labelOf(children[0]!, h), 'The local hub is stopped.');
    assert.ok(h.api.tree.databases.list(LOCAL_HUB_HOST_ID).length > 0);
  });

  it('starts again on the same folder without seeding twice, with a fresh token', async () => {
    const account = await startLocalHub(h.deps);
    assert.equal(account?.username, 'alice');
    assert.doesNotMatch(h.ui.infos.at(-1) ?? '', /Sample databases were added/);
    const me = await h.api.services.clients.clientFor(LOCAL_HUB_HOST_ID).getCurrentUser();
    assert.equal(me.username, 'alice');
    await stopLocalHub(h.deps);
  });

  it('refuses a data folder that is not a hub folder, writing nothing into it', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'not-a-hub-'));
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'mine');
    const config = vscode.workspace.getConfiguration();
    await config.update('versionedDb.localHub.dataDirectory', folder, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('the extension to see the new data folder', () => h.api.services.currentSettings.localHub.dataDirectory === folder, {
        intervalMs: 100,
      });
      assert.equal(await startLocalHub(h.deps), undefined);
      const error = h.ui.errors.pop() as Error;
      assert.match(error.message, /is not a local hub data folder/);
      assert.deepEqual(fs.readdirSync(folder), ['notes.txt']);
      assert.equal(h.api.services.localHub.isRunning(), false);
    } finally {
      await config.update('versionedDb.localHub.dataDirectory', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
