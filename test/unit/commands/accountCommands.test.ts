import { strict as assert } from 'node:assert';
import { AccountStore } from '../../../src/auth/accountStore';
import type { LocalHubStart } from '../../../src/auth/localHub';
import { signOut, startLocalHub, stopLocalHub, type AccountCommandDeps } from '../../../src/commands/accountCommands';
import { filterPulls } from '../../../src/commands/treeCommands';
import type { User } from '../../../src/shared/wire';
import { DB, HOST, kit } from './commandTestKit';
import { MemorySecrets, MemoryState, pick, pickMany } from './fakeUi';

function accountKit(steps: Parameters<typeof kit>[0], start?: () => Promise<LocalHubStart>) {
  const k = kit(steps);
  const secrets = new MemorySecrets();
  const store = new AccountStore(new MemoryState(), secrets);
  let running = false;
  const validated: string[] = [];
  const deps: AccountCommandDeps = {
    ...k.deps,
    accountStore: store,
    localHub: {
      start: async () => {
        const s = await (start ?? (async () => ({ url: 'http://127.0.0.1:5555', dataDir: '/d', userName: 'alice', token: 'tok', seeded: true, sampleDatabases: [DB, { owner: 'acme', name: 'warehouse' }] })))();
        running = true;
        return s;
      },
      stop: async () => {
        running = false;
      },
      isRunning: () => running,
    },
    validate: async (site: string, token: string): Promise<User> => {
      validated.push(`${site} ${token}`);
      return { username: 'alice', email_addresses: [] };
    },
  };
  return { ...k, deps, store, secrets, validated, isRunning: () => running };
}

describe('account commands', () => {
  it('Start Local Hub signs in with the fresh token and adds the sample databases of a new folder', async () => {
    const k = accountKit([]);
    const account = await startLocalHub(k.deps);
    assert.equal(account?.hostId, 'local-hub');
    assert.deepEqual(k.validated, ['http://127.0.0.1:5555 tok']);
    assert.equal(await k.store.activeToken('local-hub'), 'tok');
    assert.deepEqual(k.databases.list('local-hub'), [{ owner: 'acme', name: 'warehouse' }, DB]);
    assert.match(k.ui.infos[0]!, /Local Hub is running at http:\/\/127\.0\.0\.1:5555; signed in as alice\. Sample databases were added\./);
  });

  it('does not re-add samples the user removed from an existing folder', async () => {
    const k = accountKit([], async () => ({ url: 'http://127.0.0.1:1', dataDir: '/d', userName: 'alice', token: 't', seeded: false, sampleDatabases: [DB] }));
    await k.databases.add('local-hub', { owner: 'bob', name: 'mine' });
    await startLocalHub(k.deps);
    assert.deepEqual(k.databases.list('local-hub'), [{ owner: 'bob', name: 'mine' }]);
  });

  it('a hub that fails to start is reported, and nothing is signed in', async () => {
    const k = accountKit([], async () => {
      throw new Error('The local hub exited before it was ready (exit 1).');
    });
    assert.equal(await startLocalHub(k.deps), undefined);
    assert.equal(k.store.accounts().length, 0);
    assert.equal(k.ui.errors[0]?.context?.action, 'start the local hub');
  });

  it('Stop Local Hub stops it; stopping a stopped hub just says so', async () => {
    const k = accountKit([]);
    await stopLocalHub(k.deps);
    assert.match(k.ui.infos[0]!, /not running/);
    await startLocalHub(k.deps);
    await stopLocalHub(k.deps);
    assert.equal(k.isRunning(), false);
  });

  it('Sign Out asks which account when there are several, and deletes only its token', async () => {
    const k = accountKit([pick('bob (Hub)')]);
    await k.store.add({ hostId: HOST.id, username: 'alice', kind: 'token' }, 'a');
    await k.store.add({ hostId: HOST.id, username: 'bob', kind: 'token' }, 'b');
    const out = await signOut(k.deps);
    assert.equal(out?.username, 'bob');
    assert.deepEqual([...k.secrets.map.values()], ['a']);
    assert.match(k.ui.infos[0]!, /Signed out bob from Hub; its token was deleted/);
  });

  it('the pull filter shows the picked states; picking all shows every state', async () => {
    const k = kit([pickMany('closed', 'merged')]);
    let set: readonly string[] | undefined;
    k.deps.tree.setPullStateFilter = (_h, _db, states) => (set = states);
    await filterPulls(k.deps, { kind: 'database', hostId: HOST.id, db: DB });
    assert.deepEqual(set, ['closed', 'merged']);
    const all = kit([pickMany('open', 'closed', 'merged')]);
    all.deps.tree.setPullStateFilter = (_h, _db, states) => (set = states);
    await filterPulls(all.deps, { kind: 'database', hostId: HOST.id, db: DB });
    assert.deepEqual(set, []);
  });
});
