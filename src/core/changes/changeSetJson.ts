// A change set's stored form (workspace storage): plain JSON with a version, read back with every
// field checked, so a damaged or foreign entry is refused with a message instead of half-loaded.
// Undo history is not stored: after a reload the change set is whole, its steps are not.
import type { Cell, QueryColumn } from '../../shared/wire';
import { parseScope, type ChangeSetScope } from './changeSetScope';
import { ChangeRows, baseRef, newRef, type BaseEntry } from './changeRows';
import { canonicalKey, keyCells, type TableShape } from './tableShape';
import { rowKeyId } from '../../shared/editProtocol';

export interface SerializedChangeSet {
  v: 1;
  scope: ChangeSetScope;
  columns: QueryColumn[];
  keyColumns: number[];
  nullable: boolean[];
  base: { key: Cell[]; before: Cell[]; changes: [number, Cell][]; deleted: boolean; gone?: boolean }[];
  /** New rows, top first. */
  newRows: Cell[][];
  /** The server's answers: whether a (canonical) key exists in the table at the base commit. */
  keys: [string, boolean][];
}

export class ChangeSetFormatError extends Error {
  override readonly name = 'ChangeSetFormatError';
}

export function changeSetToJson(scope: ChangeSetScope, shape: TableShape, rows: ChangeRows): SerializedChangeSet {
  return {
    v: 1,
    scope: { ...scope },
    columns: shape.columns.map((c) => ({ ...c })),
    keyColumns: shape.keyColumns.slice(),
    nullable: shape.nullable.slice(),
    base: [...rows.base.values()].map((e) => ({
      key: e.key,
      before: e.before,
      changes: [...e.changes],
      deleted: e.deleted,
      ...(e.gone ? { gone: true } : {}),
    })),
    newRows: rows.order.map((id) => rows.newRows.get(id) ?? []),
    keys: [...rows.baseKeyExists],
  };
}

const isCells = (v: unknown, n?: number): v is Cell[] =>
  Array.isArray(v) && (n === undefined || v.length === n) && v.every((c) => c === null || typeof c === 'string');

function fail(what: string): never {
  throw new ChangeSetFormatError(`The stored change set is damaged: ${what}.`);
}

function columnsOf(v: unknown): QueryColumn[] {
  if (!Array.isArray(v) || v.length === 0) fail('it has no columns');
  return v.map((c: unknown) => {
    const o = c as Partial<QueryColumn> | null;
    if (!o || typeof o.name !== 'string' || typeof o.type !== 'string') fail('a column has no name or type');
    return {
      name: o.name,
      type: o.type,
      ...(o.is_primary_key ? { is_primary_key: true } : {}),
      ...(o.source_table ? { source_table: o.source_table } : {}),
    };
  });
}

function baseEntryOf(v: unknown, shape: TableShape): BaseEntry {
  const o = (v ?? {}) as Record<string, unknown>;
  const n = shape.columns.length;
  if (!isCells(o['before'], n) || !isCells(o['key'], shape.keyColumns.length)) fail('a row has the wrong number of cells');
  const before = o['before'];
  const key = o['key'];
  if (keyCells(shape, before).some((c, i) => c !== key[i])) fail('a row does not have its key');
  const changes = new Map<number, Cell>();
  for (const ch of Array.isArray(o['changes']) ? (o['changes'] as unknown[]) : fail('a row has no changes list')) {
    const [c, value] = Array.isArray(ch) ? ch : [];
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 0 || c >= n || !(value === null || typeof value === 'string'))
      fail('a change names no column');
    changes.set(c, value);
  }
  return { key, before, changes, deleted: o['deleted'] === true, gone: o['gone'] === true };
}

/** The options and rows of a stored change set; throws ChangeSetFormatError when it is not one. */
/** What a ChangeSet is constructed with (`ChangeSetOptions`). */
interface StoredOptions {
  scope: ChangeSetScope;
  columns: QueryColumn[];
  keyColumns: number[];
  nullable?: boolean[];
}

export function changeSetFromJson(raw: unknown): { options: StoredOptions; fill: (shape: TableShape) => ChangeRows } {
  const o = (raw ?? {}) as Record<string, unknown>;
  if (o['v'] !== 1) fail('unknown version');
  const scope = parseScope(o['scope']) ?? fail('no scope');
  const columns = columnsOf(o['columns']);
  const keyColumns = o['keyColumns'];
  if (
    !Array.isArray(keyColumns) ||
    keyColumns.length === 0 ||
    !keyColumns.every((k) => Number.isInteger(k) && k >= 0 && k < columns.length)
  )
    fail('no primary key');
  const nullable = Array.isArray(o['nullable']) ? o['nullable'].map((x) => x !== false) : undefined;
  const fill = (shape: TableShape): ChangeRows => {
    const rows = new ChangeRows(shape);
    for (const pair of Array.isArray(o['keys']) ? (o['keys'] as unknown[]) : []) {
      const [k, there] = Array.isArray(pair) ? (pair as unknown[]) : [];
      if (typeof k === 'string') rows.baseKeyExists.set(k, there === true);
    }
    for (const entry of Array.isArray(o['base']) ? o['base'] : fail('no rows')) {
      const e = baseEntryOf(entry, shape);
      if (canonicalKey(shape, e.key) === undefined) fail('a row has a key that does not fit its columns');
      rows.setBase(rowKeyId(e.key), e);
    }
    for (const cells of Array.isArray(o['newRows']) ? o['newRows'] : fail('no new rows')) {
      if (!isCells(cells, shape.columns.length)) fail('a new row has the wrong number of cells');
      rows.setNew(rows.nextNewId++, cells.slice());
    }
    rows.recheck([...[...rows.base.keys()].map(baseRef), ...rows.order.map(newRef)]);
    return rows;
  };
  return { options: { scope, columns, keyColumns: keyColumns as number[], ...(nullable ? { nullable } : {}) }, fill };
}
