import { strict as assert } from 'node:assert';
import { portOver } from '../../helpers/sqlPorts';
import { DatabaseTreeModel, type Page, type TreeBackend, type TreeClient } from '../../../src/tree/databaseTreeModel';
import type { CategoryNode, TreeNode } from '../../../src/tree/treeNodes';
import type { Branch, DatabaseRef, Operation, PullSummary } from '../../../src/shared/wire';
import { ApiError } from '../../../src/api/index';
import { silent } from '../../helpers/memoryFakes';
import { aBranch, anOperation, aPullSummary } from '../../builders/wire';
import { TableCatalogCache } from '../../../src/core/sql/tableCatalog';

const H = 'https://h.example';
const DB: DatabaseRef = { owner: 'alice', name: 'prices' };
const hash = (n: number): string => String(n).padStart(32, '0');

function branchPages(total: number, pageSize: number): (token?: string) => Page<Branch> {
  return (token) => {
    const start = token ? Number(token) : 0;
    const items = Array.from({ length: Math.min(pageSize, total - start) }, (_, i) =>
      aBranch({ name: `b${start + i}`, head_commit_sha: hash(start + i) }),
    );
    const next = start + pageSize < total ? String(start + pageSize) : '';
    return next ? { items, nextPageToken: next } : { items, nextPageToken: '' };
  };
}

class FakeClient implements TreeClient {
  calls: string[] = [];
  branches = branchPages(5, 2);
  pulls: PullSummary[] = [];
  operations: Operation[] = [];
  failBranches: unknown;
  failDatabase: unknown;
  async getDatabase(db: DatabaseRef) {
    this.calls.push('getDatabase');
    if (this.failDatabase) throw this.failDatabase;
    return { ...db, visibility: 'public', fork_network_count: 0, star_count: 0, size_bytes: 1 };
  }
  async listBranches(_db: DatabaseRef, p?: { pageToken?: string }) {
    this.calls.push(`branches ${p?.pageToken ?? ''}`);
    if (this.failBranches) throw this.failBranches;
    return this.branches(p?.pageToken);
  }
  async listTags() {
    return { items: [] };
  }
  async listReleases() {
    return { items: [] };
  }
  async listPulls(_db: DatabaseRef, p?: { pageToken?: string }) {
    this.calls.push(`pulls ${p?.pageToken ?? ''}`);
    return { items: this.pulls };
  }
  async listForks() {
    return [{ owner: 'bob', name: 'prices' }];
  }
  async listOperations() {
    this.calls.push('operations');
    return { items: this.operations };
  }
  async runSql(): Promise<never> {
    throw new Error('these tests send no SQL (Commits lists: commitListModel.test.ts)');
  }
}

function setup(opts: { dbs?: Record<string, DatabaseRef[]>; available?: string[]; signedIn?: string[]; catalog?: TableCatalogCache } = {}) {
  const client = new FakeClient();
  const dbs = opts.dbs ?? { [H]: [DB] };
  const timers: { fn: () => void; ms: number; disposed: boolean }[] = [];
  const backend: TreeBackend = {
    availableHostIds: () => opts.available ?? [H],
    isSignedIn: (h) => (opts.signedIn ?? []).includes(h),
    databases: (h) => dbs[h] ?? [],
    hostIdsWithDatabases: () => Object.keys(dbs).filter((h) => dbs[h]!.length > 0),
    client: () => client,
    review: (hostId, db) => portOver(client).review(hostId, db),
  };
  const model = new DatabaseTreeModel({
    backend,
    log: silent,
    commands: { startLocalHub: 'start', addDatabase: 'add', signIn: 'signIn' },
    localHubHostId: 'local-hub',
    ...(opts.catalog ? { catalog: opts.catalog } : {}),
    setTimer: (fn, ms) => {
      const t = { fn, ms, disposed: false };
      timers.push(t);
      return { dispose: () => (t.disposed = true) };
    },
  });
  const fired: (TreeNode | undefined)[] = [];
  model.onDidChange((n) => fired.push(n));
  return { model, client, timers, fired };
}

