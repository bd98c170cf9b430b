import { strict as assert } from 'node:assert';
import { ScriptedUi } from '../../helpers/scriptedUi';
import { aBranch, anOperation, aPull, aPullComment } from '../../builders/wire';
import {
  commentOnPullCommand,
  editPullCommand,
  pullTargetFromArg,
  pullWebUrl,
  resolvePullTarget,
  setPullStateCommand,
  type PullApi,
  type PullEnv,
} from '../../../src/commands/pullActions';
import { createPullCommand, defaultPullTitle } from '../../../src/commands/createPullCommand';
import { mergePullCommand } from '../../../src/commands/mergePullCommand';
import { compareRuns, type SideRun } from '../../../src/core/dataTests/pullChecks';
import type { TestOutcome } from '../../../src/core/dataTests/dataTests';
import type { PullTarget } from '../../../src/core/targets';
import { runOperation } from '../../../src/commands/operationsRunner';
import type { OperationsUi } from '../../../src/commands/commandDeps';
import { OperationFailedError } from '../../../src/api/errors';
import type { Branch, CreatePullBody, DatabaseRef, Operation, OperationError, Pull, PullComment } from '../../../src/shared/wire';

const alice = { owner: 'alice', name: 'inventory' };
const bobFork = { owner: 'bob', name: 'inventory' };

/** An in-memory server with the shape of the API: enough state to see what a command changed. */
class FakeServer implements PullApi {
  pulls: Pull[] = [];
  comments: PullComment[] = [];
  branches = new Map<string, Branch[]>([
    ['alice/inventory', [branch('main'), branch('prices')]],
    ['bob/inventory', [branch('main'), branch('fix-typo')]],
  ]);
  forks = new Map<string, DatabaseRef[]>([['alice/inventory', [bobFork]]]);
  roots = new Map<string, DatabaseRef>([['bob/inventory', alice]]);
  mergeOutcome: 'succeeded' | OperationError = 'succeeded';
  calls: string[] = [];
  /** How many of the next writes (open, edit, comment) fail as an unreachable host would. */
  failWrites = 0;

  private write(what: string): void {
    this.calls.push(what);
    if (this.failWrites <= 0) return;
    this.failWrites--;
    throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'ApiError', status: 0, code: 'NETWORK' });
  }

  private key(db: DatabaseRef): string {
    return `${db.owner}/${db.name}`;
  }
  async getDatabase(db: DatabaseRef) {
    this.calls.push(`getDatabase ${this.key(db)}`);
    const root = this.roots.get(this.key(db));
    return root ? { network_root: root } : {};
  }
  async listForks(db: DatabaseRef) {
    return this.forks.get(this.key(db)) ?? [];
  }
  async listBranches(db: DatabaseRef, page?: { pageToken?: string }) {
    // Two pages, to prove every page is read.
    const all = this.branches.get(this.key(db)) ?? [];
    return page?.pageToken ? { items: all.slice(1) } : all.length > 1 ? { items: all.slice(0, 1), nextPageToken: 'p2' } : { items: all };
  }
  async listPulls(_db: DatabaseRef, page?: { pageToken?: string }) {
    const half = Math.ceil(this.pulls.length / 2);
    return page?.pageToken ? { items: this.pulls.slice(half) } : { items: this.pulls.slice(0, half), nextPageToken: 'next' };
  }
  async getPull(_db: DatabaseRef, n: number | string) {
    const p = this.pulls.find((x) => x.pull_number === Number(n));
    if (!p) throw Object.assign(new Error('not found'), { name: 'ApiError', status: 404 });
    return { ...p };
  }
  async createPull(db: DatabaseRef, body: CreatePullBody) {
    this.write(`createPull ${JSON.stringify(body)}`);
    const p: Pull = aPull({ pull_number: this.pulls.length + 1, created_at: '2026-11-21T10:00:00Z', creator: 'alice', ...body });
    assert.deepEqual(body.to_branch.database, { owner: db.owner, name: db.name });
    this.pulls.push(p);
    return p;
  }
  async updatePull(_db: DatabaseRef, n: number | string, patch: Partial<Pull>) {
    this.write(`updatePull #${n} ${JSON.stringify(patch)}`);
    const p = this.pulls.find((x) => x.pull_number === Number(n));
    if (!p) throw Object.assign(new Error('not found'), { name: 'ApiError', status: 404 });
    Object.assign(p, patch);
    return { ...p };
  }
  async listPullComments() {
    return this.comments;
  }
  async createPullComment(_db: DatabaseRef, n: number | string, body: { body: string }) {
    this.write(`comment #${n} ${body.body}`);
    const c = aPullComment({ comment_id: String(this.comments.length + 1), author: 'alice', body: body.body });
    this.comments.push(c);
    return c;
  }
  async mergePull(_db: DatabaseRef, n: number | string) {
    this.calls.push(`merge #${n}`);
    return { id: `owners/alice/repos/inventory/jobs/${n}`, href: `http://hub/api/v2/operations/owners/alice/repos/inventory/jobs/${n}` };
  }
  async waitForOperation(ref: { id: string }, opts?: { onUpdate?: (o: Operation) => void }) {
    const base: Operation = anOperation({ id: ref.id, type: 'merge', status: 'running' });
    opts?.onUpdate?.(base);
    if (this.mergeOutcome === 'succeeded') {
      const n = Number(ref.id.split('/').pop());
      this.pulls.find((x) => x.pull_number === n)!.state = 'merged';
      return { ...base, status: 'succeeded', result: { pull_id: n } };
    }
    throw new OperationFailedError({ ...base, status: 'failed', error: this.mergeOutcome });
  }
}

