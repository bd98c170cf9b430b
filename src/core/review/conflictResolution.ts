// Settling a pull's conflicts cell by cell (issue #24): the three versions of a table (merge base,
// ours = the target's head, theirs = the pull's head) merged row by row and cell by cell as Dolt
// merges them, each conflicting cell taking the value the user chose. Pure: the reads and the
// writes are elsewhere (src/commands/resolveApply.ts).
//
// Which way the choices are applied: when every conflicting cell takes ours, writing ours onto the
// pull's branch settles them (both sides then agree), so the pull itself becomes mergeable. Any
// other choice cannot be written onto the pull's branch (the merge base stays, so the cell still
// conflicts): the pull's changes are rebuilt on the target's head with the choices, as a new pull.
import type { Cell } from '../../shared/wire';

/** A whole table at one commit: its columns, which of them are the key, and every row. */
export interface TableVersion {
  readonly columns: readonly string[];
  readonly keyColumns: readonly number[];
  readonly rows: readonly (readonly Cell[])[];
}

export type CellChoice = { readonly kind: 'ours' } | { readonly kind: 'theirs' } | { readonly kind: 'value'; readonly value: Cell };

/** One cell both sides changed to different values. */
export interface ConflictCell {
  readonly key: string;
  readonly keyValues: readonly Cell[];
  readonly column: string;
  readonly base: Cell | undefined;
  readonly ours: Cell;
  readonly theirs: Cell;
}

/** One row one side deleted and the other changed: settled only by taking a side for the row. */
export interface RowConflict {
  readonly key: string;
  readonly keyValues: readonly Cell[];
  readonly ours: readonly Cell[] | undefined;
  readonly theirs: readonly Cell[] | undefined;
}

export interface TableConflicts {
  readonly cells: ConflictCell[];
  readonly rows: RowConflict[];
}

/** Why a table cannot be settled cell by cell, or undefined when it can. */
export function unsettleable(base: TableVersion, ours: TableVersion, theirs: TableVersion): string | undefined {
  if (ours.keyColumns.length === 0 || theirs.keyColumns.length === 0)
    return 'It has no primary key: its rows cannot be matched across the merge base, ours and theirs, so a cell has no identity to settle.';
  const same = (a: TableVersion, b: TableVersion): boolean =>
    a.columns.join('\u0000') === b.columns.join('\u0000') && a.keyColumns.join() === b.keyColumns.join();
  if (!same(ours, theirs) || (base.columns.length > 0 && !same(base, ours)))
    return 'Its columns differ between the merge base, ours and theirs: a schema change cannot be settled cell by cell.';
  return undefined;
}

/** The key of a row as one string (the JSON of its key values). */
export function rowKey(t: TableVersion, row: readonly Cell[]): string {
  return JSON.stringify(t.keyColumns.map((i) => row[i] ?? null));
}

function byKey(t: TableVersion): Map<string, readonly Cell[]> {
  return new Map(t.rows.map((r) => [rowKey(t, r), r]));
}

const sameRow = (a: readonly Cell[] | undefined, b: readonly Cell[] | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((v, i) => v === b[i]));

/** Every key of the three versions, in first-seen order (ours, then theirs, then base). */
function allKeys(...maps: Map<string, readonly Cell[]>[]): string[] {
  const keys = new Set<string>();
  for (const m of maps) for (const k of m.keys()) keys.add(k);
  return [...keys];
}

/** The conflicts of merging theirs into ours over base (the table must be settleable). */
export function findConflicts(base: TableVersion, ours: TableVersion, theirs: TableVersion): TableConflicts {
  const [b, o, t] = [byKey(base), byKey(ours), byKey(theirs)];
  const out: TableConflicts = { cells: [], rows: [] };
  for (const key of allKeys(o, t, b)) {
    const [br, or, tr] = [b.get(key), o.get(key), t.get(key)];
    if (sameRow(or, tr) || sameRow(tr, br) || sameRow(or, br)) continue;
    const keyValues = JSON.parse(key) as Cell[];
    if (!or || !tr) {
      out.rows.push({ key, keyValues, ours: or, theirs: tr });
      continue;
    }
    ours.columns.forEach((column, i) => {
      const [bv, ov, tv] = [br?.[i], or[i] ?? null, tr[i] ?? null];
      if (ov !== tv && tv !== bv && ov !== bv) out.cells.push({ key, keyValues, column, base: bv, ours: ov, theirs: tv });
    });
  }
  return out;
}

