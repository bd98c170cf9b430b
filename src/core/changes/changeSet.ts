// The change set of one table at one base commit (issue #23): the cells the user changed, the rows
// they added and the rows they deleted, checked against the columns and keys of the table, with
// undo and redo. Pure (no vscode): the table browser applies the grid's requests to it
// (`apply`), the host store keeps it in workspace storage (`toJSON` / `fromJSON`), the Changes
// view and Propose Changes read it (`snapshot`), and a stale base is handled by `rebase`.
//
// Rows of the table are kept by primary key as read at the base commit (never by position, so a
// 1M-row table costs nothing until a row is touched), with the whole row as it was there; new rows
// by an id of their own, in the order they show (top of the grid).
import type { Cell, QueryColumn } from '../../shared/wire';
import { rowKeyId, type EditCounts, type EditRequest, type RowRef } from '../../shared/editProtocol';
import { ChangeRows, baseRef, newRef, type BaseEntry, type EntryRef } from './changeRows';
import { canonicalKey, keyCells, tableShape, type TableShape } from './tableShape';
import { overlayOf, type OverlayChange } from './changeOverlay';
import { snapshotOf, type ChangeSetSnapshot } from './changeSetSnapshot';
import type { ChangeSetScope } from './changeSetScope';
import { rebaseRows, type RebaseResult } from './changeRebase';
import { changeSetFromJson, changeSetToJson, type SerializedChangeSet } from './changeSetJson';

export interface ChangeSetOptions {
  scope: ChangeSetScope;
  columns: readonly QueryColumn[];
  keyColumns: readonly number[];
  /** Per column: whether NULL is allowed (default: yes, except key columns). */
  nullable?: readonly boolean[];
}

/** An edit that was not applied (nothing of its request was). */
export class EditRefusedError extends Error {
  override readonly name = 'EditRefusedError';
}

type BaseState = { changes: [number, Cell][]; deleted: boolean; gone: boolean };
type Step =
  | { kind: 'base'; id: string; key: Cell[]; row: Cell[]; was?: BaseState; now?: BaseState }
  | { kind: 'new'; id: number; index: number; was?: Cell[]; now?: Cell[] };

/** Undo steps kept (the oldest go first). */
const MAX_UNDO = 200;

const baseState = (e: BaseEntry | undefined): BaseState | undefined =>
  e ? { changes: [...e.changes], deleted: e.deleted, gone: e.gone } : undefined;

export class ChangeSet {
  readonly shape: TableShape;
  private scopeNow: ChangeSetScope;
  private rows: ChangeRows;
  private undoSteps: Step[][] = [];
  private redoSteps: Step[][] = [];
  /** The steps of the request being applied, by entry. */
  private op: Map<EntryRef, Step> | undefined;
  private touchedKeys: string[] = [];

  constructor(o: ChangeSetOptions) {
    this.scopeNow = { ...o.scope };
    this.shape = tableShape(o.columns, o.keyColumns, o.nullable);
    this.rows = new ChangeRows(this.shape);
  }

  get scope(): ChangeSetScope {
    return this.scopeNow;
  }

  get isEmpty(): boolean {
    return this.rows.base.size === 0 && this.rows.newRows.size === 0;
  }

  counts(): EditCounts {
    let updated = 0;
    let deleted = 0;
    for (const e of this.rows.base.values()) {
      if (e.deleted) deleted++;
      else updated++;
    }
    let problems = 0;
    let pending = 0;
    for (const list of this.rows.problems.values()) {
      if (list.some((p) => !p.pending)) problems++;
      else pending++;
    }
    const canUndo = this.undoSteps.length > 0;
    return { updated, inserted: this.rows.newRows.size, deleted, problems, pending, canUndo, canRedo: this.redoSteps.length > 0 };
  }

  /** Applies one request of the grid (one step of undo); refuses it whole when any part cannot be applied. */
  apply(req: EditRequest): OverlayChange {
    if (req.kind === 'undo' || req.kind === 'redo') return this.replay(req.kind);
    const orderBefore = this.rows.order.length;
    this.op = new Map();
    this.touchedKeys = [];
    try {
      if (req.kind === 'set') {
        for (const e of req.edits) this.setCell(e.row, e.column, e.value);
        for (const r of req.newRows ?? []) this.addRow(r);
      } else if (req.kind === 'addRows') {
        for (let i = 0; i < req.count; i++) this.addRow([]);
      } else {
        for (const r of req.rows) this.deleteRow(r);
      }
    } catch (e) {
      this.restore([...this.op.values()], 'was');
      this.op = undefined;
      throw e;
    }
    const steps = this.finishOp();
    return this.change(steps, orderBefore);
  }