function branch(name: string): Branch {
  return aBranch({ name });
}

function pull(n: number, state: string, title = `Pull ${n}`): Pull {
  return aPull({
    pull_number: n,
    title,
    state,
    from_branch: { database: alice, branch_name: 'prices' },
    to_branch: { database: alice, branch_name: 'main' },
  });
}

function setup(hosts = [{ id: 'h1', label: 'Hub', siteUrl: 'http://hub', isLocal: false }]) {
  const server = new FakeServer();
  const ui = new ScriptedUi([], { answerMessages: false });
  const changed: PullTarget[] = [];
  const shownPulls: PullTarget[] = [];
  const failures: { what: string; error: OperationError; operationId: string }[] = [];
  const watched: Parameters<OperationsUi['run']>[0][] = [];
  const env: PullEnv = {
    ui,
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    clients: { hosts: () => hosts, clientFor: () => server },
    databases: { list: () => [alice] },
    operations: {
      run: async (o) => {
        watched.push(o);
        return runOperation({ start: o.start, waiter: o.client, signal: new AbortController().signal });
      },
      showFailure: async (what, error, ids) => {
        failures.push({ what, error, operationId: ids.operationId });
      },
    },
    showPull: async (t) => {
      shownPulls.push(t);
    },
    pullChanged: (t) => changed.push(t),
  };
  return { server, ui, env, changed, shownPulls, failures, watched };
}

const node = (n: number) => ({ hostId: 'h1', db: alice, pull: { pull_number: n } });

