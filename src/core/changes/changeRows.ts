// The rows a change set holds and what is wrong with them: table rows it touches (by key as read
// at the base commit: changed cells, or deleted), new rows (in the order they show), and the index
// that finds duplicate keys without scanning: which rows claim a key (a new row's, or a table row's
// edited key), which keys the change set frees (deleted or re-keyed rows), and which keys the table
// has at the base commit (those of rows read there, and the server's answers about the others). Every change goes through
// `setBase` / `setNew`, which keep the index and the problems of the rows it affects up to date.
import type { Cell } from '../../shared/wire';
import type { CellProblem } from '../../shared/editProtocol';
import { canonicalKey, cellProblem, describeKey, keyCells, type TableShape } from './tableShape';

/** A row of the table the change set touches. */
export interface BaseEntry {
  readonly key: Cell[];
  /** The whole row at the base commit. */
  before: Cell[];
  /** Changed cells by column. */
  changes: Map<number, Cell>;
  deleted: boolean;
  /** The row is not on the branch at the base any more (found by a rebase). */
  gone: boolean;
}

/** `b<key id>` for a table row, `n<id>` for a new row. */
export type EntryRef = string;

export const baseRef = (id: string): EntryRef => `b${id}`;
export const newRef = (id: number): EntryRef => `n${id}`;

export function afterRow(e: BaseEntry): Cell[] {
  const row = e.before.slice();
  for (const [c, v] of e.changes) row[c] = v;
  return row;
}

export class ChangeRows {
  readonly base = new Map<string, BaseEntry>();
  readonly newRows = new Map<number, Cell[]>();
  /** New row ids, top first. */
  order: number[] = [];
  nextNewId = 1;
  /** Whether a (canonical) key exists in the table at the base commit, as the server answered. */
  readonly baseKeyExists = new Map<string, boolean>();
  readonly problems = new Map<EntryRef, CellProblem[]>();
  private readonly claims = new Map<string, Set<EntryRef>>();
  private readonly claimOf = new Map<EntryRef, string>();
  /** Canonical keys of table rows the change set deletes or re-keys. */
  private readonly vacated = new Map<string, string>();

  constructor(readonly shape: TableShape) {}

  /** The key of a table row after its edits, when they change it (a re-keyed row is a delete + an insert). */
  newKeyOf(e: BaseEntry): Cell[] | undefined {
    if (e.deleted || !this.shape.keyColumns.some((c) => e.changes.has(c))) return undefined;
    const after = keyCells(this.shape, afterRow(e));
    return canonicalKey(this.shape, after) === canonicalKey(this.shape, e.key) ? undefined : after;
  }

  private claimFor(ref: EntryRef): string | undefined {
    if (ref.startsWith('n')) {
      const cells = this.newRows.get(Number(ref.slice(1)));
      return cells ? canonicalKey(this.shape, keyCells(this.shape, cells)) : undefined;
    }
    const e = this.base.get(ref.slice(1));
    const k = e ? this.newKeyOf(e) : undefined;
    return k ? canonicalKey(this.shape, k) : undefined;
  }

  /** Sets (or with undefined removes) a table row's entry; returns the keys whose rows must be checked again. */
  setBase(id: string, e: BaseEntry | undefined): string[] {
    const ref = baseRef(id);
    const keys = this.unindex(ref);
    const prev = this.base.get(id);
    const own = canonicalKey(this.shape, (prev ?? e)?.key ?? []);
    if (own) {
      keys.push(own);
      if (this.vacated.get(own) === id) this.vacated.delete(own);
      // The row was read at the base commit: its key is there (unless it is gone since, after a rebase).
      if (!(e ?? prev)?.gone) this.baseKeyExists.set(own, true);
    }
    if (e) {
      this.base.set(id, e);
      if (own && (e.deleted || this.newKeyOf(e))) this.vacated.set(own, id);
    } else this.base.delete(id);
    keys.push(...this.index(ref));
    return keys;
  }

