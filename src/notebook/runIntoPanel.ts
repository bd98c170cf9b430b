// Running SQL outside a notebook cell: into the result panel with a cancellable progress
// notification, recorded in the query history; from a .sql editor, the statement under the
// cursor (or the selection) at the document's target.
import * as vscode from 'vscode';
import type { QueryTarget } from '../shared/queryResultOutput';
import { historyEntryOf } from '../core/sql/history';
import { targetLabel } from '../core/sql/refs';
import { statementAt } from '../core/sql/statements';
import { runQuery } from './queryRunner';
import type { NotebookCommandDeps } from './notebookCommandDeps';
import { pickTarget } from './queryTargetPicks';
import * as l10n from '../shared/l10n';

/** Runs SQL at a target into the result panel, with a cancellable progress notification. */
export async function runIntoPanel(deps: NotebookCommandDeps, sql: string, target: QueryTarget): Promise<void> {
  deps.panel.showRunning(sql, target);
  try {
    const output = await deps.ui.withProgress(l10n.t('Running SQL at {0}', targetLabel(target)), async (_p, signal) => {
      const res = await deps.refs.resolve(target, { signal, fresh: true });
      return runQuery(deps.sql, target, sql, {
        signal,
        ...(res.commit ? { commit: res.commit } : {}),
        hostLabel: deps.clients.labelOf(target.hostId),
      });
    });
    deps.panel.show(output);
    await deps.history.add(historyEntryOf(output, sql, target));
  } catch (e) {
    deps.ui.error(e, {
      action: l10n.t('run the query at {0}', targetLabel(target)),
      hostId: target.hostId,
      hostLabel: deps.clients.labelOf(target.hostId),
    });
  }
}

export async function runSqlInEditor(deps: NotebookCommandDeps): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void deps.ui.info(l10n.t('Open a .sql file and put the cursor in a statement (or select some SQL) first.'));
    return;
  }
  const doc = editor.document;
  const sql = editor.selection.isEmpty
    ? statementAt(doc.getText(), doc.offsetAt(editor.selection.active))?.text
    : doc.getText(editor.selection).trim();
  if (!sql) {
    void deps.ui.info(l10n.t('Nothing to run: the cursor is not in a SQL statement.'));
    return;
  }
  let target = deps.editorTargets.get(doc.uri);
  if (!target) {
    target = await pickTarget(deps);
    if (!target) return;
    await deps.editorTargets.set(doc.uri, target);
  }
  await runIntoPanel(deps, sql, target);
}