function labels(nodes: TreeNode[]): string[] {
  return nodes.map((n) => {
    switch (n.kind) {
      case 'branch':
        return n.branch.name;
      case 'pull':
        return `#${n.pull.pull_number}`;
      case 'fork':
        return `${n.fork.owner}/${n.fork.name}`;
      case 'operation':
        return n.operation.status;
      case 'message':
        return `(${n.text})`;
      default:
        return `[${n.kind}]`;
    }
  });
}

const branchesNode = (m: DatabaseTreeModel): CategoryNode => m.categoryNode(H, DB, 'branches');

describe('DatabaseTreeModel', () => {
  it('is empty with no databases anywhere, so the welcome view shows', async () => {
    const { model } = setup({ dbs: {}, signedIn: [H] });
    assert.deepEqual(await model.children(), []);
  });

  it('hosts → databases → the six categories', async () => {
    const { model } = setup();
    const [host] = await model.children();
    assert.equal(host?.kind, 'host');
    const [db] = await model.children(host);
    assert.equal(db?.kind, 'database');
    const cats = await model.children(db);
    assert.deepEqual(
      cats.map((c) => (c.kind === 'category' ? c.category : '')),
      ['branches', 'tags', 'releases', 'pulls', 'forks', 'operations'],
    );
  });

  it('also lists signed-in hosts without databases once any database exists, with an add hint', async () => {
    const other = 'https://other.example';
    const { model } = setup({ available: [H, other], signedIn: [other] });
    const hosts = await model.children();
    assert.deepEqual(
      hosts.map((h) => (h.kind === 'host' ? h.hostId : '')),
      [H, other],
    );
    const children = await model.children(hosts[1]);
    assert.equal(children[0]?.kind, 'message');
    assert.match((children[0] as { text: string }).text, /No databases/);
  });

  it('fetches each database once for its description, and shows the description when it arrives', async () => {
    const { model, client, fired } = setup();
    const [host] = await model.children();
    await model.children(host);
    await new Promise((r) => setImmediate(r));
    assert.equal(client.calls.filter((c) => c === 'getDatabase').length, 1);
    assert.equal(model.databaseInfo(H, DB)?.visibility, 'public');
    assert.ok(fired.includes(host), 'the host re-renders so the database row shows its description');
    await model.children(host);
    await model.children(model.databaseNode(H, DB));
    assert.equal(client.calls.filter((c) => c === 'getDatabase').length, 1);
  });

  it('a stopped local hub shows a note with Start Local Hub, not an error', async () => {
    const { model } = setup({ dbs: { 'local-hub': [DB] }, available: [] });
    const [host] = await model.children();
    const [note] = await model.children(host);
    assert.equal(note?.kind, 'message');
    assert.equal((note as { action?: { command: string } }).action?.command, 'start');
  });

  it('loads one page at a time with a Load more node, until the last page', async () => {
    const { model, client, fired } = setup();
    const node = branchesNode(model);
    assert.deepEqual(labels(await model.children(node)), ['b0', 'b1', '[loadMore]']);
    const more = (await model.children(node))[2]!;
    assert.equal(more.kind, 'loadMore');
    await model.loadMore(more as never);
    assert.ok(fired.includes(node), 'the category re-renders after Load more');
    assert.deepEqual(labels(await model.children(node)), ['b0', 'b1', 'b2', 'b3', '[loadMore]']);
    await model.loadMore(node);
    assert.deepEqual(labels(await model.children(node)), ['b0', 'b1', 'b2', 'b3', 'b4'], 'an empty next token ends paging');
    assert.deepEqual(
      client.calls.filter((c) => c.startsWith('branches')),
      ['branches ', 'branches 2', 'branches 4'],
    );
  });

  it('answers from cache until refreshed; refresh reloads from the first page', async () => {
    const { model, client } = setup();
    const node = branchesNode(model);
    await model.children(node);
    await model.children(node);
    assert.equal(client.calls.filter((c) => c.startsWith('branches')).length, 1);
    model.refresh(node);
    await model.children(node);
    assert.deepEqual(
      client.calls.filter((c) => c.startsWith('branches')),
      ['branches ', 'branches '],
    );
  });

  it('an error becomes an error node; retry loads again', async () => {
    const { model, client } = setup();
    client.failBranches = new ApiError({ status: 500, code: 'INTERNAL', title: 'Boom', method: 'GET', path: '/x', isProblem: true });
    const node = branchesNode(model);
    const children = await model.children(node);
    assert.deepEqual(labels(children), ['[error]']);
    assert.equal((await model.children(node))[0]?.kind, 'error', 'no reload storm while the error shows');
    client.failBranches = undefined;
    model.refresh(children[0]);
    assert.deepEqual(labels(await model.children(node)), ['b0', 'b1', '[loadMore]']);
  });

  describe('a database the server does not find (404)', () => {
    const notFound = (): ApiError =>
      new ApiError({
        status: 404,
        code: 'NOT_FOUND',
        title: 'Database alice/prices was not found',
        method: 'GET',
        path: '/databases/alice/prices',
        isProblem: true,
      });

    it('signed out: says it may be private and offers Sign In to that host, not a retry', async () => {
      const { model, client } = setup({ signedIn: [] });
      client.failDatabase = notFound();
      const db = model.databaseNode(H, DB);
      await model.children(db); // starts the load
      await new Promise((r) => setImmediate(r));
      const children = await model.children(db);
      assert.deepEqual(labels(children), ['(alice/prices may be private: sign in to see it)']);
      const note = children[0] as { action?: { command: string; title: string; args?: unknown[] } };
      assert.deepEqual(note.action, { command: 'signIn', title: 'Sign In', args: [H] });
    });

    it('signed out: recognises the 404 of the API client bundle, whose ApiError is another class', async () => {
      const { model, client } = setup({ signedIn: [] });
      // What the lazily loaded client bundle throws: its own copy of ApiError (name and status).
      client.failDatabase = Object.assign(new (class extends Error {})('Database alice/prices was not found'), {
        name: 'ApiError',
        status: 404,
        code: 'NOT_FOUND',
      });
      const db = model.databaseNode(H, DB);
      await model.children(db);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(labels(await model.children(db)), ['(alice/prices may be private: sign in to see it)']);
    });

    it('signed out: a list that answers 404 says the same', async () => {
      const { model, client } = setup({ signedIn: [] });
      client.failBranches = notFound();
      assert.deepEqual(labels(await model.children(branchesNode(model))), ['(alice/prices may be private: sign in to see it)']);
    });

    it('signed in: it really is not there, so it stays an error with its retry', async () => {
      const { model, client } = setup({ signedIn: [H] });
      client.failDatabase = notFound();
      const db = model.databaseNode(H, DB);
      await model.children(db);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(labels(await model.children(db)), ['[error]']);
    });

    it('signed out: any other failure stays an error', async () => {
      const { model, client } = setup({ signedIn: [] });
      client.failDatabase = new ApiError({ status: 500, code: 'INTERNAL', title: 'Boom', method: 'GET', path: '/x', isProblem: true });
      const db = model.databaseNode(H, DB);
      await model.children(db);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(labels(await model.children(db)), ['[error]']);
    });
  });

  it('filters pulls by state on the client, open by default', async () => {
    const { model } = setup();
    const pull = (n: number, state: string): PullSummary => aPullSummary({ pull_number: n, title: `p${n}`, state });
    const { client } = { client: (model as unknown as { o: { backend: TreeBackend } }).o.backend.client(H) as unknown as FakeClient };
    client.pulls = [pull(1, 'open'), pull(2, 'closed'), pull(3, 'merged'), pull(4, 'open')];
    const node = model.categoryNode(H, DB, 'pulls');
    assert.deepEqual(labels(await model.children(node)), ['#1', '#4']);
    model.setPullStateFilter(H, DB, ['closed', 'merged']);
    assert.deepEqual(labels(await model.children(node)), ['#2', '#3']);
    model.setPullStateFilter(H, DB, []);
    assert.deepEqual(labels(await model.children(node)), ['#1', '#2', '#3', '#4']);
    client.pulls = [pull(2, 'closed')];
    model.setPullStateFilter(H, DB, ['open']);
    model.refresh(node);
    assert.deepEqual(labels(await model.children(node)), ['(No open pull requests)']);
  });

  it('running operations refresh themselves until they end', async () => {
    const { model, client, timers } = setup();
    const op = (status: string): Operation => anOperation({ id: 'owners/alice/repos/prices/jobs/1', type: 'fork', status });
    client.operations = [op('running')];
    const node = model.categoryNode(H, DB, 'operations');
    assert.deepEqual(labels(await model.children(node)), ['running']);
    assert.equal(timers.length, 1, 'a refresh is scheduled while one runs');
    client.operations = [op('succeeded')];
    timers[0]!.fn();
    assert.deepEqual(labels(await model.children(node)), ['succeeded']);
    assert.equal(timers.length, 1, 'no further refresh once every operation ended');
    assert.equal(client.calls.filter((c) => c === 'operations').length, 2);
  });

  it('refreshDatabase reloads just the named lists (for pulls, imports, forks)', async () => {
    const { model, client } = setup();
    const [host] = await model.children();
    await model.children(host);
    await model.children(branchesNode(model));
    await model.children(model.categoryNode(H, DB, 'pulls'));
    model.refreshDatabase(H, DB, ['pulls']);
    await model.children(branchesNode(model));
    await model.children(model.categoryNode(H, DB, 'pulls'));
    assert.equal(client.calls.filter((c) => c.startsWith('branches')).length, 1);
    assert.equal(client.calls.filter((c) => c.startsWith('pulls')).length, 2);
  });

  it('a structure change re-renders without reloading what is loaded', async () => {
    const { model, client, fired } = setup();
    await model.children(branchesNode(model));
    model.structureChanged();
    assert.equal(fired.at(-1), undefined);
    await model.children(branchesNode(model));
    assert.equal(client.calls.filter((c) => c.startsWith('branches')).length, 1);
  });

  it('a late answer to a load that was refreshed away is dropped', async () => {
    const { model, client } = setup();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const original = client.branches;
    client.branches = (t) => original(t);
    const slow = client.listBranches.bind(client);
    client.listBranches = async () => {
      await gate;
      return { items: [aBranch({ name: 'stale', head_commit_sha: hash(9) })] };
    };
    const node = branchesNode(model);
    const first = model.children(node);
    model.refresh(node);
    client.listBranches = slow;
    const second = await model.children(node);
    release();
    await first;
    assert.deepEqual(labels(second), ['b0', 'b1', '[loadMore]']);
    assert.deepEqual(labels(await model.children(node)), ['b0', 'b1', '[loadMore]']);
  });
});

