// Registers the history commands (issue #15): Show History of a table, Show Row History.
import * as vscode from 'vscode';
import { Commands } from '../shared/ids';
import { registerGuarded } from '../platform/commandRegistration';
import { openRowHistoryPanel } from '../views/rowHistoryPanel';
import type { PagedGridPanel } from '../views/pagedGridPanel';
import type { CommandDeps } from './commandDeps';
import { showCommitChanges, showRowHistory, showTableHistory, type HistoryEnv } from './historyCommands';

export type HistoryRegistrationDeps = Pick<CommandDeps, 'ui' | 'log' | 'sql' | 'extensionUri'>;

/** The row history panels opened so far (for tests); they close with their tabs. */
export const openRowHistoryPanels: PagedGridPanel[] = [];

export function registerHistoryCommands(deps: HistoryRegistrationDeps): vscode.Disposable[] {
  const env: HistoryEnv = {
    ui: deps.ui,
    log: deps.log,
    sql: deps.sql,
    hasCommand: async (id) => (await vscode.commands.getCommands(true)).includes(id),
    execute: (id, ...args) => Promise.resolve(vscode.commands.executeCommand(id, ...args)),
    commands: { newSqlNotebookAtCommit: Commands.newSqlNotebookAtCommit },
    openRowHistory: (req, loaded) => {
      const panel = openRowHistoryPanel(deps.extensionUri, deps.log, req, loaded);
      openRowHistoryPanels.push(panel);
      panel.onDidDispose(() => openRowHistoryPanels.splice(openRowHistoryPanels.indexOf(panel), 1));
    },
  };
  return registerGuarded(
    [
      [Commands.showTableHistory, (arg) => showTableHistory(env, arg)],
      [Commands.showRowHistory, (arg) => showRowHistory(env, arg)],
      [Commands.showCommitChanges, (node) => showCommitChanges(env, node)],
    ],
    deps.ui,
  );
}
