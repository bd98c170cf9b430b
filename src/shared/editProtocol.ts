// Editing in the table browser (issue #23): what the grid and the host say to each other beside the
// paging messages (./gridPaging.ts), on the same channel. The change set itself lives on the host
// (src/core/changes/changeSet.ts): the grid sends what the user did (`edit.apply`), the host
// applies it, checks it and answers with the overlay the grid paints over the rows it reads
// (`edit.overlay`: changed cells by primary key, new rows, deleted rows, problems per cell). The
// host checks every message from the grid with `parseGridEditMessage` before acting on it.
import type { Cell } from './wire';
import * as l10n from './l10n';

/** How a paged grid may edit its rows (`PagedOutput.edit`); absent: a plain read-only grid. */
export interface GridEditing {
  /** Set when the rows cannot be edited here, saying why (a tag, a commit, a keyless table, a view). */
  readOnly?: string;
  /** The primary key's columns (indexes into the output's columns), in key order: rows are matched by them. */
  keyColumns: number[];
  /** Per column: why it cannot be edited (bytes), else null. */
  locked: (string | null)[];
  /** Per column: whether NULL is allowed (the editor offers it only then). */
  nullable: boolean[];
}

/** A row of the grid an edit is about: a new row by its id, or a row of the table by its key (with all its cells as read). */
export type RowRef = { newRow: number } | { key: Cell[]; row: Cell[] };

export interface CellEdit {
  row: RowRef;
  column: number;
  value: Cell;
}

/** What the user did; each request is one step of undo. */
export type EditRequest =
  /** Typed values, a paste or Set to NULL; `newRows` are rows a paste added past the new rows there were. */
  | { kind: 'set'; edits: CellEdit[]; newRows?: Cell[][] }
  | { kind: 'addRows'; count: number }
  /** A row of the table is marked deleted; a new row goes away. */
  | { kind: 'deleteRows'; rows: RowRef[] }
  | { kind: 'undo' }
  | { kind: 'redo' };

/** What is wrong with a value (column -1: with the row as a whole). `pending`: not checked yet. */
export interface CellProblem {
  column: number;
  message: string;
  pending?: boolean;
}

/** A row of the table the change set touches, by `rowKeyId` of its key as read. */
export interface BaseRowOverlay {
  id: string;
  /** The cells changed: [column, new value]. */
  changes: [number, Cell][];
  deleted: boolean;
  problems: CellProblem[];
}

export interface NewRowOverlay {
  id: number;
  cells: Cell[];
  problems: CellProblem[];
}

export interface EditCounts {
  /** Rows of the table with changed cells. */
  updated: number;
  inserted: number;
  deleted: number;
  /** Rows with a problem (each keeps the change set from being proposed). */
  problems: number;
  /** Rows whose key is still being checked against the table. */
  pending: number;
  canUndo: boolean;
  canRedo: boolean;
}

/** Buttons of the grid's edit bar that the host carries out. */
export type EditAction = 'review' | 'discard' | 'propose';
export const EDIT_ACTIONS: readonly EditAction[] = ['review', 'discard', 'propose'];

/** Host → grid. */
export type HostEditMessage =
  /**
   * The overlay changed. `reset`: everything is replaced (the grid opened, Discard, a reload);
   * else `base` and `newRows` hold the rows that changed, `removed` the table rows no longer
   * touched, and `order` (when new rows came or went) the ids of every new row, top first.
   */
  | {
      type: 'edit.overlay';
      sourceId: string;
      reset: boolean;
      base: BaseRowOverlay[];
      removed: string[];
      newRows: NewRowOverlay[];
      order?: number[];
      counts: EditCounts;
    }
  /** An edit the host did not apply, and why (a deleted row, a locked column ...). */
  | { type: 'edit.refused'; sourceId: string; message: string };

/** Grid → host. */
export type GridEditMessage =
  { type: 'edit.apply'; sourceId: string; request: EditRequest } | { type: 'edit.action'; sourceId: string; action: EditAction };

/** The id of a table row in the overlay: its key cells as read, in key order. */
export function rowKeyId(key: readonly Cell[]): string {
  return JSON.stringify(key);
}

