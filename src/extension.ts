import * as vscode from 'vscode';
import { installHostL10n } from './platform/l10n';
import { Commands } from './shared/ids';
import { taggedLogger } from './platform/logger';
import { AccountServices } from './auth/accountServices';
import { DatabaseTree } from './tree/databaseTree';
import { VscodeUi } from './commands/vscodeUi';
import { registerCommands } from './commands/registerCommands';
import { TextEditPrompt } from './commands/textEditPrompt';
import type { AccountCommandDeps } from './commands/accountCommands';
import { showOperationFailure, withOperationProgress } from './commands/operations';
import { registerImportCommands } from './commands/importCommands';
import { registerPullCommands } from './commands/pullCommands';
import { registerSqlNotebooks, type SqlNotebookApi } from './notebook/sqlNotebooks';
import { registerHistoryCommands } from './commands/historyRegistration';
import { registerDataTestCommands } from './commands/dataTestCommands';
import { registerTableCommands } from './commands/tableCommands';
import { registerChangesCommands } from './commands/changesCommands';
import { ChangeSetStore } from './views/changeSetStore';
import type { PullTarget } from './core/targets';

/** What activate returns: the live objects, for integration tests and sibling features. */
export interface VersionedDbApi {
  readonly services: AccountServices;
  readonly tree: DatabaseTree;
  /** Everything F1's command logic runs with; tests swap `ui` for a scripted one. */
  readonly commandDeps: AccountCommandDeps;
  /** SQL notebooks' live parts (query history, the result panel, Load All Rows sessions). */
  readonly notebooks: SqlNotebookApi;
  /** The change sets of edited tables (issue #23), kept in the workspace's storage. */
  readonly changeSets: ChangeSetStore;
}

// Composition root only: construct, register, push to context.subscriptions.
export function activate(context: vscode.ExtensionContext): VersionedDbApi {
  const started = performance.now();
  installHostL10n();
  const log = vscode.window.createOutputChannel('Versioned DB', { log: true });
  const texts = new TextEditPrompt();
  const ui = new VscodeUi(taggedLogger(log, 'ui'), texts);
  const services = new AccountServices(context, ui, taggedLogger(log, 'auth'));
  const tree = new DatabaseTree(context, services, taggedLogger(log, 'tree'));
  const commandDeps: AccountCommandDeps = {
    ui,
    clients: services.clients,
    sql: services.sql,
    accounts: services.accounts,
    accountStore: services.accounts,
    databases: tree.databases,
    tree: tree.model,
    operations: { run: withOperationProgress, showFailure: showOperationFailure },
    signIn: (hostId?: string) => services.signIn(hostId),
    localHub: services.localHub,
    validate: (site: string, token: string, signal: AbortSignal) => services.validate(site, token, signal),
    log: taggedLogger(log, 'commands'),
    extensionUri: context.extensionUri,
    workspaceState: context.workspaceState,
  };
  const notebooks = registerSqlNotebooks(context, {
    ui,
    clients: services.clients,
    sql: services.sql,
    databases: tree.databases,
    settings: () => services.currentSettings.sql,
    log: taggedLogger(log, 'sql'),
  });
  const changeSets = new ChangeSetStore(context.workspaceState, taggedLogger(log, 'edits'));
  context.subscriptions.push(
    log,
    texts,
    services,
    tree,
    vscode.commands.registerCommand(Commands.showLog, () => log.show()),
    ...registerCommands(commandDeps),
    registerImportCommands(commandDeps),
    ...registerReview(commandDeps, log, tree, changeSets),
    ...notebooks.disposables,
    // History (issue #15): Show History of a table, Show Row History.
    ...registerHistoryCommands({ ...commandDeps, log: taggedLogger(log, 'history') }),
    // Tables at a ref and the table browser (issue #14)
    ...registerTableCommands({ ...commandDeps, catalog: tree.catalog, log: taggedLogger(log, 'tables'), changeSets }),
    changeSets,
    // The database's tests at a ref (issue #24)
    ...registerDataTestCommands({ ...commandDeps, tests: tree.model, log: taggedLogger(log, 'tests') }),
  );
  // The demo's folder setting: start after activation returns, so activation itself stays fast.
  if (services.currentSettings.localHub.startOnActivation) {
    setTimeout(() => void vscode.commands.executeCommand(Commands.startLocalHub), 0);
  }
  log.info(`Versioned DB activated in ${Math.round(performance.now() - started)} ms${moduleEvaluation()}`);
  return { services, tree, commandDeps, notebooks: notebooks.api, changeSets };
}

/**
 * Pull requests and the Changes view (issue #15), unsent change sets included (issue #23). A pull
 * that changed (a comment, an edit, a merge) is told to its open Changes view.
 */
function registerReview(
  commandDeps: AccountCommandDeps,
  log: vscode.LogOutputChannel,
  tree: DatabaseTree,
  changeSets: ChangeSetStore,
): vscode.Disposable[] {
  const pullChanges = new vscode.EventEmitter<PullTarget>();
  const pulls = registerPullCommands({
    ...commandDeps,
    log: taggedLogger(log, 'pulls'),
    reviewMarks: tree.reviewMarks,
    announcePullChange: (t) => pullChanges.fire(t),
  });
  const changes = registerChangesCommands({
    ...commandDeps,
    changesLog: taggedLogger(log, 'changes'),
    changeSets,
    onPullChanged: pullChanges.event,
  });
  return [pullChanges, pulls, changes.disposable];
}

// Set by esbuild.mjs's banner and footer around the bundle; absent when run unbundled.
declare const __versionedDbModuleStart: number | undefined;
declare const __versionedDbModuleEnd: number | undefined;

/** ", module evaluated in N ms" when bundled: the part of VS Code's "Load Code" that is ours. */
function moduleEvaluation(): string {
  if (typeof __versionedDbModuleStart !== 'number' || typeof __versionedDbModuleEnd !== 'number') return '';
  return `, module evaluated in ${Math.round(__versionedDbModuleEnd - __versionedDbModuleStart)} ms`;
}

export function deactivate(): void {
  // Disposables registered on the context are released by VS Code (the local hub process too).
}
