import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { Disposable } from '../platform/disposable';
import { ContextKeys, Commands, Views } from '../shared/ids';
import type { AccountServices } from '../auth/accountServices';
import { LOCAL_HUB_HOST_ID } from '../auth/accountClientSource';
import { DatabaseListStore } from './databaseListStore';
import { DatabaseTreeDataProvider } from './databaseTreeDataProvider';
import { DatabaseTreeModel } from './databaseTreeModel';
import type { TreeNode } from './treeNodes';
import { TableCatalogCache } from '../core/sql/tableCatalog';
import { ReviewMarkStore } from '../platform/reviewMarks';

/**
 * The Databases view: list store, model, provider and TreeView, plus the context keys the welcome
 * views and menus read. Features that change server state call `model.refreshDatabase(...)`.
 */
export class DatabaseTree extends Disposable {
  readonly databases: DatabaseListStore;
  readonly model: DatabaseTreeModel;
  /** Tables and columns by commit: the Tables nodes and the table browser share it. */
  readonly catalog: TableCatalogCache;
  readonly view: vscode.TreeView<TreeNode>;
  /** Renders nodes as tree items (exposed for integration tests of labels, menus and icons). */
  readonly provider: DatabaseTreeDataProvider;
  /** The head each account last reviewed per pull (issue #25): the pull view writes, the pull items read. */
  readonly reviewMarks: ReviewMarkStore;

  constructor(context: vscode.ExtensionContext, services: AccountServices, log: Logger) {
    super();
    this.databases = new DatabaseListStore(context.globalState);
    const clients = services.clients;
    this.catalog = new TableCatalogCache(services.sql);
    const marks = (this.reviewMarks = this._register(
      new ReviewMarkStore(context.workspaceState, (hostId) => services.accounts.activeAccount(hostId)?.username),
    ));
    this.model = new DatabaseTreeModel({
      backend: {
        availableHostIds: () => clients.hosts().map((h) => h.id),
        isSignedIn: (hostId) => services.isSignedIn(hostId),
        databases: (hostId) => this.databases.list(hostId),
        hostIdsWithDatabases: () => this.databases.hostIds(),
        client: (hostId) => clients.clientFor(hostId),
        review: (hostId, db) => services.sql.review(hostId, db),
      },
      log,
      commands: { startLocalHub: Commands.startLocalHub, addDatabase: Commands.addDatabase, signIn: Commands.signIn },
      localHubHostId: LOCAL_HUB_HOST_ID,
      catalog: this.catalog,
      reviews: {
        reviewed: (t) => marks.reviewed(t),
        onDidChange: (listener) => marks.onDidChange(listener),
        getPull: (hostId, db, n) => clients.clientFor(hostId).getPull(db, n),
      },
    });
    this._register({ dispose: () => this.model.dispose() });
    const provider = (this.provider = this._register(
      new DatabaseTreeDataProvider(this.model, {
        labelOf: (hostId) => clients.labelOf(hostId),
        accountLabel: (hostId) => services.accounts.activeAccount(hostId)?.username,
        siteUrl: (hostId) => clients.host(hostId)?.siteUrl,
      }),
    ));
    this.view = this._register(vscode.window.createTreeView(Views.databases, { treeDataProvider: provider, showCollapseAll: true }));
    const update = (): void => {
      void vscode.commands.executeCommand('setContext', ContextKeys.signedIn, services.isSignedIn());
      void vscode.commands.executeCommand('setContext', ContextKeys.hasDatabases, !this.databases.isEmpty());
      void vscode.commands.executeCommand('setContext', ContextKeys.localHubRunning, services.localHub.isRunning());
    };
    update();
    this._register(this.databases.onDidChange(() => (update(), this.model.structureChanged())));
    this._register(clients.onDidChange(() => (update(), this.model.refresh())));
  }
}
