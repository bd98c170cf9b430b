// Row and cell comments (issue #25) through the real hub: an anchored body posted as a pull comment
// comes back byte for byte, and parses to the same anchor, for keys of any type and text; threads
// split from the comments the API lists; and a thread's state follows plain reads of its row at the
// commit it was written at and at the pull's head: current, then outdated after a push that changes
// the cell, then deleted after a push that removes the row.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql, hubSqlPort } from '../helpers/hubSql';
import { anchoredBody, parseAnchoredBody, type CommentAnchor } from '../../src/core/review/commentAnchor';
import { splitThreads, threadState } from '../../src/core/review/rowThreads';
import type { DatabaseRef, Pull, PullComment } from '../../src/shared/wire';
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
