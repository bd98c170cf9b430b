// Row and cell comments (issue #25) through the real hub: an anchored body posted as a pull comment
// comes back byte for byte, and parses to the same anchor, for keys of any type and text; threads
// split from the comments the API lists; and a thread's state follows plain reads of its row at the
// commit it was written at and at the pull's head: current, then outdated after a push that changes
// the cell, then deleted after a push that removes the row.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql, hubSqlPort } from '../helpers/hubSql';
import { anchoredBody, parseAnchoredBody, type CommentAnchor } from '../../src/core/review/commentAnchor';
import { splitThreads, threadState, type RowThread, type ThreadComment } from '../../src/core/review/rowThreads';
import type { Cell, DatabaseRef, Pull, PullComment } from '../../src/shared/wire';
import { HubClient } from '../../src/api/index';
import { SqlPort } from '../../src/core/sql/sqlPort';
import { applySuggestion } from '../../src/commands/applySuggestion';
import type { ProposeEnv } from '../../src/commands/proposeTypes';
import type { PullTarget } from '../../src/core/targets';
import { ScriptedUi } from '../helpers/scriptedUi';
import { silent } from '../helpers/memoryFakes';
import { importCsv } from './importFlow';
import { readSinceReview } from '../../src/core/review/sinceReview';

describe('row and cell comments through the hub', function () {
  this.timeout(120_000);
  let hub: HubHandle;
  before(async () => {
    hub = await startHub({ seed: true });
  });
  after(async () => hub?.stop());

  const prices: DatabaseRef = { owner: 'alice', name: 'prices' };
  const sql = hubSql(() => hub, 'alice/prices');
  const run = hubSqlPort(() => hub).review('hub', prices);
  const pull = async (): Promise<Pull> => (await hub.fetch('/databases/alice/prices/pulls/4', { user: 'alice' })).body.data as Pull;
  const comments = async (): Promise<PullComment[]> =>
    (await hub.fetch('/databases/alice/prices/pulls/4/comments', { user: 'alice' })).body.data as PullComment[];
  const post = async (body: string, user = 'alice'): Promise<PullComment> => {
    const r = await hub.fetch('/databases/alice/prices/pulls/4/comments', { user, json: { body } });
    assert.equal(r.status, 201, r.text);
    return r.body.data as PullComment;
  };
  const headOf = async (branch: string): Promise<string> => (await sql.ok(`SELECT HASHOF('${branch}')`, branch)).rows[0]![0]!;

  it('an anchored body round-trips through the API for awkward keys and text', async () => {
    const head = await headOf('supplier-updates');
    const values = ['O\'Brien "q" `t`', 'ünï 😀 中文', 'a\nb\r\nc', 'x'.repeat(5000), '', null, '[vdb-anchor]: x', '<b>html</b>'];
    for (const v of values) {
      const anchor: CommentAnchor = { table: 'suppliers', key: { id: v }, column: 'na`me', commit: head };
      const text = 'Is this right?\n\n```\ncode';
      const sent = anchoredBody(anchor, text);
      const got = await post(sent);
      assert.equal(got.body, sent);
      const listed = (await comments()).find((c) => c.comment_id === got.comment_id)!;
      assert.equal(listed.body, sent, 'stored as sent');
      assert.deepEqual(parseAnchoredBody(listed.body), { anchor, text });
    }
  });

  it("a thread's state follows plain reads of its row at its commit and at the head", async () => {
    const p = await pull();
    const branch = p.from_branch.branch_name;
    const head = await headOf(branch);
    const [id, rating] = (await sql.ok('SELECT id, rating FROM suppliers ORDER BY id LIMIT 1', branch)).rows[0]!;
    const root = await post(anchoredBody({ table: 'suppliers', key: { id: id! }, column: 'rating', commit: head }, 'Why this rating?'));
    await post(
      anchoredBody({ table: 'suppliers', key: { id: id! }, column: 'rating', commit: head, replyTo: root.comment_id }, 'Checked it.'),
      'bob',
    );
    await post('An ordinary comment.');
    const { threads, conversation } = splitThreads(await comments());
    const thread = threads.find((t) => t.rootId === root.comment_id)!;
    assert.deepEqual(
      thread.comments.map((c) => [c.comment.author, c.text]),
      [
        ['alice', 'Why this rating?'],
        ['bob', 'Checked it.'],
      ],
    );
    assert.ok(conversation.some((c) => c.body === 'An ordinary comment.'));
    assert.ok(!conversation.some((c) => c.comment_id === root.comment_id));
    assert.deepEqual(await threadState(run, thread, head), { kind: 'current' });

    // A push that changes the cell: outdated, with the values plain reads give.
    const cols = (await sql.ok('SELECT * FROM suppliers LIMIT 0', branch)).columns.map((c) => c.name);
    const all = (await sql.ok(`SELECT * FROM suppliers ORDER BY id`, branch)).rows;
    const ri = cols.indexOf('rating');
    const changed = all.map((r) => (r[0] === id ? r.map((v, i) => (i === ri ? String(Number(rating ?? 0) + 1) : v)) : r));
    const csv = (rows: (string | null)[][]): string =>
      `${cols.join(',')}\n${rows.map((r) => r.map((v) => (v === null ? '' : `"${v.replace(/"/g, '""')}"`)).join(',')).join('\n')}\n`;
    await importCsv(hub, 'alice/prices', branch, 'suppliers', 'update', csv(changed.filter((r) => r[0] === id)));
    const moved = await headOf(branch);
    const now = (await sql.ok(`SELECT rating FROM suppliers WHERE id = ${id}`, moved)).rows[0]![0];
    assert.notEqual(now, rating);
    assert.deepEqual(await threadState(run, thread, moved), { kind: 'outdated', was: rating, now });

    // A push that removes the row: deleted.
    await importCsv(hub, 'alice/prices', branch, 'suppliers', 'replace', csv(changed.filter((r) => r[0] !== id)));
    const gone = await headOf(branch);
    assert.equal((await sql.ok(`SELECT COUNT(*) FROM suppliers WHERE id = ${id}`, gone)).rows[0]![0], '0');
    assert.deepEqual(await threadState(run, thread, gone), { kind: 'deleted' });
  });

  it('an anchor naming a table or key that does not exist is not trusted', async () => {
    const head = await headOf('supplier-updates');
    for (const anchor of [
      { table: 'no_such_table', key: { id: '1' }, commit: head },
      { table: 'suppliers', key: { id: '999999' }, column: 'rating', commit: head },
      { table: 'suppliers', key: { nope: '1' }, commit: head },
    ] as CommentAnchor[]) {
      const state = await threadState(run, { rootId: 'x', anchor, comments: [] }, head, head);
      assert.equal(state.kind, 'invalid', JSON.stringify(anchor));
    }
  });

  it('since a reviewed head: the commits the branch gained, as plain reads of dolt_log count them', async () => {
    const p = await pull();
    const branch = p.from_branch.branch_name;
    const reviewed = await headOf(branch);
    const runIn = (): typeof run => run;
    assert.deepEqual(await readSinceReview(p, reviewed, runIn), { kind: 'current', reviewed });
    const [id, name] = (await sql.ok('SELECT id, name FROM suppliers ORDER BY id LIMIT 1', branch)).rows[0]!;
    for (const n of [1, 2])
      await importCsv(hub, 'alice/prices', branch, 'suppliers', 'update', `id,name\n${id},"${(name ?? '').replace(/"/g, '""')} ${n}"\n`);
    const head = await headOf(branch);
    const count = async (at: string): Promise<number> => Number((await sql.ok('SELECT COUNT(*) FROM dolt_log', at)).rows[0]![0]);
    const gained = (await count(head)) - (await count(reviewed));
    assert.ok(gained >= 2, `two imports made ${gained} commits`);
    assert.deepEqual(await readSinceReview(p, reviewed, runIn), { kind: 'new', reviewed, head, count: gained, more: false });
    // A reviewed commit the database does not have (a rewritten history) says the branch changed.
    const state = await readSinceReview(p, 'v'.repeat(32), runIn);
    assert.deepEqual(state, { kind: 'changed', reviewed: 'v'.repeat(32), head });
  });
});

