// What the review views are opened on, as plain data: the arguments of the commands that open
// them (`Commands.showChanges`, `showTableHistory`, `showRowHistory`), so the tree, the pull
// view, the grid and the command palette all open the same views the same way.
import type { Cell } from '../../shared/wire';
import type { DatabaseTarget, PullTarget } from '../targets';
import type { ChangeSetScope } from '../changes/changeSetScope';

/** Which pair of revisions a Changes view shows. */
export type ChangesRequest =
  /** One commit against its first parent (the first commit: against nothing). */
  | { kind: 'commit'; target: DatabaseTarget; commit: string; table?: string }
  /**
   * Two refs (branches, tags or commit hashes). Two dots (default): how `to` differs from
   * `from`. Three dots: what `to` changed since it left `from` (from their merge base).
   */
  | { kind: 'refs'; target: DatabaseTarget; from: string; to: string; threeDot?: boolean; table?: string }
  /** A pull request: from the merge base to the head of its from-branch, cross-fork included. */
  | { kind: 'pull'; target: PullTarget; table?: string }
  /** The unsent changes of one table (issue #23): the change set against its base commit. */
  | { kind: 'changeSet'; target: DatabaseTarget; scope: ChangeSetScope; table?: string };

/** The commits that changed one table, newest first, at a ref. */
export interface TableHistoryRequest {
  target: DatabaseTarget;
  /** A branch, tag or commit hash. */
  ref: string;
  table: string;
}

/** Every version of one row of a keyed table, at a ref. */
export interface RowHistoryRequest {
  target: DatabaseTarget;
  /** A branch, tag or commit hash (the view pins it to a commit when it opens). */
  ref: string;
  table: string;
  /** The row's primary-key values by column name. */
  key: Record<string, Cell>;
  /** The cell the user asked about: the view says who last changed it and when. */
  column?: string;
}

/** A short title for a Changes view, e.g. `Changes: v1.0 ↔ v2.0`, `Changes: a1b2c3d`, `Changes: #4`, `Unsent changes: products @ main`. */
export function changesTitle(r: ChangesRequest): string {
  switch (r.kind) {
    case 'commit':
      return `Changes: ${r.commit.slice(0, 7)}`;
    case 'refs':
      return `Changes: ${shortRef(r.from)} ${r.threeDot ? '…' : '↔'} ${shortRef(r.to)}`;
    case 'pull':
      return `Changes: #${r.target.pullNumber}`;
    case 'changeSet':
      return `Unsent changes: ${r.scope.table} @ ${r.scope.branch}`;
  }
}

function shortRef(ref: string): string {
  return /^[0-9a-v]{32}$/.test(ref) ? ref.slice(0, 7) : ref;
}
