// Proof of what was sent (issue #23): after the imports, the new branch's diff against the base
// commit (read with the Changes view's own queries) is held to the change set row by row. Every
// edited row must be there with the kind and the values typed, and no other row may have changed.
// A difference is a finding to show, never something to fix quietly: a value the server coerced
// (a date given a time, text cut to the column's length), a row it dropped or added.
import type { Cell, QueryColumn } from '../../shared/wire';
import { BINARY_CELL } from '../../shared/wire';
import type { RowDiff } from '../review/rowDiff';
import type { RowDiffKind } from '../review/doltQueries';
import { columnClass } from '../sql/tableQuery';
import { isBinaryColumn, keyOf, type ProposalInput } from './proposalFiles';

export interface ExpectedRow {
  readonly kind: RowDiffKind;
  readonly key: readonly Cell[];
  /** The row as it must read on the branch (undefined for a deleted row). */
  readonly after?: readonly Cell[];
}

export type ProposalDifference =
  | { readonly kind: 'missing'; readonly key: readonly Cell[]; readonly expected: RowDiffKind }
  | { readonly kind: 'unexpected'; readonly key: readonly Cell[]; readonly actual: RowDiffKind }
  | { readonly kind: 'otherKind'; readonly key: readonly Cell[]; readonly expected: RowDiffKind; readonly actual: RowDiffKind }
  | { readonly kind: 'value'; readonly key: readonly Cell[]; readonly column: string; readonly expected: Cell; readonly actual: Cell };

/** A map key for a row's key values (NUL cannot occur in them unescaped: JSON). */
export function rowKeyText(key: readonly Cell[]): string {
  return JSON.stringify(key);
}

/** What the branch's diff against the base must hold, by row key. */
export function expectedRows(input: ProposalInput): Map<string, ExpectedRow> {
  const out = new Map<string, ExpectedRow>();
  for (const row of input.deleted) out.set(rowKeyText(keyOf(input, row)), { kind: 'removed', key: keyOf(input, row) });
  for (const u of input.updated)
    out.set(rowKeyText(keyOf(input, u.after)), { kind: 'modified', key: keyOf(input, u.after), after: u.after });
  for (const row of input.inserted) {
    const key = keyOf(input, row);
    // A row deleted and added again with the same key is one modified row on the branch.
    const kind: RowDiffKind = out.get(rowKeyText(key))?.kind === 'removed' ? 'modified' : 'added';
    out.set(rowKeyText(key), { kind, key, after: row });
  }
  return out;
}

/** Decimal text without the zeros that do not change its value (`01.50` → `1.5`), else the text. */
export function canonicalNumber(text: string): string {
  const m = /^(-?)0*(\d*?)(?:\.(\d*?)0*)?$/.exec(text.trim());
  if (!m) return text;
  const int = m[2] || '0';
  const frac = m[3] ?? '';
  const sign = m[1] && (int !== '0' || frac !== '') ? '-' : '';
  return frac ? `${sign}${int}.${frac}` : `${sign}${int}`;
}

/** Whether a value read back equals the value sent, as the column compares them (numbers by value). */
export function sameValue(column: QueryColumn, sent: Cell, read: Cell | undefined): boolean {
  if (read === undefined) return false;
  if (sent === null || read === null) return sent === read;
  const cls = columnClass(column.type);
  if (cls === 'integer' || cls === 'decimal') return canonicalNumber(sent) === canonicalNumber(read);
  return sent === read;
}

function valueDifferences(input: ProposalInput, expected: ExpectedRow, actual: RowDiff): ProposalDifference[] {
  const out: ProposalDifference[] = [];
  input.columns.forEach((column, i) => {
    if (isBinaryColumn(column)) return;
    const cell = actual.cells.find((c) => c.column === column.name);
    const sent = expected.after?.[i] ?? null;
    if (cell?.new === BINARY_CELL) return;
    if (!sameValue(column, sent, cell?.new)) {
      out.push({ kind: 'value', key: expected.key, column: column.name, expected: sent, actual: cell?.new ?? null });
    }
  });
  return out;
}

/** Every way the branch's diff (all its rows) differs from what the change set sent. */
export function compareWithBranch(input: ProposalInput, diff: readonly RowDiff[]): ProposalDifference[] {
  const expected = expectedRows(input);
  const seen = new Set<string>();
  const out: ProposalDifference[] = [];
  for (const row of diff) {
    const k = rowKeyText(row.key);
    seen.add(k);
    const want = expected.get(k);
    if (!want) out.push({ kind: 'unexpected', key: row.key, actual: row.kind });
    else if (want.kind !== row.kind) out.push({ kind: 'otherKind', key: row.key, expected: want.kind, actual: row.kind });
    else if (want.after) out.push(...valueDifferences(input, want, row));
  }
  for (const [k, want] of expected) if (!seen.has(k)) out.push({ kind: 'missing', key: want.key, expected: want.kind });
  return out;
}

/** One line a person reads per difference. */
export function describeDifference(d: ProposalDifference): string {
  const key = d.key.map((v) => (v === null ? 'NULL' : v)).join(', ');
  switch (d.kind) {
    case 'missing':
      return `row (${key}): expected ${d.expected}, but the branch does not change it`;
    case 'unexpected':
      return `row (${key}): ${d.actual} on the branch, but not in the change set`;
    case 'otherKind':
      return `row (${key}): expected ${d.expected}, the branch has it ${d.actual}`;
    case 'value':
      return `row (${key}), ${d.column}: sent ${JSON.stringify(d.expected)}, the branch has ${JSON.stringify(d.actual)}`;
  }
}
