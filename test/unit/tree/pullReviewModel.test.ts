// "N new commits since your review" on a pull's tree item (issue #25): which pulls are read (open,
// reviewed by the current account), what the model answers once the branch is read, and that a
// moved mark or a refreshed list reads again while an unchanged one does not.
import { strict as assert } from 'node:assert';
import { DatabaseTreeModel, type TreeBackend } from '../../../src/tree/databaseTreeModel';
import type { PullNode, TreeNode } from '../../../src/tree/treeNodes';
import type { PullReviewSource } from '../../../src/tree/pullReviewModel';
import type { PullTarget } from '../../../src/core/targets';
import type { DatabaseRef, PullSummary } from '../../../src/shared/wire';
import type { SqlAt } from '../../../src/core/sql/sqlPort';
import { describePull } from '../../../src/core/nodeDescriptions';
import { silent } from '../../helpers/memoryFakes';
import { waitFor } from '../../helpers/waitFor.cjs';
import { aPull, aPullSummary } from '../../builders/wire';
import { result } from '../core/review/reviewTestKit';

const H = 'https://h.example';
const DB: DatabaseRef = { owner: 'alice', name: 'prices' };
const FORK: DatabaseRef = { owner: 'bob', name: 'prices' };
const hash = (c: string): string => c.repeat(32);