  private finishOp(): Step[] {
    const steps = [...(this.op?.values() ?? [])];
    this.op = undefined;
    for (const s of steps) {
      if (s.kind === 'base') s.now = baseState(this.rows.base.get(s.id));
      else s.now = this.rows.newRows.get(s.id)?.slice();
    }
    const real = steps.filter((s) => JSON.stringify(s.was) !== JSON.stringify(s.now));
    if (real.length) {
      this.undoSteps.push(real);
      if (this.undoSteps.length > MAX_UNDO) this.undoSteps.shift();
      this.redoSteps = [];
    }
    return real;
  }

  private replay(kind: 'undo' | 'redo'): OverlayChange {
    const steps = (kind === 'undo' ? this.undoSteps : this.redoSteps).pop();
    if (!steps) throw new EditRefusedError(kind === 'undo' ? 'Nothing to undo.' : 'Nothing to redo.');
    const orderBefore = this.rows.order.length;
    this.touchedKeys = [];
    if (kind === 'undo') {
      this.restore(steps.slice().reverse(), 'was');
      this.redoSteps.push(steps);
    } else {
      this.restore(steps, 'now');
      this.undoSteps.push(steps);
    }
    return this.change(steps, orderBefore);
  }

  private restore(steps: readonly Step[], which: 'was' | 'now'): void {
    for (const s of steps) {
      if (s.kind === 'base') {
        const st = s[which];
        const e = st && { key: s.key, before: s.row, changes: new Map(st.changes), deleted: st.deleted, gone: st.gone };
        this.touchedKeys.push(...this.rows.setBase(s.id, e));
      } else {
        const cells = s[which];
        this.touchedKeys.push(...this.rows.setNew(s.id, cells?.slice(), s.index));
      }
    }
  }

  /** The overlay entries the steps changed, after checking every row they may affect. */
  private change(steps: readonly Step[], orderBefore: number): OverlayChange {
    const refs = new Set<EntryRef>(steps.map((s) => (s.kind === 'base' ? baseRef(s.id) : newRef(s.id))));
    for (const r of this.rows.claimants(this.touchedKeys)) refs.add(r);
    this.rows.recheck(refs);
    const orderChanged = steps.some((s) => s.kind === 'new' && (s.was === undefined) !== (s.now === undefined));
    return overlayOf(this.rows, refs, orderChanged || orderBefore !== this.rows.order.length, this.counts(), false);
  }

  private record(step: Step): void {
    const ref = step.kind === 'base' ? baseRef(step.id) : newRef(step.id);
    if (this.op && !this.op.has(ref)) this.op.set(ref, step);
  }

  private baseEntry(r: { key: Cell[]; row: Cell[] }): { id: string; e: BaseEntry } {
    const shape = this.shape;
    if (r.row.length !== shape.columns.length) throw new EditRefusedError(`A row of ${shape.columns.length} cells was expected.`);
    if (r.key.length !== shape.keyColumns.length || keyCells(shape, r.row).some((c, i) => c !== r.key[i]))
      throw new EditRefusedError('The row does not have the key it was named by.');
    const id = rowKeyId(r.key);
    const e = this.rows.base.get(id) ?? { key: r.key.slice(), before: r.row.slice(), changes: new Map(), deleted: false, gone: false };
    this.record({ kind: 'base', id, key: e.key, row: e.before, was: baseState(this.rows.base.get(id)) });
    return { id, e };
  }

  private setCell(ref: RowRef, col: number, value: Cell): void {
    const shape = this.shape;
    const column = shape.columns[col];
    if (!column) throw new EditRefusedError(`There is no column ${col + 1}.`);
    if (shape.types[col]?.kind === 'binary') throw new EditRefusedError(`${column.name} holds bytes, which cannot be edited here.`);
    if ('newRow' in ref) {
      const cells = this.rows.newRows.get(ref.newRow);
      if (!cells) throw new EditRefusedError('That new row is no longer in the change set.');
      this.record({ kind: 'new', id: ref.newRow, index: this.rows.order.indexOf(ref.newRow), was: cells.slice() });
      const next = cells.slice();
      next[col] = value;
      this.touchedKeys.push(...this.rows.setNew(ref.newRow, next));
      return;
    }
    const { id, e } = this.baseEntry(ref);
    if (e.deleted) throw new EditRefusedError('That row is marked for deletion: undo the deletion to edit it.');
    const changes = new Map(e.changes);
    if (value === e.before[col]) changes.delete(col);
    else changes.set(col, value);
    const keep = changes.size > 0 || e.gone;
    this.touchedKeys.push(...this.rows.setBase(id, keep ? { ...e, changes } : undefined));
  }

