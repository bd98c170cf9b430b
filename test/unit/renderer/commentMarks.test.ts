// Comment marks on a pull's diff grid (issue #25): threads of the pull counted per row and cell of
// one table (replies included, other tables and other keys left out), and looked up by a grid row's
// key values: a key column's cell carries the row's count, another cell its own.
import { strict as assert } from 'node:assert';
import { commentMarksOf, splitThreads } from '../../../src/core/review/rowThreads';
import { anchoredBody } from '../../../src/core/review/commentAnchor';
import { commentCounter } from '../../../src/renderer/commentMarks';
import type { PagedOutput } from '../../../src/shared/gridPaging';
import type { Cell, PullComment } from '../../../src/shared/wire';

const C = '0123456789abcdefghijklmnopqrstuv';
let n = 0;
const comment = (body: string): PullComment => ({ comment_id: `c${++n}`, author: 'a', body, created_at: '', updated_at: '' });

describe('comment marks in the diff grid', () => {
  const c1 = comment(anchoredBody({ table: 's', key: { id: '1', r: 'x' }, column: 'rating', commit: C }, 'one'));
  const comments = [
    c1,
    comment(anchoredBody({ table: 's', key: { id: '1', r: 'x' }, column: 'rating', commit: C, replyTo: c1.comment_id }, 'reply')),
    comment(anchoredBody({ table: 's', key: { r: 'y', id: '2' }, commit: C }, 'row')),
    comment(anchoredBody({ table: 'other', key: { id: '1', r: 'x' }, commit: C }, 'elsewhere')),
    comment(anchoredBody({ table: 's', key: { id: '3' }, commit: C }, 'wrong key shape')),
    comment('plain'),
  ];
  const COLUMNS = [
    { name: 'id', type: 'int' },
    { name: 'r', type: 'text' },
    { name: 'rating', type: 'int' },
  ];
  const marks = commentMarksOf(splitThreads(comments).threads, 's', ['id', 'r']);

  it('counts each thread with its replies, per row and cell, in key column order', () => {
    assert.deepEqual(marks, [
      { key: ['1', 'x'], column: 'rating', count: 2 },
      { key: ['2', 'y'], count: 1 },
    ]);
  });

  it('finds a row by its key values', () => {
    const rows: Cell[][] = [
      ['1', 'x', '5'],
      ['2', 'y', '4'],
      ['1', 'z', '3'],
    ];
    const output = {
      columns: COLUMNS,
      rowsOf: { table: 's', keyColumns: [0, 1] },
      commentMarks: marks,
    } as unknown as PagedOutput;
    const count = commentCounter(output, (r, c) => rows[r]![c]!)!;
    assert.deepEqual(
      rows.map((_, r) => [0, 1, 2].map((c) => count(r, c))),
      [
        [0, 0, 2],
        [1, 1, 0],
        [0, 0, 0],
      ],
    );
    assert.equal(
      commentCounter({ ...output, commentMarks: [] }, () => null),
      undefined,
    );
  });

  it('a grid whose rows take comments counts by the marks it holds now (page.marks replaces them)', () => {
    const rows: Cell[][] = [['1', 'x', '5']];
    const output = {
      columns: COLUMNS,
      rowsOf: { table: 's', keyColumns: [0, 1] },
      rowComments: true,
    } as unknown as PagedOutput;
    const count = commentCounter(output, (r, c) => rows[r]![c]!)!;
    assert.equal(count(0, 2), 0, 'no marks yet');
    output.commentMarks = marks;
    assert.equal(count(0, 2), 2);
    output.commentMarks = [{ key: ['1', 'x'], column: 'rating', count: 3 }];
    assert.equal(count(0, 2), 3);
  });
});