describe('DatabaseTreeModel: Tables under a ref (issue #14)', () => {
  function catalog() {
    const sent: string[] = [];
    let fail: string | undefined;
    const cache = new TableCatalogCache({
      run: async ({ ref: commit }, sql) => {
        sent.push(`${commit} ${sql}`);
        if (fail) return { columns: [], rows: [], status: 'error', message: fail };
        if (sql === 'SHOW FULL TABLES') {
          return {
            columns: [
              { name: 'Tables_in_prices', type: 'text' },
              { name: 'Table_type', type: 'text' },
            ],
            rows: [
              ['stores', 'BASE TABLE'],
              ['cheap', 'VIEW'],
            ],
            status: 'success',
          };
        }
        return {
          columns: ['Field', 'Type', 'Null', 'Key'].map((name) => ({ name, type: 'text' })),
          rows: [
            ['id', 'bigint', 'NO', 'PRI'],
            ['city', 'varchar(64)', 'YES', ''],
          ],
          status: 'success',
        };
      },
    });
    return { cache, sent, setFail: (m: string | undefined) => (fail = m) };
  }

  it('without a catalog a branch has only its Commits (issue #15) and Tests (issue #24), and a release nothing', async () => {
    const { model } = setup();
    const [b] = await model.children(branchesNode(model));
    assert.deepEqual(
      (await model.children(b)).map((n) => n.kind),
      ['commits', 'tests'],
    );
    assert.equal(model.refHasChildren(), false);
  });

  it('with a catalog a branch holds Tables, then Commits and Tests', async () => {
    const { model } = setup({ catalog: catalog().cache });
    const [b] = await model.children(branchesNode(model));
    assert.deepEqual(
      (await model.children(b)).map((n) => n.kind),
      ['tables', 'commits', 'tests'],
    );
  });

  it('branch → Tables at its head commit → tables and views → columns with type, key and nullability', async () => {
    const c = catalog();
    const { model } = setup({ catalog: c.cache });
    const [b] = await model.children(branchesNode(model));
    const [tables] = await model.children(b);
    assert.equal(tables?.kind, 'tables');
    assert.equal(tables?.kind === 'tables' && tables.commit, hash(0));
    assert.equal(tables?.kind === 'tables' && tables.ref, 'b0');
    const list = await model.children(tables);
    assert.deepEqual(
      list.map((n) => (n.kind === 'table' ? `${n.table.name}:${n.table.kind}` : n.kind)),
      ['cheap:view', 'stores:table'],
    );
    const cols = await model.children(list[1]);
    assert.deepEqual(
      cols.map((n) => (n.kind === 'column' ? [n.column.name, n.column.type, n.column.primaryKey, n.column.nullable] : n.kind)),
      [
        ['id', 'bigint', true, false],
        ['city', 'varchar(64)', false, true],
      ],
    );
    assert.deepEqual(c.sent, [`${hash(0)} SHOW FULL TABLES`, `${hash(0)} DESCRIBE \`stores\``]);
  });

  it('the same commit is never asked twice; a refresh of the ref that brings a new head reads at it', async () => {
    const c = catalog();
    const { model, client } = setup({ catalog: c.cache });
    const [b] = await model.children(branchesNode(model));
    const [tables] = await model.children(b);
    await model.children(tables);
    // The tree re-renders (same ref node, same commit): no new request.
    await model.children(tables);
    model.refresh(tables); // refreshes the ref's list; the head has not moved
    const [b2] = await model.children(branchesNode(model));
    await model.children((await model.children(b2))[0]);
    assert.equal(c.sent.length, 1);
    // The branch moves on: its new head is read.
    client.branches = () => ({ items: [aBranch({ name: 'b0', head_commit_sha: hash(99) })] });
    model.refresh(b2);
    const [b3] = await model.children(branchesNode(model));
    const [tables3] = await model.children(b3);
    await model.children(tables3);
    assert.deepEqual(c.sent, [`${hash(0)} SHOW FULL TABLES`, `${hash(99)} SHOW FULL TABLES`]);
  });

  it('a failed read is an error row under Tables; retrying reads again', async () => {
    const c = catalog();
    const { model, fired } = setup({ catalog: c.cache });
    const [b] = await model.children(branchesNode(model));
    const [tables] = await model.children(b);
    c.setFail('database is locked');
    const failed = await model.children(tables);
    assert.equal(failed[0]?.kind, 'error');
    assert.match(String((failed[0] as { error: unknown }).error), /database is locked/);
    c.setFail(undefined);
    model.refresh(failed[0]);
    assert.ok(fired.length > 0);
    const [b2] = await model.children(branchesNode(model));
    const again = await model.children((await model.children(b2))[0]);
    assert.deepEqual(
      again.map((n) => n.kind),
      ['table', 'table'],
    );
    assert.equal(c.sent.length, 2);
  });

  it('tags and releases have Tables at their commit too', async () => {
    const c = catalog();
    const { model } = setup({ catalog: c.cache });
    const tagNode = {
      kind: 'tag' as const,
      hostId: H,
      db: DB,
      parent: model.categoryNode(H, DB, 'tags'),
      tag: { name: 'v1', commit_sha: hash(7), created_at: '' } as never,
    };
    const [tables] = await model.children(tagNode);
    assert.equal(tables?.kind === 'tables' && `${tables.ref}@${tables.commit}`, `v1@${hash(7)}`);
  });
});