  private addRow(cells: readonly Cell[]): void {
    const n = this.shape.columns.length;
    if (cells.length > n) throw new EditRefusedError(`A new row has ${cells.length} cells; the table has ${n} columns.`);
    const row = Array.from({ length: n }, (_, i) => cells[i] ?? null);
    const binary = this.shape.types.findIndex((t, i) => t.kind === 'binary' && row[i] !== null);
    if (binary >= 0) throw new EditRefusedError(`${this.shape.columns[binary]?.name} holds bytes, which cannot be edited here.`);
    const id = this.rows.nextNewId++;
    this.record({ kind: 'new', id, index: this.rows.order.length });
    this.touchedKeys.push(...this.rows.setNew(id, row));
  }

  private deleteRow(ref: RowRef): void {
    if ('newRow' in ref) {
      const cells = this.rows.newRows.get(ref.newRow);
      if (!cells) return;
      this.record({ kind: 'new', id: ref.newRow, index: this.rows.order.indexOf(ref.newRow), was: cells.slice() });
      this.touchedKeys.push(...this.rows.setNew(ref.newRow, undefined));
      return;
    }
    const { id, e } = this.baseEntry(ref);
    if (e.deleted) return;
    this.touchedKeys.push(...this.rows.setBase(id, { ...e, changes: new Map(), deleted: true, gone: false }));
  }

  /** The whole overlay, for a grid that opens (or after Discard or a rebase). */
  overlay(): OverlayChange {
    const refs = new Set<EntryRef>([...[...this.rows.base.keys()].map(baseRef), ...this.rows.order.map(newRef)]);
    return overlayOf(this.rows, refs, true, this.counts(), true);
  }

  /** Keys of new and re-keyed rows nobody has said whether the table has at the base commit (ask the server). */
  keysToCheck(): Cell[][] {
    const wanted = new Set(this.rows.unknownKeys());
    const out = new Map<string, Cell[]>();
    const consider = (key: Cell[]): void => {
      const k = canonicalKey(this.shape, key);
      if (k !== undefined && wanted.has(k)) out.set(k, key);
    };
    for (const cells of this.rows.newRows.values()) consider(keyCells(this.shape, cells));
    for (const e of this.rows.base.values()) {
      const k = this.rows.newKeyOf(e);
      if (k) consider(k);
    }
    return [...out.values()];
  }

  /** The server's answer about `checked` keys at the base commit: `existing` are there. */
  recordExistingKeys(checked: readonly Cell[][], existing: readonly Cell[][]): OverlayChange {
    const there = new Set(existing.map((k) => canonicalKey(this.shape, k)));
    const keys: string[] = [];
    for (const key of checked) {
      const k = canonicalKey(this.shape, key);
      if (k === undefined) continue;
      this.rows.baseKeyExists.set(k, there.has(k));
      keys.push(k);
    }
    const refs = this.rows.claimants(keys);
    this.rows.recheck(refs);
    return overlayOf(this.rows, refs, false, this.counts(), false);
  }

  snapshot(): ChangeSetSnapshot {
    return snapshotOf(this.scopeNow, this.shape, this.rows);
  }

  /** Keys of every row the change set touches or claims: what a rebase must read at the new base. */
  keysToRead(): Cell[][] {
    const out = [...this.rows.base.values()].map((e) => e.key.slice());
    for (const e of this.rows.base.values()) {
      const k = this.rows.newKeyOf(e);
      if (k && canonicalKey(this.shape, k) !== undefined) out.push(k);
    }
    for (const cells of this.rows.newRows.values()) {
      const k = keyCells(this.shape, cells);
      if (canonicalKey(this.shape, k) !== undefined) out.push(k);
    }
    return out;
  }

  /**
   * Moves the change set onto `newBase`, given the rows there of `keysToRead()` (those that exist):
   * befores are replaced, edits that now equal the row are dropped, deletes of rows gone are
   * dropped, edits of rows gone become problems, new rows whose key now exists become problems.
   * Undo history ends here.
   */
  rebase(newBase: string, rowsAtNewBase: readonly Cell[][]): RebaseResult {
    const result = rebaseRows(this.rows, rowsAtNewBase);
    this.rows = result.rows;
    this.scopeNow = { ...this.scopeNow, baseCommit: newBase };
    this.undoSteps = [];
    this.redoSteps = [];
    return result.summary;
  }

  toJSON(): SerializedChangeSet {
    return changeSetToJson(this.scopeNow, this.shape, this.rows);
  }

  /** A change set from its stored form; throws ChangeSetFormatError when it is not one. */
  static fromJSON(raw: unknown): ChangeSet {
    const parsed = changeSetFromJson(raw);
    const cs = new ChangeSet(parsed.options);
    cs.rows = parsed.fill(cs.shape);
    return cs;
  }
}