/** Whether a change set with these counts may be proposed: something changed and nothing is wrong or unchecked. */
export function canPropose(c: EditCounts): boolean {
  return c.updated + c.inserted + c.deleted > 0 && c.problems === 0 && c.pending === 0;
}

/** `2 changed · 1 new · 1 deleted`, and the rows with a problem: what the edit bar and the pickers say. */
export function countsText(c: Omit<EditCounts, 'canUndo' | 'canRedo'>): string {
  const parts = [l10n.t('{0} changed', c.updated), l10n.t('{0} new', c.inserted), l10n.t('{0} deleted', c.deleted)];
  if (c.problems) parts.push(c.problems === 1 ? l10n.t('1 with a problem') : l10n.t('{0} with problems', c.problems));
  if (c.pending) parts.push(l10n.t('{0} being checked', c.pending));
  return parts.join(' · ');
}

const MAX_CELLS = 1_000_000;
const MAX_ROWS = 100_000;
const MAX_WIDTH = 4096;
export const MAX_ADD_ROWS = 10_000;

const isIndex = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

function cells(v: unknown, max = MAX_WIDTH): Cell[] | undefined {
  if (!Array.isArray(v) || v.length > max) return undefined;
  return v.every((c) => c === null || typeof c === 'string') ? (v as Cell[]) : undefined;
}

function rowRef(v: unknown): RowRef | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const r = v as Record<string, unknown>;
  if (isIndex(r['newRow'])) return { newRow: r['newRow'] };
  const key = cells(r['key'], 64);
  const row = cells(r['row']);
  return key && key.length > 0 && row ? { key, row } : undefined;
}

function cellEdits(v: unknown): CellEdit[] | undefined {
  if (!Array.isArray(v) || v.length > MAX_CELLS) return undefined;
  const out: CellEdit[] = [];
  for (const e of v) {
    if (!e || typeof e !== 'object') return undefined;
    const { row, column, value } = e as Record<string, unknown>;
    const ref = rowRef(row);
    if (!ref || !isIndex(column) || !(value === null || typeof value === 'string')) return undefined;
    out.push({ row: ref, column, value });
  }
  return out;
}

function editRequest(v: unknown): EditRequest | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const r = v as Record<string, unknown>;
  switch (r['kind']) {
    case 'set': {
      const edits = cellEdits(r['edits']);
      if (!edits) return undefined;
      if (r['newRows'] === undefined) return { kind: 'set', edits };
      const rows = Array.isArray(r['newRows']) && r['newRows'].length <= MAX_ROWS ? r['newRows'].map((x) => cells(x)) : undefined;
      if (!rows || rows.some((x) => !x)) return undefined;
      return { kind: 'set', edits, newRows: rows as Cell[][] };
    }
    case 'addRows':
      return isIndex(r['count']) && r['count'] >= 1 && r['count'] <= MAX_ADD_ROWS ? { kind: 'addRows', count: r['count'] } : undefined;
    case 'deleteRows': {
      const rows = Array.isArray(r['rows']) && r['rows'].length <= MAX_ROWS ? r['rows'].map(rowRef) : undefined;
      return rows && rows.length > 0 && rows.every((x) => x) ? { kind: 'deleteRows', rows: rows as RowRef[] } : undefined;
    }
    case 'undo':
    case 'redo':
      return { kind: r['kind'] };
    default:
      return undefined;
  }
}

/** Checks a message from the grid; undefined when it is not a well-formed editing message. */
export function parseGridEditMessage(raw: unknown): GridEditMessage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const m = raw as Record<string, unknown>;
  if (typeof m['sourceId'] !== 'string') return undefined;
  if (m['type'] === 'edit.apply') {
    const request = editRequest(m['request']);
    return request ? { type: 'edit.apply', sourceId: m['sourceId'], request } : undefined;
  }
  if (m['type'] === 'edit.action' && (EDIT_ACTIONS as readonly unknown[]).includes(m['action'])) {
    return { type: 'edit.action', sourceId: m['sourceId'], action: m['action'] as EditAction };
  }
  return undefined;
}
