import { strict as assert } from 'node:assert';
import { AccountStore } from '../../../src/auth/accountStore';
import type { LocalHubStart } from '../../../src/auth/localHub';
import { signOut, startLocalHub, stopLocalHub, switchAccount, type AccountCommandDeps } from '../../../src/commands/accountCommands';
import { filterPulls } from '../../../src/commands/treeCommands';
import type { User } from '../../../src/shared/wire';
import { DB, HOST, kit } from './commandTestKit';
import { MemorySecrets, MemoryState } from '../../helpers/memoryFakes';
import { clickInfo, dismiss, pick, pickMany, type Step } from '../../helpers/scriptedUi';
import type { HostInfo } from '../../../src/auth/clientSource';

const OTHER: HostInfo = { id: 'https://other.example', label: 'Other', siteUrl: 'https://other.example', isLocal: false };

/** Labels and descriptions of the items the next pick offers, recorded by a script step. */
function recordPick(label: string, seen: { label: string; description?: string; detail?: string }[], title: string[]): Step {
  return {
    kind: 'pick',
    reply: (_labels, prompt) => {
      seen.push(...prompt.items.map((i) => ({ label: i.label, description: i.description, detail: i.detail })));
      title.push(prompt.title);
      return label;
    },
  };
}

function accountKit(steps: Parameters<typeof kit>[0], start?: () => Promise<LocalHubStart>, hosts?: HostInfo[]) {
  const k = kit(steps, hosts ? { hosts } : {});
  const secrets = new MemorySecrets();
  const store = new AccountStore(new MemoryState(), secrets);
  let running = false;
  const validated: string[] = [];
  const deps: AccountCommandDeps = {
    ...k.deps,
    accountStore: store,
    localHub: {
      start: async () => {
        const s = await (
          start ??
          (async () => ({
            url: 'http://127.0.0.1:5555',
            dataDir: '/d',
            userName: 'alice',
            token: 'tok',
            seeded: true,
            sampleDatabases: [DB, { owner: 'acme', name: 'warehouse' }],
          }))
        )();
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
    const k = accountKit([], async () => ({
      url: 'http://127.0.0.1:1',
      dataDir: '/d',
      userName: 'alice',
      token: 't',
      seeded: false,
      sampleDatabases: [DB],
    }));
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
    assert.equal(k.ui.errorContexts[0]?.action, 'start the local hub');
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

  describe('Switch Account', () => {
    async function twoOnHub(steps: Step[]) {
      const k = accountKit(steps, undefined, [HOST, OTHER]);
      await k.store.add({ hostId: HOST.id, username: 'alice', kind: 'token' }, 'tok-alice');
      await k.store.add({ hostId: HOST.id, username: 'bob', displayName: 'Bob B', kind: 'oauth' }, 'tok-bob');
      await k.store.add({ hostId: OTHER.id, username: 'carol', kind: 'token' }, 'tok-carol');
      return k;
    }

    it('from a host row: lists that host’s accounts with the active one marked; the pick becomes active', async () => {
      const seen: { label: string; description?: string; detail?: string }[] = [];
      const title: string[] = [];
      const k = await twoOnHub([recordPick('alice', seen, title)]);
      let changes = 0;
      k.store.onDidChange(() => changes++);
      assert.equal(await k.store.activeToken(HOST.id), 'tok-bob', 'the last sign-in is active');

      const out = await switchAccount(k.deps, { kind: 'host', hostId: HOST.id });
      assert.equal(out?.username, 'alice');
      assert.deepEqual(title, ['Switch Account to Hub']);
      assert.deepEqual(seen, [
        { label: 'alice', description: 'Hub', detail: 'personal access token' },
        { label: '$(check) bob', description: 'Hub · active', detail: 'Bob B, signed in with the browser (OAuth)' },
        { label: '$(add) Sign in with another account…', description: undefined, detail: undefined },
      ]);
      // Requests to the host now carry alice's token; the other host keeps its account.
      assert.equal(await k.store.activeToken(HOST.id), 'tok-alice');
      assert.equal(await k.store.activeToken(OTHER.id), 'tok-carol');
      assert.equal(changes, 1, 'listeners (tree, clients) hear of the switch');
      assert.deepEqual(k.ui.infos, ['Hub now uses alice.']);
      // Nothing was signed out.
      assert.equal(k.store.accounts().length, 3);
      assert.equal(k.secrets.map.size, 3);
    });

    it('from the palette: lists every host’s accounts', async () => {
      const seen: { label: string; description?: string }[] = [];
      const k = await twoOnHub([recordPick('carol', seen, [])]);
      await switchAccount(k.deps);
      assert.deepEqual(
        seen.map((i) => `${i.label} | ${i.description ?? ''}`),
        ['alice | Hub', '$(check) bob | Hub · active', '$(check) carol | Other · active', '$(add) Sign in with another account… | '],
      );
      assert.deepEqual(k.ui.infos, ['Other already uses carol.']);
      assert.equal(await k.store.activeToken(HOST.id), 'tok-bob');
    });

    it('dismissing changes nothing; "Sign in with another account…" runs that host’s sign-in', async () => {
      const k = await twoOnHub([dismiss('pick')]);
      assert.equal(await switchAccount(k.deps, HOST.id), undefined);
      assert.equal(await k.store.activeToken(HOST.id), 'tok-bob');
      assert.deepEqual(k.ui.infos, []);

      const signedIn: (string | undefined)[] = [];
      const k2 = await twoOnHub([pick('Sign in with another account…')]);
      const deps2 = { ...k2.deps, signIn: async (hostId?: string) => (signedIn.push(hostId), undefined) };
      await switchAccount(deps2, { kind: 'host', hostId: HOST.id });
      assert.deepEqual(signedIn, [HOST.id]);
    });

    it('with no account on the host it says so and offers Sign In', async () => {
      const signedIn: (string | undefined)[] = [];
      const k = accountKit([clickInfo('Sign In')], undefined, [HOST, OTHER]);
      const deps = { ...k.deps, signIn: async (hostId?: string) => (signedIn.push(hostId), undefined) };
      assert.equal(await switchAccount(deps, { kind: 'host', hostId: OTHER.id }), undefined);
      assert.deepEqual(k.ui.infos, ['No account is signed in to Other.']);
      assert.deepEqual(signedIn, [OTHER.id]);
    });
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
