// Accounts inside a real extension host against the seeded hub: token sign-in validated with
// GET /user, the account in VS Code's Accounts menu (our AuthenticationProvider), the token in
// SecretStorage only, sign-out deleting it so requests go out anonymous at once, and two accounts
// on one host with Switch Account choosing whose token the requests carry.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { signOut, switchAccount } from '../../src/commands/accountCommands';
import { Commands, EXTENSION_ID } from '../../src/shared/ids';
import { signIn } from '../../src/auth/signInFlow';
import { silentLogger } from '../../src/core/logger';
import { integrationConfig } from './testEnv';
import { accountsMenu, harness, type Harness } from './versioningHarness';

/** A personal access token for `user`, from the hub's own CLI (it works while the hub runs). */
async function hubToken(user: string): Promise<string> {
  const hubJs = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'hub.js');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [hubJs, 'token', 'create', '--user', user, '--data', integrationConfig().hubDataDir],
    {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    },
  );
  return stdout.trim().split('\n').at(-1)!.trim();
}

describe('accounts (auth)', function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await harness();
  });

  /** The sign-in flow with the real account services, answering through the scripted UI. */
  const signInWithToken = () =>
    signIn(
      {
        ui: h.ui,
        accounts: h.api.services.accounts,
        hosts: () => h.api.services.clients.hosts(),
        validate: (s, t, sig) => h.api.services.validate(s, t, sig),
        oauth: () => Promise.reject(new Error('unused')),
        signInToLocalHub: async () => undefined,
        log: silentLogger,
      },
      h.hostId,
    );

  it('signs in with a personal access token and shows the account in the Accounts menu', async () => {
    await h.signInAsAlice();
    assert.ok((await accountsMenu()).includes('alice (Test Hub)'), `Accounts menu: ${(await accountsMenu()).join(', ')}`);
    // Requests through the ClientSource now carry the token.
    const me = await h.api.services.clients.clientFor(h.hostId).getCurrentUser();
    assert.equal(me.username, 'alice');
  });

  it('a token the host refuses is reported and nothing is stored', async () => {
    const before = h.api.services.accounts.accounts().length;
    h.ui.answer('Personal access token', 'vdbp_not-a-real-token');
    const account = await signInWithToken();
    assert.equal(account, undefined);
    assert.equal(h.api.services.accounts.accounts().length, before);
    assert.equal(h.ui.errors.length, 1);
    assert.equal((h.ui.errors.pop() as { status?: number }).status, 401);
  });

  it('two accounts on one host: Switch Account makes the other one carry the requests, the tree says whose', async () => {
    const hostNode = { kind: 'host' as const, hostId: h.hostId };
    const hostDescription = (): unknown => h.api.tree.provider.getTreeItem(hostNode).description;
    const client = h.api.services.clients.clientFor(h.hostId);
    const aliceNotes = { owner: 'alice', name: 'notes' }; // private: alice sees it, bob does not
    assert.ok((await vscode.commands.getCommands(true)).includes(Commands.switchAccount));

    // bob signs in too (a second account on the same host); the last sign-in is the active one.
    h.ui.answer('Personal access token', await hubToken('bob'));
    const bob = await signInWithToken();
    assert.equal(bob?.username, 'bob', `sign-in failed: ${h.ui.errors.map(String).join('; ')}`);
    assert.deepEqual((await accountsMenu()).filter((l) => l.endsWith('(Test Hub)')).sort(), ['alice (Test Hub)', 'bob (Test Hub)']);
    assert.equal((await client.getCurrentUser()).username, 'bob');
    await assert.rejects(client.getDatabase(aliceNotes), (e: { status?: number }) => e.status === 404 || e.status === 403);
    assert.equal(hostDescription(), 'bob');
    // The host row's context menu offers Switch Account for this row's contextValue.
    const menus = (
      vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
        contributes: { menus: Record<string, { command: string; when?: string }[]> };
      }
    ).contributes.menus;
    const entry = menus['view/item/context']!.find((m) => m.command === Commands.switchAccount);
    const viewItem = /viewItem =~ \/(.+)\/$/.exec(entry?.when ?? '')?.[1];
    assert.ok(viewItem, `no host-row menu entry: ${JSON.stringify(entry)}`);
    assert.match(String(h.api.tree.provider.getTreeItem(hostNode).contextValue), new RegExp(viewItem));

    // Switch to alice from the host row: the same client object now speaks as alice.
    h.ui.answer('alice');
    const picked = await switchAccount(h.deps, hostNode);
    assert.equal(picked?.username, 'alice');
    assert.ok(h.ui.infos.includes('Test Hub now uses alice.'), h.ui.infos.join(' | '));
    assert.equal((await client.getCurrentUser()).username, 'alice');
    assert.equal((await client.getDatabase(aliceNotes)).visibility, 'private');
    assert.equal(hostDescription(), 'alice');

    // Back to bob and once more to alice: each switch applies to the very next request.
    h.ui.answer('bob');
    await switchAccount(h.deps, h.hostId);
    assert.equal((await client.getCurrentUser()).username, 'bob');
    h.ui.answer('alice');
    await switchAccount(h.deps);
    assert.equal((await client.getCurrentUser()).username, 'alice');

    // Leave alice alone, as later suites expect: signing bob out keeps alice active.
    h.ui.answer('bob (Test Hub)');
    assert.equal((await signOut(h.deps, h.hostId))?.username, 'bob');
    assert.equal((await client.getCurrentUser()).username, 'alice');
  });

  it('sign out deletes the secret: the session is gone and requests go out anonymous', async () => {
    const account = await signOut(h.deps, h.hostId);
    assert.equal(account?.username, 'alice');
    assert.ok(!(await accountsMenu()).includes('alice (Test Hub)'), 'the account is still in the Accounts menu');
    assert.equal(await h.api.services.accounts.activeToken(h.hostId), undefined);
    await assert.rejects(h.api.services.clients.clientFor(h.hostId).getCurrentUser(), (e: { status?: number }) => e.status === 401);
    // Public reads still work without an account.
    const db = await h.api.services.clients.clientFor(h.hostId).getDatabase({ owner: 'alice', name: 'prices' });
    assert.equal(db.visibility, 'public');
    await h.signInAsAlice(); // later suites expect alice
  });
});
