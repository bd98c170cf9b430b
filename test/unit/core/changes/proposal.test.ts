// What proposing a change set sends and how it checks the result (src/core/changes/): the upsert
// file keeps NULL apart from '' and leaves binary columns out; the delete statements, run in the
// hub's engine, delete exactly the rows named whatever their keys hold; the branch's diff is held
// to the change set row by row (numbers by value, everything else exactly).
import { strict as assert } from 'node:assert';
import { compareWithBranch, describeDifference, expectedRows, sameValue } from '../../../../src/core/changes/proposalCheck';
import {
  defaultPullText,
  deleteSql,
  describeCounts,
  suggestedBranchName,
  upsertJson,
  type ProposalInput,
} from '../../../../src/core/changes/proposalFiles';
import { describeStaleRows, staleRows } from '../../../../src/core/changes/staleBase';
import type { RowDiff } from '../../../../src/core/review/rowDiff';
import type { Cell, QueryColumn } from '../../../../src/shared/wire';
import { SqliteEngine } from '../../../helpers/sqliteEngine';
import { HOSTILE_TEXT } from '../sql/hostileText';

const COLUMNS: QueryColumn[] = [
  { name: 'id', type: 'bigint', is_primary_key: true },
  { name: 'label', type: 'varchar(255)' },
  { name: 'price', type: 'decimal(10,2)' },
  { name: 'photo', type: 'blob' },
];

function input(
  edits: Partial<Pick<ProposalInput, 'updated' | 'inserted' | 'deleted'>>,
  columns = COLUMNS,
  keyColumns = [0],
): ProposalInput {
  return {
    scope: { hostId: 'h', owner: 'o', name: 'db', branch: 'main', table: 'items', baseCommit: 'a'.repeat(32) },
    columns,
    keyColumns,
    updated: [],
    inserted: [],
    deleted: [],
    problems: [],
    ...edits,
  };
}

/** A diff row as the Changes view's parser gives it: cells by column, new values only (enough here). */
function diffRow(kind: RowDiff['kind'], key: Cell[], values: Record<string, Cell>): RowDiff {
  return {
    kind,
    key,
    cells: Object.entries(values).map(([column, v]) => ({ column, presence: 'both', new: v, changed: true, comparable: true })),
  };
}

describe('proposal files (issue #23)', () => {
  it('the upsert file holds changed then new rows, NULL apart from the empty string, without binary columns', () => {
    const file = upsertJson(
      input({
        updated: [{ before: ['1', 'a', '1.00', '<binary>'], after: ['1', '', null, '<binary>'] }],
        inserted: [['9007199254740993', 'line\nbreak "q" \\ ü', '0012.50', null]],
      }),
    );
    const parsed = JSON.parse(new TextDecoder().decode(file)) as { rows: Record<string, Cell>[] };
    assert.deepEqual(parsed.rows, [
      { id: '1', label: '', price: null },
      { id: '9007199254740993', label: 'line\nbreak "q" \\ ü', price: '0012.50' },
    ]);
    assert.equal(upsertJson(input({ deleted: [['1', 'a', null, null]] })), undefined, 'nothing to upsert: no file');
  });

  it('the delete statements, run in the engine, delete exactly the named rows, whatever their keys hold', async () => {
    const engine = await SqliteEngine.open();
    try {
      const keys = HOSTILE_TEXT;
      engine.exec('CREATE TABLE `odd table` (`k ey` varchar(200), n int, label text, PRIMARY KEY (`k ey`, n))');
      keys.forEach((k, i) => engine.exec('INSERT INTO `odd table` VALUES (?, ?, ?)', { bind: [k, i, `row ${i}`] }));
      const cols: QueryColumn[] = [
        { name: 'k ey', type: 'varchar(200)', is_primary_key: true },
        { name: 'n', type: 'int', is_primary_key: true },
        { name: 'label', type: 'text' },
      ];
      const doomed = keys.map((k, i) => [k, String(i), `row ${i}`] as Cell[]).filter((_, i) => i % 2 === 0);
      const p = { ...input({ deleted: doomed }, cols, [0, 1]), scope: { ...input({}).scope, table: 'odd table' } };
      engine.exec(new TextDecoder().decode(deleteSql(p)));
      assert.deepEqual(
        engine.rows('SELECT n FROM `odd table` ORDER BY n').map((r) => Number(r[0])),
        keys.map((_, i) => i).filter((i) => i % 2 === 1),
      );
    } finally {
      engine.close();
    }
  });

  it('suggests a free branch name and words the pull request with the counts', () => {
    const now = new Date(2026, 0, 2, 3, 4);
    assert.equal(suggestedBranchName('order items!', now, new Set()), 'edit/order-items-20260102-0304');
    assert.equal(suggestedBranchName('t', now, new Set(['edit/t-20260102-0304', 'edit/t-20260102-0304-2'])), 'edit/t-20260102-0304-3');
    const p = input({ updated: [{ before: ['1'], after: ['1'] }], inserted: [['2'], ['3']] });
    assert.equal(describeCounts({ changed: 1, added: 2, deleted: 0 }), '1 row changed, 2 added');
    assert.equal(describeCounts({ changed: 0, added: 0, deleted: 1 }), '1 row deleted');
    assert.equal(defaultPullText(p).title, 'Edit items: 1 row changed, 2 added');
    assert.match(defaultPullText(p).description, /- 0 rows deleted/);
  });
});

