// Moving a change set onto a new base commit (a stale base, issue #23), given the rows at the new
// base of every key it touches or claims (`ChangeSet.keysToRead`): befores are replaced by the rows
// there, edits that now equal the row are dropped, deletes of rows gone are dropped, edits of rows
// gone stay as problems, and a new row whose key now exists becomes a duplicate.
import type { Cell } from '../../shared/wire';
import { ChangeRows, baseRef, newRef, type EntryRef } from './changeRows';
import { canonicalKey, keyCells } from './tableShape';

export interface RebaseResult {
  /** Table rows whose edits stay, now on the rows at the new base. */
  kept: number;
  /** Edits and deletes that the new base already has (or whose row is gone, for a delete). */
  dropped: number;
  /** Rows edited in the change set that the new base no longer has. */
  gone: number;
  /** Rows with a problem after the move. */
  problems: number;
}

export function rebaseRows(old: ChangeRows, rowsAtNewBase: readonly Cell[][]): { rows: ChangeRows; summary: RebaseResult } {
  const shape = old.shape;
  const byKey = new Map<string, Cell[]>();
  for (const r of rowsAtNewBase) {
    if (r.length !== shape.columns.length) throw new Error(`A row at the new base has ${r.length} cells, not ${shape.columns.length}.`);
    const k = canonicalKey(shape, keyCells(shape, r));
    if (k !== undefined) byKey.set(k, r);
  }
  const rows = new ChangeRows(shape);
  for (const k of byKey.keys()) rows.baseKeyExists.set(k, true);
  const summary: RebaseResult = { kept: 0, dropped: 0, gone: 0, problems: 0 };
  for (const [id, e] of old.base) {
    const row = byKey.get(canonicalKey(shape, e.key) ?? '');
    if (!row) {
      if (e.deleted) summary.dropped++;
      else {
        summary.gone++;
        rows.setBase(id, { ...e, changes: new Map(e.changes), gone: true });
      }
      continue;
    }
    const changes = new Map([...e.changes].filter(([c, v]) => v !== row[c]));
    if (!e.deleted && changes.size === 0) {
      summary.dropped++;
      continue;
    }
    summary.kept++;
    rows.setBase(id, { key: e.key, before: row.slice(), changes, deleted: e.deleted, gone: false });
  }
  rows.nextNewId = old.nextNewId;
  for (const id of old.order) rows.setNew(id, (old.newRows.get(id) ?? []).slice());
  // Every key the change set claims was read at the new base: one not found there is free.
  for (const k of rows.unknownKeys()) rows.baseKeyExists.set(k, false);
  const refs: EntryRef[] = [...[...rows.base.keys()].map(baseRef), ...rows.order.map(newRef)];
  rows.recheck(refs);
  summary.problems = rows.problems.size;
  return { rows, summary };
}
