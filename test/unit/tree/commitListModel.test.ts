// The Commits lists under branches and tags: first page on expand, Load more reads the next page at
// the hash pinned when the list opened (a commit made meanwhile does not shift the pages), Refresh
// pins again, failures and cut-short pages are shown. The fake SQL server answers HASHOF and
// DOLT_LOG from its own history, so the expectations come from that history, not from the model.
import { portOver } from '../../helpers/sqlPorts';
import { strict as assert } from 'node:assert';
import { DatabaseTreeModel, type TreeBackend, type TreeClient } from '../../../src/tree/databaseTreeModel';
import type { BranchNode, CommitsNode, TreeNode } from '../../../src/tree/treeNodes';
import type { DatabaseRef, QueryResult } from '../../../src/shared/wire';
import { silent } from '../../helpers/memoryFakes';
import { aBranch, aTag } from '../../builders/wire';

const H = 'https://h.example';
const DB: DatabaseRef = { owner: 'alice', name: 'prices' };
const hash = (n: number): string => `c${String(n).padStart(31, '0')}`;
const LOG_COLUMNS = ['commit_hash', 'committer', 'email', 'date', 'message', 'parents'];

/** A linear history c0 ← c1 ← … ; `heads` says where each ref points. */
class FakeSqlServer implements TreeClient {
  commits = 7;
  heads = new Map<string, number>([
    ['main', 6],
    ['v1', 2],
  ]);
  sent: { ref: string; q: string; limit?: number }[] = [];
  status: QueryResult['status'] = 'success';
  fail: Error | undefined;
  async runSql(_db: DatabaseRef, query: { ref: string; q: string; limit?: number }): Promise<QueryResult> {
    this.sent.push(query);
    if (this.fail) throw this.fail;
    const hashOf = /^SELECT HASHOF\('([^']+)'\) AS commit_hash$/.exec(query.q);
    if (hashOf)
      return {
        status: 'success',
        columns: [{ name: 'commit_hash', type: 'text' }],
        rows: [[hash(this.heads.get(hashOf[1]!)!)]],
      } as QueryResult;
    const log = /FROM DOLT_LOG\('(c\d{31})', '--parents'\) LIMIT (\d+)(?: OFFSET (\d+))?$/.exec(query.q);
    assert.ok(log, `unexpected SQL ${query.q}`);
    assert.equal(query.ref, log[1], 'a log page is sent at the pinned hash');
    const head = Number(log[1]!.slice(1));
    const all = Array.from({ length: head + 1 }, (_, i) => head - i).map((n) => [
      hash(n),
      n % 2 ? 'Bob' : 'Alice',
      'x@example.com',
      `2026-01-0${1 + (n % 9)} 10:00:00`,
      `change ${n}\n\nmore text`,
      n === 0 ? '' : n === 4 ? `${hash(3)}, ${hash(1)}` : hash(n - 1),
    ]);
    const offset = Number(log[3] ?? 0);
    return {
      status: this.status,
      columns: LOG_COLUMNS.map((name) => ({ name, type: 'text' })),
      rows: all.slice(offset, offset + Number(log[2])),
    } as QueryResult;
  }
  async getDatabase(db: DatabaseRef) {
    return { ...db, visibility: 'public', fork_network_count: 0, star_count: 0, size_bytes: 1 };
  }
  async listBranches() {
    return { items: [aBranch({ name: 'main', head_commit_sha: hash(6) })] };
  }
  async listTags() {
    return { items: [aTag({ name: 'v1', commit_sha: hash(2) })] };
  }
  async listReleases() {
    return { items: [] };
  }
  async listPulls() {
    return { items: [] };
  }
  async listForks() {
    return [];
  }
  async listOperations() {
    return { items: [] };
  }
}

function setup() {
  const server = new FakeSqlServer();
  const backend: TreeBackend = {
    availableHostIds: () => [H],
    isSignedIn: () => true,
    databases: () => [DB],
    hostIdsWithDatabases: () => [H],
    client: () => server,
    review: (hostId, db) => portOver(server).review(hostId, db),
  };
  const model = new DatabaseTreeModel({
    backend,
    log: silent,
    commands: { startLocalHub: 's', addDatabase: 'a', signIn: 'i' },
    localHubHostId: 'local',
  });
  const fired: (TreeNode | undefined)[] = [];
  model.onDidChange((n) => fired.push(n));
  return { model, server, fired };
}

function subjects(nodes: TreeNode[]): string[] {
  return nodes.map((n) =>
    n.kind === 'commit' ? `${n.commit.subject}${n.commit.isMerge ? ' (merge)' : ''}` : n.kind === 'message' ? `(${n.text})` : `[${n.kind}]`,
  );
}

