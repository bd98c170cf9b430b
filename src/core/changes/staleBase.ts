// A stale base (issue #23): before a change set is sent, what its target branch changed since
// the base commit, in the rows the change set edits too. Those rows are listed with both values
// (the branch's now and the change set's) so the person decides: send anyway (the pull request
// will show the conflict at merge) or rebase the change set onto the branch's head.
import type { Cell } from '../../shared/wire';
import type { RowDiff } from '../review/rowDiff';
import { expectedRows, rowKeyText } from './proposalCheck';
import type { ProposalInput } from './proposalFiles';

export interface StaleRow {
  readonly key: readonly Cell[];
  /** What the target branch did to the row since the base. */
  readonly theirs: RowDiff['kind'];
  /** What the change set does to it. */
  readonly yours: 'modified' | 'added' | 'removed';
  /** Columns whose value the branch changed, with the base, the branch's and the change set's value. */
  readonly cells: readonly { column: string; base: Cell | undefined; branch: Cell | undefined; yours: Cell | undefined }[];
}

/** The change set's rows that the target branch also changed since the base, from the branch's diff base → head. */
export function staleRows(input: ProposalInput, branchDiff: readonly RowDiff[]): StaleRow[] {
  const mine = expectedRows(input);
  const out: StaleRow[] = [];
  for (const row of branchDiff) {
    const yours = mine.get(rowKeyText(row.key));
    if (!yours) continue;
    const cells = row.cells
      .filter((c) => c.changed)
      .map((c) => {
        const i = input.columns.findIndex((col) => col.name === c.column);
        return { column: c.column, base: c.old, branch: c.new, yours: i >= 0 ? yours.after?.[i] : undefined };
      });
    out.push({ key: row.key, theirs: row.kind, yours: yours.kind, cells });
  }
  return out;
}

const show = (v: Cell | undefined): string => (v === undefined ? '—' : v === null ? 'NULL' : JSON.stringify(v));

/** Lines for the dialog: one per row, its key, then each cell the branch changed (base → branch; yours). */
export function describeStaleRows(rows: readonly StaleRow[], max = 10): string {
  const lines = rows.slice(0, max).map((r) => {
    const key = r.key.map((v) => (v === null ? 'NULL' : v)).join(', ');
    const cells = r.cells.map((c) => `${c.column}: ${show(c.base)} → ${show(c.branch)} on the branch; yours ${show(c.yours)}`);
    return `(${key}) ${r.theirs} on the branch, ${r.yours} by you${cells.length ? `\n    ${cells.join('\n    ')}` : ''}`;
  });
  if (rows.length > max) lines.push(`… and ${(rows.length - max).toLocaleString('en-US')} more rows`);
  return lines.join('\n');
}
