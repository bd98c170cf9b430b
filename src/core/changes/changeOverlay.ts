// What the grid paints over the rows it reads: the change set's rows in the form of
// `edit.overlay` (src/shared/editProtocol.ts), for the rows a request touched or the whole set.
import type { BaseRowOverlay, EditCounts, HostEditMessage, NewRowOverlay } from '../../shared/editProtocol';
import { baseRef, newRef, type ChangeRows, type EntryRef } from './changeRows';

export type OverlayChange = Omit<Extract<HostEditMessage, { type: 'edit.overlay' }>, 'type' | 'sourceId'>;

/** The overlay entries of `refs` (rows gone from the change set are `removed`); `withOrder` adds every new row's id. */
export function overlayOf(
  rows: ChangeRows,
  refs: Iterable<EntryRef>,
  withOrder: boolean,
  counts: EditCounts,
  reset: boolean,
): OverlayChange {
  const base: BaseRowOverlay[] = [];
  const removed: string[] = [];
  const newRows: NewRowOverlay[] = [];
  for (const ref of refs) {
    if (ref.startsWith('b')) {
      const id = ref.slice(1);
      const e = rows.base.get(id);
      if (!e) removed.push(id);
      else base.push({ id, changes: [...e.changes], deleted: e.deleted, problems: rows.problems.get(baseRef(id)) ?? [] });
    } else {
      const id = Number(ref.slice(1));
      const cells = rows.newRows.get(id);
      if (cells) newRows.push({ id, cells: cells.slice(), problems: rows.problems.get(newRef(id)) ?? [] });
    }
  }
  return { reset, base, removed, newRows, ...(withOrder ? { order: rows.order.slice() } : {}), counts };
}