describe('proof of what was sent (issue #23)', () => {
  const p = input({
    updated: [{ before: ['1', 'a', '1.00', null], after: ['1', 'b', '1.50', null] }],
    inserted: [['2', 'new', null, null]],
    deleted: [['3', 'gone', '3.00', null]],
  });

  it('a branch that holds exactly the edits has no difference; numbers compare by value', () => {
    const diff = [
      diffRow('modified', ['1'], { id: '1', label: 'b', price: '1.5' }),
      diffRow('added', ['2'], { id: '2', label: 'new', price: null }),
      diffRow('removed', ['3'], {}),
    ];
    assert.deepEqual(compareWithBranch(p, diff), []);
    assert.equal(sameValue(COLUMNS[2]!, '0012.50', '12.5'), true);
    assert.equal(sameValue(COLUMNS[1]!, '0012', '12'), false, 'text is text');
    assert.equal(sameValue(COLUMNS[1]!, '', null), false, 'the empty string is not NULL');
  });

  it('names a coerced value, a dropped row, an extra row and a row of another kind', () => {
    const diff = [
      diffRow('modified', ['1'], { id: '1', label: 'b', price: '2.00' }),
      diffRow('modified', ['2'], { id: '2', label: 'new', price: null }),
      diffRow('added', ['7'], { id: '7' }),
    ];
    assert.deepEqual(compareWithBranch(p, diff).map(describeDifference), [
      'row (1), price: sent "1.50", the branch has "2.00"',
      'row (2): expected added, the branch has it modified',
      'row (7): added on the branch, but not in the change set',
      'row (3): expected removed, but the branch does not change it',
    ]);
  });

  it('a row deleted and added again under the same key is one modified row', () => {
    const again = input({ deleted: [['5', 'x', null, null]], inserted: [['5', 'y', null, null]] });
    assert.deepEqual(
      [...expectedRows(again).values()].map((r) => r.kind),
      ['modified'],
    );
  });
});

describe('a stale base (issue #23)', () => {
  it('lists the rows the target branch changed that the change set edits too, with both values', () => {
    const p = input({ updated: [{ before: ['1', 'a', '1.00', null], after: ['1', 'a', '9.99', null] }] });
    const branch: RowDiff[] = [
      {
        kind: 'modified',
        key: ['1'],
        cells: [{ column: 'price', presence: 'both', old: '1.00', new: '1.20', changed: true, comparable: true }],
      },
      {
        kind: 'modified',
        key: ['4'],
        cells: [{ column: 'price', presence: 'both', old: '4.00', new: '4.20', changed: true, comparable: true }],
      },
    ];
    const stale = staleRows(p, branch);
    assert.equal(stale.length, 1);
    assert.equal(
      describeStaleRows(stale),
      '(1) modified on the branch, modified by you\n    price: "1.00" → "1.20" on the branch; yours "9.99"',
    );
  });
});