async function commitsOf(model: DatabaseTreeModel, category: 'branches' | 'tags'): Promise<CommitsNode> {
  const [item] = await model.children(model.categoryNode(H, DB, category));
  const kids = await model.children(item as BranchNode);
  // Commits, then the database's tests (issue #24).
  assert.deepEqual(
    kids.map((k) => k.kind),
    ['commits', 'tests'],
  );
  // The same node object each time, as VS Code identifies tree items by it.
  assert.equal((await model.children(item as BranchNode))[0], kids[0]);
  return kids[0] as CommitsNode;
}

describe('Commits lists in the tree', () => {
  it('a branch shows Commits; its first page pins the head, Load more reads on at that hash even after a new commit', async () => {
    const { model, server, fired } = setup();
    const commits = await commitsOf(model, 'branches');
    assert.equal(commits.ref, 'main');
    const first = await childrenWithPageSize(model, commits);
    // The default page is 50: this history of 7 commits fits; check pinning with a small page below.
    assert.deepEqual(subjects(first), ['change 6', 'change 5', 'change 4 (merge)', 'change 3', 'change 2', 'change 1', 'change 0']);
    assert.equal(server.sent[0]!.q, "SELECT HASHOF('main') AS commit_hash");
    assert.equal(server.sent[0]!.ref, 'main');
    assert.equal(fired.length, 0);
  });

  it('pages by the Load more node at the pinned hash', async () => {
    const { model, server, fired } = setup();
    // A page of 3: reach into the list model the tree uses (the page size is its option).
    (model as unknown as { commitLists: { o: { pageSize: number } } }).commitLists.o.pageSize = 3;
    const commits = await commitsOf(model, 'branches');
    const page1 = await model.children(commits);
    assert.deepEqual(subjects(page1), ['change 6', 'change 5', 'change 4 (merge)', '[loadMore]']);
    server.heads.set('main', 8);
    server.commits = 9;
    await model.loadMore(page1[3] as never);
    assert.ok(fired.includes(commits), 'the Commits node re-renders');
    const page2 = await model.children(commits);
    assert.deepEqual(subjects(page2), ['change 6', 'change 5', 'change 4 (merge)', 'change 3', 'change 2', 'change 1', '[loadMore]']);
    await model.loadMore(commits);
    assert.deepEqual(subjects(await model.children(commits)), [
      'change 6',
      'change 5',
      'change 4 (merge)',
      'change 3',
      'change 2',
      'change 1',
      'change 0',
    ]);
    assert.equal(server.sent.filter((s) => s.q.startsWith('SELECT HASHOF')).length, 1, 'pinned once');
    assert.deepEqual(
      server.sent.filter((s) => s.q.includes('DOLT_LOG')).map((s) => s.limit),
      [4, 4, 4],
      'each page asks for one row more',
    );
    // Refresh on the node pins again: the new commits appear.
    model.refresh(commits);
    assert.deepEqual(subjects(await model.children(commits)).slice(0, 3), ['change 8', 'change 7', 'change 6']);
  });

  it('a tag shows its own log; a reloaded tag list pins again', async () => {
    const { model, server } = setup();
    const commits = await commitsOf(model, 'tags');
    assert.deepEqual(subjects(await model.children(commits)), ['change 2', 'change 1', 'change 0']);
    server.heads.set('v1', 3);
    model.refresh(model.categoryNode(H, DB, 'tags'));
    assert.deepEqual(subjects(await model.children(commits)), ['change 3', 'change 2', 'change 1', 'change 0']);
  });

  it('a failure is an error node under Commits (retry refreshes it); a cut-short page says so and offers more', async () => {
    const { model, server } = setup();
    const commits = await commitsOf(model, 'branches');
    server.fail = new Error('boom');
    const failed = await model.children(commits);
    assert.deepEqual(subjects(failed), ['[error]']);
    server.fail = undefined;
    model.refresh(failed[0]!);
    assert.equal((await model.children(commits)).length, 7);
    server.status = 'timeout';
    model.refresh(commits);
    const partial = subjects(await model.children(commits));
    assert.match(partial[partial.length - 2]!, /only part of this page \(timed out\)/);
    assert.equal(partial[partial.length - 1], '[loadMore]');
  });

  it('a bad ref name is refused before any SQL is sent', async () => {
    const { model, server } = setup();
    const branch = (await model.children(model.categoryNode(H, DB, 'branches')))[0] as BranchNode;
    const odd: BranchNode = { ...branch, branch: { ...branch.branch, name: 'two words' } };
    const commits = (await model.children(odd))[0] as CommitsNode;
    const kids = await model.children(commits);
    assert.deepEqual(subjects(kids), ['[error]']);
    assert.match(String((kids[0] as { error: Error }).error.message), /.+/);
    assert.equal(server.sent.length, 0);
  });
});

function childrenWithPageSize(model: DatabaseTreeModel, node: CommitsNode): Promise<TreeNode[]> {
  return model.children(node);
}