describe('pull request commands', () => {
  it('reads the pull from a tree node or an explicit target, and refuses junk', () => {
    assert.deepEqual(pullTargetFromArg(node(3)), { hostId: 'h1', db: alice, pullNumber: 3 });
    assert.deepEqual(pullTargetFromArg({ hostId: 'h1', database: alice, pullNumber: 4 }), { hostId: 'h1', db: alice, pullNumber: 4 });
    assert.equal(pullTargetFromArg({ hostId: 'h1', db: alice, pullNumber: -1 }), undefined);
    assert.equal(pullTargetFromArg('alice/inventory#3'), undefined);
  });

  it('from the palette, asks for the database and offers only pulls in the wanted state, across pages', async () => {
    const { server, ui, env } = setup();
    server.pulls = [pull(1, 'open'), pull(2, 'closed'), pull(3, 'merged'), pull(4, 'open')];
    ui.answer('alice/inventory', '#4 Pull 4');
    const t = await resolvePullTarget(env, undefined, ['open']);
    assert.deepEqual(t, { hostId: 'h1', db: alice, pullNumber: 4 });
    assert.deepEqual(ui.picks[1]!.labels, ['#1 Pull 1', '#4 Pull 4']);
  });

  it('opens a pull from a fork branch into main, then shows it', async () => {
    const { ui, env, shownPulls, changed } = setup();
    ui.answer('main', 'bob/inventory:fix-typo', 'Fix typo', 'Fixes a **typo**');
    const created = await createPullCommand(env, { hostId: 'h1', db: alice });
    assert.ok(created);
    assert.deepEqual(created.from_branch, { database: bobFork, branch_name: 'fix-typo' });
    assert.deepEqual(created.to_branch, { database: alice, branch_name: 'main' });
    assert.equal(created.title, 'Fix typo');
    assert.equal(created.description, 'Fixes a **typo**');
    // The from picker lists the database's own branches first, then the fork's, never the target itself.
    assert.deepEqual(ui.picks[1]!.labels, ['prices', 'bob/inventory:main', 'bob/inventory:fix-typo']);
    assert.equal(ui.inputs[0]!.value, 'Fix typo');
    assert.deepEqual(shownPulls, [{ hostId: 'h1', db: alice, pullNumber: 1 }]);
    assert.equal(changed.length, 1);
  });

  it('opening from a fork walks up to the network root and offers the root and its forks', async () => {
    const { ui, env } = setup();
    ui.answer('main', undefined);
    await createPullCommand(env, { hostId: 'h1', db: bobFork });
    assert.deepEqual(ui.picks[0]!.labels, ['main', 'fix-typo']);
    assert.deepEqual(ui.picks[1]!.labels, ['fix-typo', 'alice/inventory:main', 'alice/inventory:prices']);
  });

  it('dismissing any step opens nothing', async () => {
    const { server, ui, env } = setup();
    ui.answer('main', 'prices', undefined);
    assert.equal(await createPullCommand(env, { hostId: 'h1', db: alice }), undefined);
    assert.equal(server.pulls.length, 0);
  });

  it('omits an empty description instead of sending ""', async () => {
    const { server, ui, env } = setup();
    ui.answer('main', 'prices', 'Prices', '  ');
    await createPullCommand(env, { hostId: 'h1', db: alice });
    assert.ok(!server.calls.some((c) => c.includes('"description"')));
  });

  it('edits title and description, sending only what changed', async () => {
    const { server, ui, env, changed } = setup();
    server.pulls = [pull(1, 'open', 'Old title')];
    ui.answer('Old title', 'New description');
    const updated = await editPullCommand(env, node(1));
    assert.equal(updated?.description, 'New description');
    assert.deepEqual(
      server.calls.filter((c) => c.startsWith('updatePull')),
      ['updatePull #1 {"description":"New description"}'],
    );
    assert.equal(changed.length, 1);
  });

  it('an edit that changes nothing sends nothing and says so', async () => {
    const { server, ui, env } = setup();
    server.pulls = [pull(1, 'open', 'Same')];
    await editPullCommand(env, node(1), { title: 'Same', description: '' });
    assert.ok(!server.calls.some((c) => c.startsWith('updatePull')));
    assert.match(ui.infos[0]!, /unchanged/);
  });

  it('closes and reopens', async () => {
    const { server, ui, env } = setup();
    server.pulls = [pull(1, 'open')];
    assert.equal((await setPullStateCommand(env, node(1), 'closed'))?.state, 'closed');
    assert.match(ui.infos.at(-1)!, /#1 is closed/);
    assert.equal((await setPullStateCommand(env, node(1), 'open'))?.state, 'open');
    assert.equal(server.pulls[0]!.state, 'open');
  });

  it('posts a comment and refuses an empty one', async () => {
    const { server, ui, env } = setup();
    server.pulls = [pull(1, 'open')];
    assert.equal((await commentOnPullCommand(env, node(1), 'LGTM'))?.body, 'LGTM');
    assert.equal(await commentOnPullCommand(env, node(1), '   '), undefined);
    assert.deepEqual(
      server.comments.map((c) => c.body),
      ['LGTM'],
    );
    assert.match(ui.infos[0]!, /empty comment/);
  });

  it('a comment that fails to post is kept: Edit and Try Again asks from it and posts it', async () => {
    const { server, ui, env } = setup();
    server.pulls = [pull(1, 'open')];
    server.failWrites = 1;
    ui.answer('A long\n\nreview');
    assert.equal(await commentOnPullCommand(env, node(1)), undefined);
    assert.equal(server.comments.length, 0);
    const unsent = ui.errorContexts[0]!.unsent!;
    assert.equal(unsent.text, 'A long\n\nreview');
    ui.answer('');
    const posted = (await unsent.again!()) as PullComment | undefined;
    assert.equal(ui.inputs[1]!.value, 'A long\n\nreview');
    assert.equal(posted?.body, 'A long\n\nreview');
    assert.deepEqual(
      server.comments.map((c) => c.body),
      ['A long\n\nreview'],
    );
  });

  it('an edit that fails keeps the title and description written, and asks from them again', async () => {
    const { server, ui, env } = setup();
    server.pulls = [pull(1, 'open', 'Old title')];
    server.failWrites = 1;
    ui.answer('New title', 'Why:\n- a\n- b');
    assert.equal(await editPullCommand(env, node(1)), undefined);
    const unsent = ui.errorContexts[0]!.unsent!;
    assert.equal(unsent.text, 'Why:\n- a\n- b');
    ui.answer('', '');
    await unsent.again!();
    assert.deepEqual(
      ui.inputs.slice(2).map((i) => i.value),
      ['New title', 'Why:\n- a\n- b'],
    );
    assert.equal(server.pulls[0]!.title, 'New title');
    assert.equal(server.pulls[0]!.description, 'Why:\n- a\n- b');
    // The pull view's own form keeps its text: an edit handed over whole offers nothing again.
    server.failWrites = 1;
    await editPullCommand(env, node(1), { title: 'Other', description: '' });
    assert.equal(ui.errorContexts[1]!.unsent, undefined);
  });

  it('opening a pull that fails keeps what was written and asks again from the same branches', async () => {
    const { server, ui, env } = setup();
    server.failWrites = 1;
    ui.answer('prices', 'bob/inventory:fix-typo', 'Fix typo', 'Fixes a **typo**');
    assert.equal(await createPullCommand(env, { hostId: 'h1', db: alice }), undefined);
    const unsent = ui.errorContexts[0]!.unsent!;
    assert.equal(unsent.text, 'Fixes a **typo**');
    ui.answer('prices', 'bob/inventory:fix-typo', '', '');
    const created = (await unsent.again!()) as Pull | undefined;
    // The branches picked before are offered picked and first; the texts start from what was written.
    assert.deepEqual(ui.picks[2]!.picked, ['prices']);
    assert.equal(ui.picks[3]!.labels[0], 'bob/inventory:fix-typo');
    assert.deepEqual(
      ui.inputs.slice(2).map((i) => i.value),
      ['Fix typo', 'Fixes a **typo**'],
    );
    assert.deepEqual(created?.from_branch, { database: bobFork, branch_name: 'fix-typo' });
    assert.deepEqual(created?.to_branch, { database: alice, branch_name: 'prices' });
    assert.equal(created?.description, 'Fixes a **typo**');
  });

  it('merges after confirmation, watching the operation, and ends with the pull merged', async () => {
    const { server, ui, env, watched } = setup();
    server.pulls = [pull(2, 'open', 'Add prices')];
    ui.answer(true);
    const r = await mergePullCommand(env, node(2));
    assert.equal(r.kind, 'merged');
    assert.equal(r.kind === 'merged' && r.pull.state, 'merged');
    assert.match(ui.confirms[0]!, /Merge pull request #2 "Add prices"\?/);
    assert.match(watched[0]!.title, /Merging pull request #2 into main/);
    assert.match(ui.infos[0]!, /Pull request #2 is merged: prices → main/);
  });

  it('the confirmation says what the preview found: rows per table and conflicts; a failed preview says it is unknown', async () => {
    const { server, ui, env } = setup();
    server.pulls = [pull(2, 'open', 'Add prices')];
    const changes = {
      table: 'stock',
      fromTable: 'stock',
      toTable: 'stock',
      kind: 'modified' as const,
      dataChanged: true,
      schemaChanged: false,
      rows: { added: 1, modified: 2, removed: 0 },
    };
    env.previewMerge = async () => ({
      kind: 'ready',
      impact: {
        tables: [changes],
        rowsChanged: 3,
        conflictingTables: [{ table: 'stock', dataConflicts: 1, schemaConflicts: 0 }],
        willConflict: true,
      },
      completeness: { complete: true },
      conflictsAt: { db: alice, ours: 'main', theirs: 'prices' },
      pair: { kind: 'twoDot', from: 'a'.repeat(32), to: 'b'.repeat(32) },
      diffDb: alice,
    });
    ui.answer(false);
    assert.equal((await mergePullCommand(env, node(2))).kind, 'dismissed');
    assert.match(
      ui.confirmDetails[0]!,
      /It changes 3 rows in 1 table:\n• stock: 1 added, 2 modified\n\nIt will conflict in stock \(1 row\)/,
    );
    assert.match(ui.progressTitles[0]!, /Previewing the merge of pull request #2/);
    env.previewMerge = async () => {
      throw new Error('server gone');
    };
    ui.answer(false);
    await mergePullCommand(env, node(2));
    assert.match(
      ui.confirmDetails[1]!,
      /could not be previewed \(server gone\): how many rows it changes and whether it conflicts are not known/,
    );
    assert.ok(!server.calls.includes('merge #2'));
  });

  it('the confirmation names newly failing tests and failed CI and asks again; declining the second question merges nothing (issue #24)', async () => {
    const { server, ui, env } = setup();
    server.pulls = [pull(2, 'open', 'Add prices')];
    const ran = (o: Record<string, TestOutcome>): SideRun => ({ kind: 'ran', commit: 'c', outcomes: new Map(Object.entries(o)) });
    const [base, head] = [ran({ totals: { status: 'pass' } }), ran({ totals: { status: 'fail', message: 'got 3' } })];
    const failedCi = anOperation({
      type: 'svc_ci',
      status: 'failed',
      error: { status: 422, code: 'OPERATION_FAILED', title: 'CI failed', detail: 'off by 2' },
    });
    env.pullChecks = async () => ({
      base,
      head,
      tests: compareRuns(base, head),
      ci: [{ operation: failedCi, workflow: 'nightly', branchKnown: true }],
    });
    ui.answer(true);
    ui.answer(false);
    assert.equal((await mergePullCommand(env, node(2))).kind, 'dismissed');
    assert.match(ui.confirmDetails[0]!, /Newly failing tests .*: totals\.\nFailed CI: nightly \(off by 2\)/);
    assert.match(ui.confirms[1]!, /does not pass its checks\. Merge anyway\?/);
    assert.match(ui.confirmDetails[1]!, /totals/);
    assert.ok(!server.calls.includes('merge #2'));
    // Checks that pass ask once; a run that did not finish is named as not known, never passed.
    env.pullChecks = async () => ({
      base,
      head: { kind: 'notRun', reason: 'Timed out' },
      tests: compareRuns(base, { kind: 'notRun', reason: 'Timed out' }),
      ci: [],
    });
    ui.answer(false);
    await mergePullCommand(env, node(2));
    assert.equal(ui.confirms.length, 3);
    assert.match(ui.confirmDetails[2]!, /Not run, so not known to pass: totals/);
  });

  it('declining the confirmation merges nothing', async () => {
    const { server, ui, env } = setup();
    server.pulls = [pull(2, 'open')];
    ui.answer(false);
    assert.equal((await mergePullCommand(env, node(2))).kind, 'dismissed');
    assert.ok(!server.calls.includes('merge #2'));
  });

  it('a failed merge shows the OperationError and leaves the pull open', async () => {
    const { server, ui, env, failures } = setup();
    server.pulls = [pull(2, 'open')];
    server.mergeOutcome = { status: 409, code: 'CONFLICT', title: 'Merge conflict', detail: 'Conflicts in: parts' };
    ui.answer(true);
    const r = await mergePullCommand(env, node(2));
    assert.equal(r.kind, 'failed');
    assert.deepEqual(failures, [
      { what: 'Merging pull request #2', error: server.mergeOutcome, operationId: 'owners/alice/repos/inventory/jobs/2' },
    ]);
    assert.equal(server.pulls[0]!.state, 'open');
  });

  it('does not offer to merge a pull that is no longer open', async () => {
    const { server, ui, env } = setup();
    server.pulls = [pull(2, 'closed')];
    assert.equal((await mergePullCommand(env, node(2))).kind, 'notOpen');
    assert.match(ui.infos[0]!, /closed; only an open pull request can be merged/);
  });

  it('API errors go to the one error reporter', async () => {
    const { ui, env } = setup();
    assert.equal(await setPullStateCommand(env, node(99), 'closed'), undefined);
    assert.equal((await mergePullCommand(env, node(99))).kind, 'error');
    assert.deepEqual(
      ui.errors.map((e) => (e as { status?: number }).status),
      [404, 404],
    );
  });

  it('builds the web address and a title from a branch name', () => {
    assert.equal(
      pullWebUrl('https://site.example/', { hostId: 'h', db: alice, pullNumber: 5 }),
      'https://site.example/repositories/alice/inventory/pulls/5',
    );
    assert.equal(defaultPullTitle('add-prices_table'), 'Add prices table');
  });
});
