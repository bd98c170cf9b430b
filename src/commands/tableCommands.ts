// Registers the commands on a table (or view) of the tree's Tables node (their logic:
// tableActions.ts) and keeps one table browser per table at a ref; with the change set store, also
// the commands of its change sets (issue #23, changeSetCommands.ts).
import * as vscode from 'vscode';
import { markStepDone } from '../platform/walkthrough';
import { Commands } from '../shared/ids';
import type { TableCatalogCache } from '../core/sql/tableCatalog';
import type { TableAt } from '../core/paging/tableOpening';
import { copyTableName, copyTableSelect, newSqlNotebookForTable, openTable, openTableAt, type TableCommandDeps } from './tableActions';
import { registerGuarded, type CommandHandler } from '../platform/commandRegistration';
import { exportStreamed } from '../platform/streamedExport';
import { TableBrowser } from '../views/tableBrowser';
import { RefResolver } from '../notebook/queryRunner';
import type { ChangeSetStore } from '../views/changeSetStore';
import { registerChangeSetCommands } from './changeSetCommands';
import type { CommandDeps } from './commandDeps';

/** The table commands need part of every command's deps, plus the tree's catalog of tables. */
export type TableCommandHost = Pick<CommandDeps, 'ui' | 'clients' | 'sql' | 'tree' | 'extensionUri' | 'log'> & {
  readonly catalog: Pick<TableCatalogCache, 'tables' | 'columns'>;
  /** The change sets of edited tables (issue #23); without them the browser never edits. */
  readonly changeSets?: ChangeSetStore;
};

/** One browser per table at a ref: opening it again reveals it. */
function browserKey(at: TableAt): string {
  return JSON.stringify([at.target.hostId, at.target.owner, at.target.name, at.target.ref, at.table]);
}

export function registerTableCommands(host: TableCommandHost): vscode.Disposable[] {
  const browsers = new Map<string, TableBrowser>();
  // Fresh every time: "has the ref moved" must not be answered from a cache.
  const refs = new RefResolver((hostId) => host.clients.clientFor(hostId), 0);
  const openBrowser = async (at: TableAt): Promise<TableBrowser> => {
    const key = browserKey(at);
    const open = browsers.get(key);
    if (open) {
      open.reveal();
      void open.checkMoved();
      return open;
    }
    const b = await TableBrowser.open(
      {
        extensionUri: host.extensionUri,
        log: host.log,
        catalog: host.catalog,
        sql: host.sql,
        headOf: async (where, signal) => {
          const r = await refs.resolve(where.target, { fresh: true, ...(signal ? { signal } : {}) });
          return r.kind === 'branch' || r.kind === 'tag' ? r.commit : undefined;
        },
        exportStreamed: (e) => exportStreamed(e, host.log),
        showRowHistory: (req) => vscode.commands.executeCommand(Commands.showRowHistory, req),
        ...(host.changeSets ? { changeSets: host.changeSets } : {}),
        refKind: async (where, signal) => (await refs.resolve(where.target, { fresh: true, ...(signal ? { signal } : {}) })).kind,
        showChangeSet: (scope) => vscode.commands.executeCommand(Commands.showChangeSet, scope),
        discardChanges: (scope) => vscode.commands.executeCommand(Commands.discardChanges, scope),
        proposeChanges: (scope) => vscode.commands.executeCommand(Commands.proposeChanges, scope),
      },
      at,
    );
    browsers.set(key, b);
    b.onDidDispose(() => browsers.delete(key));
    markStepDone('openedTable');
    return b;
  };
  const deps: TableCommandDeps = { ui: host.ui, openBrowser, execute: (c, ...a) => vscode.commands.executeCommand(c, ...a) };
  const handlers: CommandHandler[] = [
    [Commands.openTable, (node) => openTable(deps, node)],
    [Commands.openTableAt, (at) => openTableAt(deps, at)],
    [Commands.newSqlNotebookForTable, (node) => newSqlNotebookForTable(deps, node)],
    [Commands.copyTableName, (node) => copyTableName(deps, node)],
    [Commands.copyTableSelect, (node) => copyTableSelect(deps, node)],
  ];
  return [
    ...registerGuarded(handlers, host.ui),
    // Editing a table (issue #23): Show Unsent Changes…, Discard Changes…, Propose Changes….
    ...(host.changeSets ? registerChangeSetCommands(host, host.changeSets) : []),
    { dispose: () => [...browsers.values()].forEach((b) => b.dispose()) },
  ];
}
