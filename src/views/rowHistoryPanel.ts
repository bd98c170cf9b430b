// The Show Row History view (issue #15): every version of one row in the shared paged grid, newest
// first (commit, author, date, then the row's cells; changed cells old → new), with who last
// changed the asked-about cell said above the grid. The versions are read once when the view
// opens (src/core/review/rowHistoryView.ts) and served to the grid from memory.
import { WebviewTypes } from '../shared/ids';
import type * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { RowHistoryRequest } from '../core/review/requests';
import { rowHistoryGrid, rowHistoryNote, type LoadedRowHistory } from '../core/review/rowHistoryView';
import { formatRelativeTime } from '../core/relativeTime';
import type { PageSource } from '../core/paging/pageServer';
import type { PagedOutput } from '../shared/gridPaging';
import { PagedGridPanel } from './pagedGridPanel';

let seq = 0;

/** "products (id = 3) @ main" */
export function rowHistoryTitle(req: RowHistoryRequest): string {
  const key = Object.entries(req.key)
    .map(([k, v]) => `${k} = ${v === null ? 'NULL' : v}`)
    .join(', ');
  return `History of ${req.table} (${key}) @ ${req.ref.length === 32 ? req.ref.slice(0, 8) : req.ref}`;
}

/** Opens a panel on the loaded history; returns it (tests read what it shows). */
export function openRowHistoryPanel(
  extensionUri: vscode.Uri,
  log: Logger,
  req: RowHistoryRequest,
  loaded: LoadedRowHistory,
): PagedGridPanel {
  const title = rowHistoryTitle(req);
  const panel = new PagedGridPanel(extensionUri, log, { viewType: WebviewTypes.rowHistory, title });
  const grid = rowHistoryGrid(loaded);
  const now = Date.now();
  const note = rowHistoryNote(loaded, (t) => formatRelativeTime(t === undefined ? undefined : new Date(t).toISOString(), now));
  const output: PagedOutput = {
    v: 1,
    kind: 'paged',
    sourceId: `row-history-${++seq}`,
    columns: grid.columns,
    target: { hostId: req.target.hostId, owner: req.target.db.owner, name: req.target.db.name, ref: req.ref },
    commit: loaded.commit,
    title,
    pageSize: 200,
    totalRows: grid.rows.length,
    serverSort: false,
    serverFilter: false,
    frozenColumns: 1,
    note,
  };
  const source: PageSource = {
    read: async (start, end) => ({
      rows: grid.rows.slice(start, end),
      kinds: grid.kinds.slice(start, end),
      old: grid.old.slice(start, end),
      end: end >= grid.rows.length,
    }),
    count: async () => grid.rows.length,
  };
  panel.show(output, source);
  return panel;
}