/** Choices by `key` then column; rows one side deleted, by key. */
export interface Choices {
  readonly cells: ReadonlyMap<string, ReadonlyMap<string, CellChoice>>;
  readonly rows: ReadonlyMap<string, 'ours' | 'theirs'>;
}

export function chosenValue(cell: ConflictCell, choice: CellChoice): Cell {
  return choice.kind === 'ours' ? cell.ours : choice.kind === 'theirs' ? cell.theirs : choice.value;
}

/** The conflicts no choice covers yet (Apply waits for all of them). */
export function unchosen(conflicts: TableConflicts, choices: Choices): { cells: ConflictCell[]; rows: RowConflict[] } {
  return {
    cells: conflicts.cells.filter((c) => !choices.cells.get(c.key)?.has(c.column)),
    rows: conflicts.rows.filter((r) => !choices.rows.has(r.key)),
  };
}

/**
 * The table as the merge with these choices leaves it: every change of both sides, each
 * conflicting cell the chosen value, each deleted-or-changed row the chosen side. Sorted by key
 * as ours was (new rows after). Throws when a conflict has no choice.
 */
export function mergedRows(base: TableVersion, ours: TableVersion, theirs: TableVersion, choices: Choices): Cell[][] {
  const [b, o, t] = [byKey(base), byKey(ours), byKey(theirs)];
  const out: Cell[][] = [];
  for (const key of allKeys(o, t, b)) {
    const [br, or, tr] = [b.get(key), o.get(key), t.get(key)];
    const row = mergeRow(key, br, or, tr, ours.columns, choices);
    if (row) out.push(row);
  }
  return out;
}

function mergeRow(
  key: string,
  br: readonly Cell[] | undefined,
  or: readonly Cell[] | undefined,
  tr: readonly Cell[] | undefined,
  columns: readonly string[],
  choices: Choices,
): Cell[] | undefined {
  if (sameRow(or, tr) || sameRow(tr, br)) return or ? [...or] : undefined;
  if (sameRow(or, br)) return tr ? [...tr] : undefined;
  if (!or || !tr) {
    const side = choices.rows.get(key);
    if (!side) throw new Error(`The row ${key} has no choice of side.`);
    const row = side === 'ours' ? or : tr;
    return row ? [...row] : undefined;
  }
  return columns.map((column, i) => {
    const [bv, ov, tv] = [br?.[i], or[i] ?? null, tr[i] ?? null];
    if (ov === tv || tv === bv) return ov;
    if (ov === bv) return tv;
    const choice = choices.cells.get(key)?.get(column);
    if (!choice) throw new Error(`The cell ${column} of row ${key} has no choice.`);
    return chosenValue({ key, keyValues: [], column, base: bv, ours: ov, theirs: tv }, choice);
  });
}

/** Whether writing onto the pull's branch settles everything: every choice (per table) is ours' value. */
export function settlesOnBranch(tables: readonly { readonly conflicts: TableConflicts; readonly choices: Choices }[]): boolean {
  return tables.every(
    ({ conflicts: c, choices }) =>
      c.rows.length === 0 &&
      c.cells.every((cell) => {
        const choice = choices.cells.get(cell.key)?.get(cell.column);
        return choice !== undefined && chosenValue(cell, choice) === cell.ours;
      }),
  );
}

export const NO_CHOICES: Choices = { cells: new Map(), rows: new Map() };

/**
 * The rows to upsert onto the pull's branch so that its conflicting cells agree with ours: each
 * conflicting row as the branch has it, its conflicting cells ours' values.
 */
export function branchRows(theirs: TableVersion, conflicts: TableConflicts): Cell[][] {
  const t = byKey(theirs);
  const byRow = new Map<string, ConflictCell[]>();
  for (const c of conflicts.cells) byRow.set(c.key, [...(byRow.get(c.key) ?? []), c]);
  return [...byRow].map(([key, cells]) => {
    const row = [...(t.get(key) ?? [])];
    for (const c of cells) row[theirs.columns.indexOf(c.column)] = c.ours;
    return row;
  });
}

/** Rows as the JSON an `update` or `replace` import reads (`{"rows": [...]}`). */
export function rowsJson(columns: readonly string[], rows: readonly (readonly Cell[])[]): Uint8Array {
  const lines = rows.map((r) => JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, r[i] ?? null]))));
  return new TextEncoder().encode(`{"rows": [\n${lines.join(',\n')}\n]}\n`);
}
