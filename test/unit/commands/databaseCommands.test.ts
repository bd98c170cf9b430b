import { strict as assert } from 'node:assert';
import { ApiError } from '../../../src/api/index';
import {
  addDatabase,
  copyDatabaseName,
  createDatabase,
  forkDatabase,
  openOnWeb,
  removeDatabase,
} from '../../../src/commands/databaseCommands';
import type { DatabaseNode, ForkNode } from '../../../src/tree/treeNodes';
import { DB, HOST, callsOf, kit } from './commandTestKit';
import { clickInfo, dismiss, input, pick } from '../../helpers/scriptedUi';
import { anOperation } from '../../builders/wire';

const dbNode: DatabaseNode = { kind: 'database', hostId: HOST.id, db: DB };

describe('database commands', () => {
  it('add: owner/name is checked with GET before it enters the tree', async () => {
    const k = kit([input('alice/prices')]);
    assert.deepEqual(await addDatabase(k.deps), DB);
    assert.deepEqual(callsOf(k, 'getDatabase')[0]![0], DB);
    assert.deepEqual(k.databases.list(HOST.id), [DB]);
    assert.match(k.ui.infos[0]!, /Added alice\/prices/);
  });

  it('add: a pasted web address picks its host', async () => {
    const other = { id: 'https://o.example', label: 'O', siteUrl: 'https://o.example', isLocal: false };
    const k = kit([input('https://o.example/repositories/acme/warehouse/data/main')], { hosts: [HOST, other] });
    await addDatabase(k.deps);
    assert.deepEqual(k.databases.list(other.id), [{ owner: 'acme', name: 'warehouse' }]);
    assert.deepEqual(k.databases.list(HOST.id), []);
  });

  it('add: a URL of an unknown site is refused with what to do', async () => {
    const k = kit([input('https://elsewhere.example/repositories/a/b')]);
    assert.equal(await addDatabase(k.deps), undefined);
    assert.match(k.ui.infos[0]!, /not one of your hosts.*versionedDb\.hosts/);
    assert.equal(callsOf(k, 'getDatabase').length, 0);
  });

  it('add: a database the server does not show (404) is not kept, and the error is reported', async () => {
    const k = kit([input('alice/nope')]);
    k.client.getDatabase = async () => {
      throw new ApiError({
        status: 404,
        code: 'NOT_FOUND',
        title: 'Not found',
        method: 'GET',
        path: '/api/v2/databases/alice/nope',
        isProblem: true,
      });
    };
    assert.equal(await addDatabase(k.deps), undefined);
    assert.deepEqual(k.databases.list(HOST.id), []);
    assert.equal(k.ui.errors.length, 1);
    assert.equal(k.ui.errorContexts[0]?.action, 'add alice/nope');
  });

  it('add: the input box explains bad text before anything is sent', async () => {
    let validate: ((v: string) => string | undefined) | undefined;
    const k = kit([{ kind: 'input', reply: (_labels, p) => ((validate = p.input?.validate), undefined) }]);
    assert.equal(await addDatabase(k.deps), undefined);
    assert.match(validate!('just-a-name') ?? '', /not owner\/name/);
    assert.match(validate!('a/b c') ?? '', /letters, digits/);
    assert.equal(validate!('alice/prices'), undefined);
    assert.equal(callsOf(k, 'getDatabase').length, 0);
  });

  it('add from a fork node needs no typing', async () => {
    const k = kit([]);
    const fork: ForkNode = {
      kind: 'fork',
      hostId: HOST.id,
      db: DB,
      fork: { owner: 'bob', name: 'prices' },
      parent: { kind: 'category', hostId: HOST.id, db: DB, category: 'forks' },
    };
    await addDatabase(k.deps, fork);
    assert.deepEqual(k.databases.list(HOST.id), [{ owner: 'bob', name: 'prices' }]);
  });

  it('remove forgets the database only', async () => {
    const k = kit([]);
    await k.databases.add(HOST.id, DB);
    assert.equal(await removeDatabase(k.deps, dbNode), true);
    assert.deepEqual(k.databases.list(HOST.id), []);
    assert.match(k.ui.infos[0]!, /still exists/);
  });

  it('create: owner me, visibility must be picked, description optional', async () => {
    const k = kit([pick('bob'), input('new_db'), pick('Private'), input('')]);
    const ref = await createDatabase(k.deps, HOST.id);
    assert.deepEqual(ref, { owner: 'bob', name: 'new_db' });
    assert.deepEqual(callsOf(k, 'createDatabase')[0]![0], { owner: 'bob', name: 'new_db', visibility: 'private' });
    assert.deepEqual(k.databases.list(HOST.id), [{ owner: 'bob', name: 'new_db' }]);
  });

  it('create: under an organization, with a description', async () => {
    const k = kit([pick('An organization…'), input('acme'), input('stock'), pick('Public'), input('Stock levels')]);
    await createDatabase(k.deps, HOST.id);
    assert.deepEqual(callsOf(k, 'createDatabase')[0]![0], {
      owner: 'acme',
      name: 'stock',
      visibility: 'public',
      description: 'Stock levels',
    });
  });

  it('create: dismissing the visibility pick creates nothing (no default visibility)', async () => {
    const k = kit([pick('bob'), input('x'), dismiss('pick')]);
    assert.equal(await createDatabase(k.deps, HOST.id), undefined);
    assert.equal(callsOf(k, 'createDatabase').length, 0);
  });

  it('create without an account offers to sign in first', async () => {
    const k = kit([clickInfo(undefined)], { account: null });
    assert.equal(await createDatabase(k.deps, HOST.id), undefined);
    assert.match(k.ui.infos[0]!, /needs an account on Hub/);
  });

  it('fork: into my namespace, polls the operation, then the fork is in the tree', async () => {
    const k = kit([]);
    const fork = await forkDatabase(k.deps, dbNode);
    assert.deepEqual(fork, { owner: 'bob', name: 'prices' });
    assert.deepEqual(callsOf(k, 'createFork')[0]!.slice(0, 2), [DB, { owner: 'bob' }]);
    assert.equal(callsOf(k, 'waitForOperation').length, 1);
    assert.deepEqual(k.databases.list(HOST.id), [{ owner: 'bob', name: 'prices' }]);
    assert.ok(k.refreshed.includes('alice/prices:forks,operations'));
  });

  it('fork: a failed operation shows its error and adds nothing', async () => {
    const k = kit([]);
    k.client.waitForOperation = async () =>
      anOperation({ type: 'fork', status: 'failed', error: { status: 422, code: 'UNPROCESSABLE', title: 'Duplicate fork' } });
    assert.equal(await forkDatabase(k.deps, dbNode), undefined);
    assert.equal(k.failures[0]?.title, 'Duplicate fork');
    assert.deepEqual(k.databases.list(HOST.id), []);
  });

  it('copy owner/name and open on the web', async () => {
    const k = kit([]);
    await copyDatabaseName(k.deps, dbNode);
    assert.deepEqual(k.ui.copied, ['alice/prices']);
    await openOnWeb(k.deps, dbNode);
    assert.deepEqual(k.ui.opened, ['https://h.example/repositories/alice/prices']);
  });
});
