// Accounts inside a real extension host against the seeded hub: token sign-in validated with
// GET /user, the account in VS Code's Accounts menu (our AuthenticationProvider), the token in
// SecretStorage only, sign-out deleting it so requests go out anonymous at once.
import * as assert from 'node:assert/strict';
import { signOut } from '../../src/commands/accountCommands';
import { signIn } from '../../src/auth/signInFlow';
import { silentLogger } from '../../src/core/logger';
import { accountsMenu, harness, type Harness } from './versioningHarness';

describe('accounts (auth)', function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await harness();
  });

  it('signs in with a personal access token and shows the account in the Accounts menu', async () => {
    await h.signInAsAlice();
    assert.ok((await accountsMenu()).includes('alice (Test Hub)'), `Accounts menu: ${(await accountsMenu()).join(', ')}`);
    // Requests through the ClientSource now carry the token.
    const me = await h.api.services.clients.clientFor(h.hostId).getCurrentUser();
    assert.equal(me.username, 'alice');
  });

  it('a token the host refuses is reported and nothing is stored', async () => {
    const before = h.api.services.accounts.accounts().length;
    h.ui.answers.push('Personal access token', 'vdbp_not-a-real-token');
    const account = await signIn(
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
    assert.equal(account, undefined);
    assert.equal(h.api.services.accounts.accounts().length, before);
    assert.equal(h.ui.errors.length, 1);
    assert.equal((h.ui.errors.pop() as { status?: number }).status, 401);
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
