// Query history: the picker that searches past queries as you type, and what to do with the one
// picked (run again, insert as a cell, open in a new notebook, copy); clearing the history.
import * as vscode from 'vscode';
import { Notebooks } from '../shared/ids';
import { shortHash } from '../core/commitHash';
import { newNotebook } from '../core/sql/notebookDocument';
import { historyLabel, historyMatches, historySearcher, type HistoryEntry } from '../core/sql/history';
import { targetLabel } from '../core/sql/refs';
import { CellMeta, toVscode } from './sqlNotebookSerializer';
import type { NotebookCommandDeps } from './notebookCommandDeps';
import { runIntoPanel } from './runIntoPanel';
import * as l10n from '../shared/l10n';

/** A row of the history picker: an entry, or the note that more entries match. */
export type HistoryPickItem = vscode.QuickPickItem & { readonly entry?: HistoryEntry };

/**
 * The history picker. Typing searches with `searchHistory` (SQL text, database, ref, commit), not
 * with the quick pick's fuzzy match on the label: a search for a table or a branch finds entries
 * whose (shortened) label does not show it. `createQuickPick` lets tests drive a real quick pick.
 */
export function pickHistoryEntry(
  entries: readonly HistoryEntry[],
  createQuickPick: () => vscode.QuickPick<HistoryPickItem> = () => vscode.window.createQuickPick<HistoryPickItem>(),
): Promise<HistoryEntry | undefined> {
  const search = historySearcher(entries);
  // Rows are built once; a keystroke only chooses which of them to show.
  const rows = new Map<HistoryEntry, HistoryPickItem>();
  const rowOf = (e: HistoryEntry): HistoryPickItem => {
    let row = rows.get(e);
    if (!row) {
      row = {
        label: historyLabel(e),
        description: l10n.t('{0} · {1} · {2} rows', targetLabel(e.target), e.status, e.rowCount),
        detail: `${new Date(e.ranAt).toLocaleString()}${e.commit ? ` · commit ${shortHash(e.commit)}` : ''}`,
        // The quick pick would otherwise hide rows whose label does not fuzzy-match the text.
        alwaysShow: true,
        entry: e,
      };
      rows.set(e, row);
    }
    return row;
  };
  const qp = createQuickPick();
  qp.title = l10n.t('Query history');
  qp.placeholder = l10n.t('Search past queries by SQL, table, database, branch, tag or commit');
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  qp.ignoreFocusOut = true;
  const render = (): void => {
    const { shown, more } = historyMatches(search, qp.value);
    const items: HistoryPickItem[] = shown.map(rowOf);
    if (more > 0)
      items.push({
        label:
          more === 1
            ? l10n.t('$(info) 1 more query matches: type more words to narrow')
            : l10n.t('$(info) {0} more queries match: type more words to narrow', more),
        alwaysShow: true,
      });
    qp.items = items;
  };
  render();
  return new Promise((resolve) => {
    let done = false;
    const subs = [
      qp.onDidChangeValue(render),
      qp.onDidAccept(() => {
        const entry = qp.selectedItems[0]?.entry;
        if (!entry) return;
        done = true;
        resolve(entry);
        qp.hide();
      }),
      qp.onDidHide(() => {
        if (!done) resolve(undefined);
        for (const s of subs) s.dispose();
        qp.dispose();
      }),
    ];
    qp.show();
  });
}

export async function showQueryHistory(
  deps: NotebookCommandDeps,
  createQuickPick?: () => vscode.QuickPick<HistoryPickItem>,
): Promise<void> {
  const entries = deps.history.all();
  if (entries.length === 0) {
    void deps.ui.info(l10n.t('No queries yet. Queries you run in notebooks and .sql files appear here.'));
    return;
  }
  const entry = await pickHistoryEntry(entries, createQuickPick);
  if (!entry) return;
  const nb = vscode.window.activeNotebookEditor;
  const canInsert = !!nb && nb.notebook.notebookType === Notebooks.type;
  const action = await deps.ui.pick(
    [
      { label: l10n.t('$(play) Run again'), description: targetLabel(entry.target), value: 'run' as const },
      ...(canInsert ? [{ label: l10n.t('$(add) Insert as a new cell in this notebook'), value: 'insert' as const }] : []),
      { label: l10n.t('$(notebook) Open in a new SQL notebook'), value: 'notebook' as const },
      { label: l10n.t('$(copy) Copy SQL'), value: 'copy' as const },
    ],
    { title: historyLabel(entry, 60) },
  );
  if (action === 'run') await runIntoPanel(deps, entry.sql, entry.target);
  else if (action === 'copy') await deps.ui.copy(entry.sql);
  else if (action === 'notebook') {
    const doc = await vscode.workspace.openNotebookDocument(Notebooks.type, toVscode(newNotebook(entry.target, entry.sql)));
    await vscode.window.showNotebookDocument(doc);
  } else if (action === 'insert' && nb) {
    const cell = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, entry.sql, 'sql');
    cell.metadata = { [CellMeta.target]: entry.target };
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.notebook.uri, [vscode.NotebookEdit.insertCells(nb.notebook.cellCount, [cell])]);
    await vscode.workspace.applyEdit(edit);
  }
}

export async function clearQueryHistory(deps: NotebookCommandDeps): Promise<void> {
  const n = deps.history.all().length;
  if (n === 0) return;
  if (await deps.ui.confirm(n === 1 ? l10n.t('Forget 1 past query?') : l10n.t('Forget {0} past queries?', n), l10n.t('Clear History')))
    await deps.history.clear();
}
