import { strict as assert } from 'node:assert';
import {
  branchRows,
  findConflicts,
  mergedRows,
  rowsJson,
  settlesOnBranch,
  unchosen,
  unsettleable,
  type CellChoice,
  type Choices,
  type TableVersion,
} from '../../../../src/core/review/conflictResolution';
import type { Cell } from '../../../../src/shared/wire';

const COLS = ['id', 'name', 'city', 'email'];
const v = (rows: readonly (readonly Cell[])[], keyColumns = [0]): TableVersion => ({ columns: COLS, keyColumns, rows });
const base = v([
  ['1', 'Ana', 'Lisbon', 'a@x'],
  ['2', 'Rui', 'Porto', null],
  ['3', 'Eva', 'Faro', 'e@x'],
]);
// ours: renames Ana, moves her to Porto, fills Rui's email, deletes Eva.
const ours = v([
  ['1', 'Ana Sousa', 'Porto', 'a@x'],
  ['2', 'Rui', 'Porto', 'r@ours'],
]);
// theirs: moves Ana to Braga, sets Rui's email differently, edits Eva, adds Paulo.
const theirs = v([
  ['1', 'Ana', 'Braga', 'a@x'],
  ['2', 'Rui', 'Porto', 'r@theirs'],
  ['3', 'Eva', 'Faro', 'eva@theirs'],
  ['4', 'Paulo', 'Coimbra', null],
]);
const choices = (cells: [string, string, CellChoice][], rows: [string, 'ours' | 'theirs'][] = []): Choices => {
  const m = new Map<string, Map<string, CellChoice>>();
  for (const [key, col, c] of cells) m.set(JSON.stringify([key]), new Map([...(m.get(JSON.stringify([key])) ?? []), [col, c]]));
  return { cells: m, rows: new Map(rows.map(([k, s]) => [JSON.stringify([k]), s])) };
};

describe('settling conflicts cell by cell', () => {
  it('finds the cells both sides changed differently (a NULL on one side included) and the rows one side deleted', () => {
    const c = findConflicts(base, ours, theirs);
    assert.deepEqual(
      c.cells.map((x) => [x.keyValues[0], x.column, x.base, x.ours, x.theirs]),
      [
        ['1', 'city', 'Lisbon', 'Porto', 'Braga'],
        ['2', 'email', null, 'r@ours', 'r@theirs'],
      ],
    );
    assert.deepEqual(
      c.rows.map((r) => [r.keyValues[0], r.ours, r.theirs?.[3]]),
      [['3', undefined, 'eva@theirs']],
    );
  });

  it('merges every other change of both sides and puts the chosen value (ours, theirs or typed) in each conflicting cell', () => {
    const ch = choices(
      [
        ['1', 'city', { kind: 'theirs' }],
        ['2', 'email', { kind: 'value', value: null }],
      ],
      [['3', 'theirs']],
    );
    assert.deepEqual(unchosen(findConflicts(base, ours, theirs), ch), { cells: [], rows: [] });
    assert.deepEqual(mergedRows(base, ours, theirs, ch), [
      ['1', 'Ana Sousa', 'Braga', 'a@x'],
      ['2', 'Rui', 'Porto', null],
      ['3', 'Eva', 'Faro', 'eva@theirs'],
      ['4', 'Paulo', 'Coimbra', null],
    ]);
    assert.throws(() => mergedRows(base, ours, theirs, choices([['1', 'city', { kind: 'ours' }]])), /has no choice/);
  });

  it('writes onto the pull’s branch only when every choice is ours’ value, and then only the conflicting cells change', () => {
    const noRowConflicts = findConflicts(base, ours, v(theirs.rows.filter((r) => r[0] !== '3')));
    const allOurs = choices([
      ['1', 'city', { kind: 'ours' }],
      ['2', 'email', { kind: 'value', value: 'r@ours' }],
    ]);
    assert.equal(settlesOnBranch([{ conflicts: noRowConflicts, choices: allOurs }]), true, 'a typed value equal to ours settles too');
    assert.equal(
      settlesOnBranch([
        {
          conflicts: noRowConflicts,
          choices: choices([
            ['1', 'city', { kind: 'theirs' }],
            ['2', 'email', { kind: 'ours' }],
          ]),
        },
      ]),
      false,
    );
    assert.equal(
      settlesOnBranch([{ conflicts: findConflicts(base, ours, theirs), choices: allOurs }]),
      false,
      'a deleted row needs a new pull',
    );
    assert.deepEqual(branchRows(theirs, noRowConflicts), [
      ['1', 'Ana', 'Porto', 'a@x'],
      ['2', 'Rui', 'Porto', 'r@ours'],
    ]);
  });

  it('refuses a keyless table and a schema change, saying why', () => {
    assert.match(unsettleable(v(base.rows, []), v(ours.rows, []), v(theirs.rows, [])) ?? '', /no primary key/);
    const wider: TableVersion = { columns: [...COLS, 'phone'], keyColumns: [0], rows: [] };
    assert.match(unsettleable(base, ours, wider) ?? '', /columns differ/);
    assert.equal(unsettleable(base, ours, theirs), undefined);
  });

  it('writes rows as the import JSON, NULL as null', () => {
    const text = new TextDecoder().decode(rowsJson(['id', 'email'], [['2', null]]));
    assert.deepEqual(JSON.parse(text), { rows: [{ id: '2', email: null }] });
  });
});