describe('Apply Suggestion through the hub (issue #25)', function () {
  this.timeout(180_000);
  let hub: HubHandle;
  let client: HubClient;
  before(async () => {
    hub = await startHub({ seed: true });
    client = new HubClient({ baseUrl: hub.url, token: await hub.token('alice') });
  });
  after(async () => hub?.stop());

  const prices: DatabaseRef = { owner: 'alice', name: 'prices' };
  const target: PullTarget = { hostId: 'hub', db: prices, pullNumber: 4 };
  const sql = hubSql(() => hub, 'alice/prices');
  const env = (ui: ScriptedUi): ProposeEnv => ({
    ui,
    log: silent,
    clientFor: () => client,
    sql: new SqlPort(
      () => client,
      () => ({ timeoutMs: 30_000, rowLimit: 1000 }),
    ),
    changeSets: { snapshot: () => undefined, remove: async () => undefined, rebase: () => Promise.reject(new Error('unused')) },
    refreshDatabase: () => undefined,
    showPull: async () => undefined,
    showChanges: async () => undefined,
  });
  const headOf = async (branch: string): Promise<string> => (await sql.ok(`SELECT HASHOF('${branch}')`, branch)).rows[0]![0]!;
  const thread = async (id: string): Promise<{ t: RowThread; c: ThreadComment }> => {
    const { threads } = splitThreads(await client.listPullComments(prices, 4));
    const t = threads.find((x) => x.comments.some((c) => c.comment.comment_id === id))!;
    return { t, c: t.comments.find((c) => c.comment.comment_id === id)! };
  };

  async function suggest(column: string, value: Cell, user = 'bob'): Promise<{ id: string; branch: string; key: string }> {
    const branch = (await client.getPull(prices, 4)).from_branch.branch_name;
    const key = (await sql.ok('SELECT id FROM suppliers ORDER BY id LIMIT 1', branch)).rows[0]![0]!;
    const anchor: CommentAnchor = { table: 'suppliers', key: { id: key }, column, commit: await headOf(branch), suggestion: { value } };
    const r = await hub.fetch('/databases/alice/prices/pulls/4/comments', { user, json: { body: anchoredBody(anchor, 'Try this.') } });
    assert.equal(r.status, 201, r.text);
    return { id: (r.body.data as PullComment).comment_id, branch, key };
  }

  it('commits exactly the suggested value onto the branch (plain SELECT there) and records it in the thread', async () => {
    const values: [string, Cell][] = [
      ['name', 'O\'Brien "q" `t` \\ ünï 😀\nsecond line'],
      ['name', ''],
      ['country', null],
      ['rating', '-7'],
    ];
    for (const [column, value] of values) {
      const { id, branch, key } = await suggest(column, value);
      const before = await headOf(branch);
      const { t, c } = await thread(id);
      const ui = new ScriptedUi({}, { errors: 'throw' });
      const commit = await applySuggestion(env(ui), target, t, c);
      const head = await headOf(branch);
      assert.ok(commit && commit === head && head !== before, `${column}: a new commit, the branch's head (${ui.infos.join('; ')})`);
      const got = (await sql.ok(`SELECT \`${column}\`, id FROM suppliers WHERE id = ${key}`, head)).rows[0]!;
      assert.deepEqual(got[0], value, `${column} holds exactly the suggested value`);
      const other = await sql.ok(`SELECT * FROM suppliers WHERE id <> ${key} ORDER BY id`, head);
      assert.deepEqual(
        other.rows,
        (await sql.ok(`SELECT * FROM suppliers WHERE id <> ${key} ORDER BY id`, before)).rows,
        'nothing else changed',
      );
      // The thread records it: a reply naming the suggestion and the commit.
      const again = await thread(id);
      const applied = again.t.comments.find((x) => x.anchor.applied === id);
      assert.ok(applied, 'the applied reply is in the thread');
      assert.equal(applied.anchor.commit, head);
      assert.equal(applied.anchor.replyTo, t.rootId);
    }
  });

  it('refuses a value the column cannot hold, a cell that already holds it, and writes nothing', async () => {
    for (const [column, value, says] of [
      ['rating', 'not a number', /does not fit rating/],
      ['name', null, /does not fit name/],
    ] as [string, Cell, RegExp][]) {
      const { id, branch } = await suggest(column, value);
      const before = await headOf(branch);
      const { t, c } = await thread(id);
      const ui = new ScriptedUi({}, { errors: 'throw' });
      assert.equal(await applySuggestion(env(ui), target, t, c), undefined);
      assert.match(ui.infos.join('\n'), says);
      assert.equal(await headOf(branch), before, 'nothing written');
    }
    const { id, branch, key } = await suggest('country', 'ES');
    const { t, c } = await thread(id);
    await applySuggestion(env(new ScriptedUi({}, { errors: 'throw' })), target, t, c);
    const at = await headOf(branch);
    assert.equal((await sql.ok(`SELECT country FROM suppliers WHERE id = ${key}`, at)).rows[0]![0], 'ES');
    const ui = new ScriptedUi({}, { errors: 'throw' });
    assert.equal(await applySuggestion(env(ui), target, t, c), undefined);
    assert.match(ui.infos.join('\n'), /already holds the suggested value/);
    assert.equal(await headOf(branch), at);
  });

  it('someone who may not write the branch is told so by the server, and nothing is written', async () => {
    const { id, branch, key } = await suggest('country', 'FR');
    const before = await headOf(branch);
    const { t, c } = await thread(id);
    const carol = new HubClient({ baseUrl: hub.url, token: await hub.token('carol') });
    const ui = new ScriptedUi({});
    assert.equal(await applySuggestion({ ...env(ui), clientFor: () => carol }, target, t, c), undefined);
    assert.equal(ui.errors.length, 1, 'the failure is reported');
    assert.equal((ui.errors[0] as { status?: number }).status, 403);
    assert.equal(await headOf(branch), before, 'nothing written');
    assert.notEqual((await sql.ok(`SELECT country FROM suppliers WHERE id = ${key}`, before)).rows[0]![0], 'FR');
  });
});
