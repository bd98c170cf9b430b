// The Changes view of an unsent change set (issue #23): its one table in the list, with the counts
// per kind, and the grid's output for its diff against the base (a ChangeSetDiffSource, since no
// commit holds these changes yet). The panel is src/views/changesPanel.ts, as for commits.
import { DEFAULT_PAGE_SIZE, type PagedOutput } from '../shared/gridPaging';
import type { ChangedTableItem, ChangesHostMessage } from '../shared/changesProtocol';
import type { ChangeSetScope } from '../core/changes/changeSetScope';
import type { ChangeSetSnapshot } from '../core/changes/changeSetSnapshot';
import type { ChangeSetDiffSource } from '../core/changes/changeSetDiffSource';
import * as l10n from '../shared/l10n';

const short = (h: string): string => h.slice(0, 7);

function changeSetListItem(s: ChangeSetSnapshot): ChangedTableItem {
  return {
    table: s.scope.table,
    change: 'modified',
    fromTable: s.scope.table,
    added: s.inserted.length,
    modified: s.updated.length,
    removed: s.deleted.length,
    schemaChanged: false,
    dataChanged: true,
  };
}

function changeSetSubtitle(s: ChangeSetSnapshot): string {
  const sc = s.scope;
  return `${short(sc.baseCommit)} (${sc.branch}) → your unsent changes, in ${sc.owner}/${sc.name}`;
}

/** What keeps the change set from being proposed, as the view's banner says it. */
function changeSetProblemsText(s: ChangeSetSnapshot): string | undefined {
  const n = s.problems.length;
  if (n === 0) return undefined;
  const first = s.problems[0]?.message ?? '';
  return `${n} ${n === 1 ? 'problem keeps' : 'problems keep'} these changes from being proposed (fix them in the table browser), e.g.: ${first}`;
}

/** The `changes.list` message: the change set's table with its counts, or that there is nothing to show. */
export function changeSetList(
  title: string,
  db: { owner: string; name: string },
  scope: ChangeSetScope | undefined,
  s: ChangeSetSnapshot | undefined,
): Extract<ChangesHostMessage, { type: 'changes.list' }> {
  if (!s) {
    const what = scope ? `${scope.table} at ${scope.branch}` : 'this table';
    return { type: 'changes.list', title, subtitle: `${db.owner}/${db.name}: no unsent changes to ${what}`, tables: [] };
  }
  const problems = changeSetProblemsText(s);
  return {
    type: 'changes.list',
    title,
    subtitle: changeSetSubtitle(s),
    tables: [changeSetListItem(s)],
    ...(problems ? { partial: problems } : {}),
  };
}

export function changeSetOutput(s: ChangeSetSnapshot, source: ChangeSetDiffSource, sourceId: string): PagedOutput {
  const sc = s.scope;
  const totalRows = source.rowCount;
  return {
    v: 1,
    kind: 'paged',
    sourceId,
    columns: source.gridColumns(),
    target: { hostId: sc.hostId, owner: sc.owner, name: sc.name, ref: sc.branch },
    commit: sc.baseCommit,
    title: l10n.t('{0}: {1} → unsent changes', sc.table, short(sc.baseCommit)),
    pageSize: DEFAULT_PAGE_SIZE,
    totalRows,
    serverSort: false,
    serverFilter: false,
    frozenColumns: source.keyColumns().length,
    rowsOf: { table: sc.table, keyColumns: source.keyColumns() },
  };
}