  /** Sets (or removes) a new row's cells; returns the keys whose rows must be checked again. */
  setNew(id: number, cells: Cell[] | undefined, index?: number): string[] {
    const ref = newRef(id);
    const keys = this.unindex(ref);
    if (cells) {
      if (!this.newRows.has(id)) this.order.splice(Math.min(index ?? this.order.length, this.order.length), 0, id);
      this.newRows.set(id, cells);
    } else if (this.newRows.delete(id)) {
      this.order.splice(this.order.indexOf(id), 1);
    }
    keys.push(...this.index(ref));
    return keys;
  }

  private unindex(ref: EntryRef): string[] {
    const old = this.claimOf.get(ref);
    if (old === undefined) return [];
    this.claimOf.delete(ref);
    const set = this.claims.get(old);
    set?.delete(ref);
    if (set?.size === 0) this.claims.delete(old);
    return [old];
  }

  private index(ref: EntryRef): string[] {
    const k = this.claimFor(ref);
    if (k === undefined) return [];
    this.claimOf.set(ref, k);
    let set = this.claims.get(k);
    if (!set) this.claims.set(k, (set = new Set()));
    set.add(ref);
    return [k];
  }

  /** Every row claiming one of `keys`. */
  claimants(keys: Iterable<string>): Set<EntryRef> {
    const out = new Set<EntryRef>();
    for (const k of keys) for (const r of this.claims.get(k) ?? []) out.add(r);
    return out;
  }

  /** Claimed keys nobody has said whether the table has them (the server is asked). */
  unknownKeys(): string[] {
    return [...this.claims.keys()].filter((k) => !this.vacated.has(k) && !this.baseKeyExists.has(k));
  }

  private duplicate(ref: EntryRef, key: Cell[]): CellProblem | undefined {
    const k = this.claimOf.get(ref);
    if (k === undefined) return undefined;
    const column = this.shape.keyColumns[0] as number;
    const what = describeKey(this.shape, key);
    if ((this.claims.get(k)?.size ?? 0) > 1) return { column, message: `Another new or changed row has the same primary key (${what}).` };
    if (this.vacated.has(k)) return undefined;
    if (this.baseKeyExists.get(k) === true)
      return { column, message: `A row with ${what} already exists in ${this.shape.columns[column]?.source_table ?? 'the table'}.` };
    if (!this.baseKeyExists.has(k)) return { column, message: `Checking whether ${what} is free in the table…`, pending: true };
    return undefined;
  }

  private newRowProblems(ref: EntryRef, cells: Cell[]): CellProblem[] {
    const out: CellProblem[] = [];
    cells.forEach((v, c) => {
      const key = this.shape.keyColumns.includes(c);
      const message =
        key && v === null ? `Missing primary key: ${this.shape.columns[c]?.name} is required.` : cellProblem(this.shape, c, v);
      if (message) out.push({ column: c, message });
    });
    const dup = this.duplicate(ref, keyCells(this.shape, cells));
    if (dup) out.push(dup);
    return out;
  }

  private baseProblems(ref: EntryRef, e: BaseEntry): CellProblem[] {
    if (e.deleted) return [];
    const out: CellProblem[] = [];
    if (e.gone) out.push({ column: -1, message: 'This row is no longer on the branch: it was deleted since your edits were made.' });
    for (const [c, v] of e.changes) {
      const message = cellProblem(this.shape, c, v);
      if (message) out.push({ column: c, message });
    }
    const k = this.newKeyOf(e);
    const dup = k ? this.duplicate(ref, k) : undefined;
    if (dup) out.push(dup);
    return out;
  }

  /** Works out the problems of `refs` again. */
  recheck(refs: Iterable<EntryRef>): void {
    for (const ref of refs) {
      let problems: CellProblem[] = [];
      if (ref.startsWith('n')) {
        const cells = this.newRows.get(Number(ref.slice(1)));
        if (cells) problems = this.newRowProblems(ref, cells);
      } else {
        const e = this.base.get(ref.slice(1));
        if (e) problems = this.baseProblems(ref, e);
      }
      if (problems.length) this.problems.set(ref, problems);
      else this.problems.delete(ref);
    }
  }
}
