// What the command logic depends on, as narrow interfaces: the real objects in the extension,
// scripted fakes in unit tests (test/unit/commands).
import type * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { SqlPort } from '../core/sql/sqlPort';
import type { Account } from '../auth/accountStore';
import type { HostClients } from '../auth/clientSource';
import type { Ui } from '../platform/ui';
import type { DatabaseListStore } from '../tree/databaseListStore';
import type { DatabaseTreeModel } from '../tree/databaseTreeModel';
import type { OperationError } from '../shared/wire';
import type { OperationOutcome, OperationStart, OperationWaiter } from './operationsRunner';

export interface CommandAccounts {
  activeAccount(hostId: string): Account | undefined;
}

/** F2's operations watcher (src/commands/operations.ts), injectable so tests need no notification. */
export interface OperationsUi {
  run(opts: { title: string; what: string; start: OperationStart; client: OperationWaiter; log?: Logger }): Promise<OperationOutcome>;
  showFailure(what: string, error: OperationError, ids: { operationId: string; requestId?: string }): Promise<void>;
}

export type TreeActions = Pick<
  DatabaseTreeModel,
  'refresh' | 'refreshDatabase' | 'setDatabaseInfo' | 'loadMore' | 'pullStateFilter' | 'setPullStateFilter'
>;

export interface CommandDeps {
  readonly ui: Ui;
  readonly clients: HostClients;
  /** The one way to run SQL at a target (src/core/sql/sqlPort.ts): settings, cancel, retries applied once. */
  readonly sql: SqlPort;
  readonly accounts: CommandAccounts;
  readonly databases: Pick<DatabaseListStore, 'add' | 'remove' | 'list' | 'has' | 'hostIds'>;
  readonly tree: TreeActions;
  readonly operations: OperationsUi;
  /** Runs the sign-in flow for a host; resolves the account, or undefined when cancelled. */
  readonly signIn: (hostId?: string) => Promise<Account | undefined>;
  readonly log: Logger;
  /** The extension's folder: the webviews' scripts and styles. */
  readonly extensionUri: vscode.Uri;
  /** Per-workspace state: Viewed marks of pull reviews. */
  readonly workspaceState: vscode.Memento;
}
