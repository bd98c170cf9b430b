import { strict as assert } from 'node:assert';
import { AccountStore } from '../../../src/auth/accountStore';
import { MemorySecrets, MemoryState } from '../../helpers/memoryFakes';

describe('AccountStore', () => {
  let secrets: MemorySecrets;
  let state: MemoryState;
  let store: AccountStore;

  beforeEach(() => {
    secrets = new MemorySecrets();
    state = new MemoryState();
    store = new AccountStore(state, secrets);
  });

  it('keeps tokens only in the secret store, never in global state', async () => {
    await store.add({ hostId: 'https://h', username: 'alice', kind: 'token' }, 'tok-123');
    assert.equal(JSON.stringify(state.get('versionedDb.accounts.v1')).includes('tok-123'), false);
    assert.deepEqual([...secrets.map.values()], ['tok-123']);
    assert.equal(await store.activeToken('https://h'), 'tok-123');
  });

  it('holds several accounts on several hosts; the last sign-in is active per host', async () => {
    await store.add({ hostId: 'https://h', username: 'alice', kind: 'token' }, 'a');
    await store.add({ hostId: 'https://h', username: 'bob', kind: 'oauth' }, 'b');
    await store.add({ hostId: 'local-hub', username: 'alice', kind: 'localHub' }, 'l');
    assert.equal(store.accounts().length, 3);
    assert.equal(store.activeAccount('https://h')?.username, 'bob');
    assert.equal(await store.activeToken('local-hub'), 'l');
    await store.setActive(store.accountsFor('https://h').find((a) => a.username === 'alice')!);
    assert.equal(await store.activeToken('https://h'), 'a');
    assert.equal(await store.activeToken('https://other'), undefined);
  });

  it('refuses to make an account active that was signed out meanwhile, and keeps the active one', async () => {
    await store.add({ hostId: 'https://h', username: 'alice', kind: 'token' }, 'a');
    const bob = await store.add({ hostId: 'https://h', username: 'bob', kind: 'token' }, 'b');
    const alice = store.accountsFor('https://h').find((a) => a.username === 'alice')!;
    await store.remove(alice.id);
    await assert.rejects(store.setActive(alice), /alice is no longer signed in/);
    assert.equal(store.activeAccount('https://h')?.id, bob.id);
    assert.equal(await store.activeToken('https://h'), 'b');
  });

  it('signing in again as the same user replaces the token instead of adding an account', async () => {
    await store.add({ hostId: 'h', username: 'alice', kind: 'token' }, 'old');
    await store.add({ hostId: 'h', username: 'alice', kind: 'token' }, 'new');
    assert.equal(store.accounts().length, 1);
    assert.equal(await store.activeToken('h'), 'new');
  });

  it('sign out deletes the secret and falls back to another account on the host', async () => {
    const a = await store.add({ hostId: 'h', username: 'alice', kind: 'token' }, 'a');
    const b = await store.add({ hostId: 'h', username: 'bob', kind: 'token' }, 'b');
    await store.remove(b.id);
    assert.equal(secrets.map.size, 1);
    assert.equal(store.activeAccount('h')?.id, a.id);
    await store.remove(a.id);
    assert.equal(secrets.map.size, 0);
    assert.equal(await store.activeToken('h'), undefined);
    assert.equal(await store.remove('nope'), undefined);
  });

  it('refuses an empty token and stores nothing', async () => {
    await assert.rejects(store.add({ hostId: 'h', username: 'x', kind: 'token' }, '  '), /empty token/);
    assert.equal(store.accounts().length, 0);
    assert.equal(secrets.map.size, 0);
  });

  it('concurrent sign-ins do not lose each other', async () => {
    await Promise.all(['a', 'b', 'c', 'd'].map((u) => store.add({ hostId: 'h', username: u, kind: 'token' }, `t-${u}`)));
    assert.deepEqual(
      store
        .accounts()
        .map((a) => a.username)
        .sort(),
      ['a', 'b', 'c', 'd'],
    );
  });

  it('tells listeners about every change', async () => {
    let n = 0;
    store.onDidChange(() => n++);
    const a = await store.add({ hostId: 'h', username: 'a', kind: 'token' }, 't');
    await store.remove(a.id);
    assert.equal(n, 2);
  });
});