function setup() {
  let pulls: PullSummary[] = [
    aPullSummary({ pull_number: 1 }),
    aPullSummary({ pull_number: 2 }),
    aPullSummary({ pull_number: 3, state: 'closed' }),
  ];
  /** The branch of every pull, in the fork, and its commits newest first. */
  let log = [hash('c'), hash('b'), hash('a')];
  const marks = new Map<number, string>();
  const listeners = new Set<(t: PullTarget) => void>();
  const sent: { sql: string; db: string }[] = [];
  const gets: number[] = [];
  const reviews: PullReviewSource = {
    reviewed: (t) => marks.get(t.pullNumber),
    onDidChange: (l) => (listeners.add(l), { dispose: () => listeners.delete(l) }),
    getPull: async (_h, _db, n) => {
      gets.push(n);
      return aPull({ pull_number: n, from_branch: { database: FORK, branch_name: 'feature' } });
    },
  };
  const backend: TreeBackend = {
    availableHostIds: () => [H],
    isSignedIn: () => true,
    databases: () => [DB],
    hostIdsWithDatabases: () => [H],
    client: () => ({
      getDatabase: async (db) => ({ ...db, visibility: 'public', fork_network_count: 0, star_count: 0, size_bytes: 1 }),
      listBranches: async () => ({ items: [] }),
      listTags: async () => ({ items: [] }),
      listReleases: async () => ({ items: [] }),
      listPulls: async () => ({ items: pulls }),
      listForks: async () => [],
      listOperations: async () => ({ items: [] }),
    }),
    review: (_h, db) => async (q: SqlAt) => {
      sent.push({ sql: q.sql, db: `${db.owner}/${db.name}` });
      if (q.sql.includes('HASHOF')) return result(['commit_hash'], [[log[0]!]]);
      const m = /DOLT_LOG\('([a-z0-9]+)\.\.([a-z0-9]+)'/.exec(q.sql);
      assert.ok(m, q.sql);
      const from = log.indexOf(m[1]!);
      if (from < 0) return result([], [], 'error', `no commit ${m[1]}`);
      const rows = log.slice(log.indexOf(m[2]!), from).map((h) => [h, 'bob', 'b@x', '2026-11-21 09:00:00', 'm', '']);
      return result(['commit_hash', 'committer', 'email', 'date', 'message', 'parents'], rows);
    },
  };
  const model = new DatabaseTreeModel({
    backend,
    log: silent,
    commands: { startLocalHub: 's', addDatabase: 'a', signIn: 'i' },
    localHubHostId: 'local',
    reviews,
  });
  const fired: (TreeNode | undefined)[] = [];
  model.onDidChange((n) => fired.push(n));
  const category = model.categoryNode(H, DB, 'pulls');
  model.databaseNode(H, DB);
  const pullNodes = async (): Promise<PullNode[]> => (await model.children(category)).filter((n): n is PullNode => n.kind === 'pull');
  const mark = (n: number, h: string): void => {
    marks.set(n, h);
    for (const l of listeners) l({ hostId: H, db: DB, pullNumber: n });
  };
  return {
    model,
    fired,
    sent,
    gets,
    category,
    pullNodes,
    mark,
    setLog: (l: string[]) => (log = l),
    setPulls: (p: PullSummary[]) => (pulls = p),
  };
}

describe('pull items: new commits since your review', () => {
  it('reads only open pulls the account reviewed, in the branch database, and says how many commits are new', async () => {
    const t = setup();
    t.mark(1, hash('a'));
    t.mark(3, hash('a'));
    const [p1, p2] = await t.pullNodes();
    assert.equal(t.model.pullReview(p1!), undefined, 'not read yet');
    assert.equal(t.model.pullReview(p2!), undefined, 'never reviewed');
    const state = await waitFor('pull 1 read', () => t.model.pullReview(p1!));
    assert.deepEqual(state, { kind: 'new', reviewed: hash('a'), head: hash('c'), count: 2, more: false });
    assert.deepEqual(t.gets, [1], 'the closed pull and the unreviewed one are not read');
    assert.ok(
      t.sent.every((s) => s.db === 'bob/prices'),
      'read where the branch is',
    );
    assert.ok(t.fired.includes(t.category), 'the list re-renders');
    const text = describePull(p1!.pull, Date.parse('2026-11-22T09:00:00Z'), state);
    assert.match(text.description ?? '', /^2 new commits since your review · open/);
    assert.ok(text.tooltip.fields.some(([k, v]) => k === 'Your review' && v.includes(hash('a').slice(0, 7))));
  });

  it('reads again when the mark moves or the list is refreshed, and not otherwise', async () => {
    const t = setup();
    t.mark(1, hash('b'));
    let [p1] = await t.pullNodes();
    t.model.pullReview(p1!);
    assert.equal((await waitFor('read', () => t.model.pullReview(p1!)))?.kind, 'new');
    t.model.pullReview(p1!);
    assert.deepEqual(t.gets, [1], 'one read for one mark and one list');

    t.fired.length = 0;
    t.mark(1, hash('c'));
    assert.ok(t.fired.includes(t.category), 'a moved mark re-renders the list');
    assert.equal(t.model.pullReview(p1!), undefined);
    assert.deepEqual(await waitFor('reread', () => t.model.pullReview(p1!)), { kind: 'current', reviewed: hash('c') });
    assert.equal(describePull(p1!.pull, 0, { kind: 'current', reviewed: hash('c') }).description?.includes('since'), false);

    // A push, then the list refreshed: read again.
    t.setLog([hash('d'), hash('c'), hash('b'), hash('a')]);
    t.setPulls([aPullSummary({ pull_number: 1 })]);
    t.model.refresh(t.category);
    [p1] = await t.pullNodes();
    const after = await waitFor('after refresh', () => t.model.pullReview(p1!));
    assert.deepEqual(after, { kind: 'new', reviewed: hash('c'), head: hash('d'), count: 1, more: false });
    assert.match(describePull(p1!.pull, 0, after).description ?? '', /^1 new commit since your review/);
    assert.deepEqual(t.gets, [1, 1, 1]);
  });

  it('a reviewed commit the branch no longer has reads as changed', async () => {
    const t = setup();
    t.mark(1, hash('z'));
    const [p1] = await t.pullNodes();
    t.model.pullReview(p1!);
    const state = await waitFor('read', () => t.model.pullReview(p1!));
    assert.equal(state.kind, 'changed');
    assert.match(describePull(p1!.pull, 0, state).description ?? '', /^changed since your review/);
  });
});
