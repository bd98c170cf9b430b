// The pane beside a pull's Changes grid (issue #25): Show Comments on a row or cell gives exactly the
// threads anchored there (a row's, or one cell's), with suggested values and where they were applied;
// the grid's row.thread message is checked like row.history.
import { strict as assert } from 'node:assert';
import { ChangesRowComments } from '../../../src/views/changesRowComments';
import { anchoredBody, type CommentAnchor } from '../../../src/core/review/commentAnchor';
import { parseGridPagingMessage, type PagedOutput } from '../../../src/shared/gridPaging';
import { silent } from '../../helpers/memoryFakes';
import { aPullComment } from '../../builders/wire';
import type { PullComment } from '../../../src/shared/wire';

const HEAD = '0123456789abcdefghijklmnopqrstuv';
const LATER = 'vutsrqponmlkjihgfedcba9876543210';

describe('the comments pane beside the Changes grid', () => {
  const a = (o: Partial<CommentAnchor>): CommentAnchor => ({ table: 'suppliers', key: { id: '3' }, commit: HEAD, ...o });
  const comments: PullComment[] = [
    aPullComment({ comment_id: 'c1', author: 'bob', body: anchoredBody(a({ column: 'name', suggestion: { value: null } }), 'No name.') }),
    aPullComment({
      comment_id: 'c2',
      author: 'alice',
      body: anchoredBody(a({ column: 'name', commit: LATER, replyTo: 'c1', applied: 'c1' }), 'Applied.'),
    }),
    aPullComment({ comment_id: 'c3', author: 'carol', body: anchoredBody(a({}), 'Is this row real?') }),
    aPullComment({ comment_id: 'c4', author: 'dan', body: anchoredBody(a({ key: { id: '4' }, column: 'name' }), 'Other row.') }),
    aPullComment({ comment_id: 'c5', author: 'eve', body: 'An ordinary comment.' }),
  ];
  const make = async (): Promise<ChangesRowComments> => {
    const rc = new ChangesRowComments(
      { kind: 'pull', target: { hostId: 'h', db: { owner: 'alice', name: 'prices' }, pullNumber: 4 } },
      { clientFor: () => ({ listPullComments: async () => comments }), log: silent, commentOnRow: async () => undefined },
    );
    await rc.read();
    return rc;
  };

  it("gives a cell's threads with the suggested value and its applied commit", async () => {
    const pane = (await make()).pane('suppliers', { id: '3' }, 'name');
    assert.equal(pane.about, 'suppliers, id = 3, name');
    assert.deepEqual(
      pane.threads.map((t) => [t.rootId, t.comments.map((c) => [c.id, c.author, c.text, c.suggestion])]),
      [
        [
          'c1',
          [
            ['c1', 'bob', 'No name.', { value: null, appliedIn: LATER }],
            ['c2', 'alice', 'Applied.', undefined],
          ],
        ],
      ],
    );
  });

  it("gives a row's own threads only, and nothing for a row without comments", async () => {
    const rc = await make();
    assert.deepEqual(
      rc.pane('suppliers', { id: '3' }, undefined).threads.map((t) => t.rootId),
      ['c3'],
    );
    assert.deepEqual(rc.pane('suppliers', { id: '9' }, 'name').threads, []);
    assert.deepEqual(rc.pane('products', { id: '3' }, 'name').threads, []);
  });

  it('a reply from the pane is posted at the head the view shows, then the grid gets the new counts (nothing re-read) and the pane is shown again', async () => {
    const replies: unknown[] = [];
    const posted = [...comments];
    const rc = new ChangesRowComments(
      { kind: 'pull', target: { hostId: 'h', db: { owner: 'alice', name: 'prices' }, pullNumber: 4 } },
      {
        clientFor: () => ({ listPullComments: async () => posted }),
        log: silent,
        commentOnRow: async () => undefined,
        replyToThread: async (pull, thread, head) => {
          replies.push([pull.pullNumber, thread.rootId, head]);
          posted.push(
            aPullComment({ comment_id: 'c6', author: 'alice', body: anchoredBody(a({ commit: head, replyTo: thread.rootId }), 'Yes.') }),
          );
          return 'posted';
        },
      },
    );
    await rc.read();
    const output = suppliersOutput();
    const events: unknown[] = [];
    const view = { output: () => output, post: (m: { type: string }) => void events.push(m.type === 'page.marks' ? m : m.type) };
    await rc.replyInPane('c3', LATER, view);
    assert.deepEqual(replies, [[4, 'c3', LATER]]);
    // Row 3 now has two comments (c3 and the reply), its name cell one thread of two; row 4's name one.
    assert.deepEqual(events, [
      {
        type: 'page.marks',
        sourceId: 's1',
        commentMarks: [
          { key: ['3'], column: 'name', count: 2 },
          { key: ['3'], count: 2 },
          { key: ['4'], column: 'name', count: 1 },
        ],
      },
      'changes.thread',
    ]);
    await rc.replyInPane('no-such-thread', LATER, view);
    assert.equal(replies.length, 1, 'an unknown thread posts nothing');
  });

  it('a comment posted elsewhere in the window: the marks, and the pane only while it shows that place, shown anew', async () => {
    const posted = [...comments];
    let reads = 0;
    let release: () => void = () => undefined;
    let gate: Promise<void> | undefined;
    const rc = new ChangesRowComments(
      { kind: 'pull', target: { hostId: 'h', db: { owner: 'alice', name: 'prices' }, pullNumber: 4 } },
      {
        clientFor: () => ({
          listPullComments: async () => {
            reads++;
            const now = [...posted];
            await gate;
            return now;
          },
        }),
        log: silent,
        commentOnRow: async () => undefined,
      },
    );
    const output = suppliersOutput();
    const events: { type: string; refresh?: boolean; threads?: unknown[]; commentMarks?: unknown }[] = [];
    const view = { output: () => output, post: (m: { type: string }) => void events.push(m) };
    await rc.commentsChanged(view);
    assert.deepEqual(
      events.map((e) => e.type),
      ['page.marks'],
      'no pane was shown: none is sent',
    );
    await rc.onGrid({ type: 'row.thread', sourceId: 's1', key: ['3'], column: undefined }, output, view);
    assert.equal(events.at(-1)?.type, 'changes.thread');
    events.length = 0;
    reads = 0;
    // Changes while a read runs: that read started before the post, so one more read follows it.
    gate = new Promise((r) => (release = r));
    const first = rc.commentsChanged(view);
    posted.push(aPullComment({ comment_id: 'c7', author: 'bob', body: anchoredBody(a({ replyTo: 'c3' }), 'Seen.') }));
    const more = [rc.commentsChanged(view), rc.commentsChanged(view)];
    gate = undefined;
    release();
    await Promise.all([first, ...more]);
    assert.equal(reads, 2, 'one read, then one more for the changes during it');
    const marks = events.filter((e) => e.type === 'page.marks').at(-1)?.commentMarks as { key: string[]; column?: string; count: number }[];
    assert.equal(marks.find((m) => m.key[0] === '3' && m.column === undefined)?.count, 2, 'the new reply is counted');
    const pane = events.filter((e) => e.type === 'changes.thread');
    assert.ok(pane.length > 0 && pane.every((e) => e.refresh === true), 'the pane is sent as a refresh only');
    assert.equal(((pane.at(-1)?.threads as { comments: unknown[] }[])[0]?.comments ?? []).length, 2);
  });

  it('the grid message is checked like row.history', () => {
    assert.deepEqual(parseGridPagingMessage({ type: 'row.thread', sourceId: 's', key: ['3'], column: 'name' }), {
      type: 'row.thread',
      sourceId: 's',
      key: ['3'],
      column: 'name',
    });
    assert.equal(parseGridPagingMessage({ type: 'row.thread', sourceId: 's', key: [3] }), undefined);
  });
});

function suppliersOutput(): PagedOutput {
  return {
    v: 1,
    kind: 'paged',
    sourceId: 's1',
    columns: [
      { name: 'id', type: 'int' },
      { name: 'name', type: 'varchar(40)' },
    ],
    target: { hostId: 'h', owner: 'alice', name: 'prices', ref: 'a..b' },
    commit: LATER,
    title: 'suppliers',
    pageSize: 500,
    serverSort: false,
    serverFilter: false,
    rowsOf: { table: 'suppliers', keyColumns: [0] },
    rowComments: true,
  };
}
