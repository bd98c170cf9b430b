// Commands on a table (or view) of the tree's Tables node: Open Table (the table browser, at the
// commit the tree listed for the ref), New SQL Notebook with a SELECT, Copy Name, Copy SELECT.
import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { Ui } from '../platform/ui';
import type { HostClients } from '../auth/clientSource';
import { Commands } from '../shared/ids';
import { buildSelectAll } from '../core/sql/tableQuery';
import type { TableCatalogCache } from '../core/sql/tableCatalog';
import type { TableAt } from '../core/paging/tableOpening';
import { isTreeNode, type TableNode } from '../tree/treeNodes';
import { registerGuarded, type CommandHandler } from '../platform/commandRegistration';
import { exportStreamed } from '../platform/streamedExport';
import { TableBrowser } from '../views/tableBrowser';
import { RefResolver } from '../notebook/queryRunner';

export interface TableCommandDeps {
  readonly ui: Pick<Ui, 'copy' | 'info' | 'error'>;
  /** Opens (or reveals) the browser of a table at a commit. */
  readonly openBrowser: (at: TableAt) => Promise<unknown>;
  /** Runs a command (the notebook's New SQL Notebook). */
  readonly execute: (command: string, ...args: unknown[]) => Thenable<unknown>;
}

function tableNodeOf(arg: unknown): TableNode | undefined {
  return isTreeNode(arg) && arg.kind === 'table' ? arg : undefined;
}

/** Where a table node's rows are: its database at the ref, read at the commit the tree listed. */
export function tableAtOf(node: TableNode): TableAt {
  const tables = node.parent;
  return {
    target: { hostId: node.hostId, owner: node.db.owner, name: node.db.name, ref: tables.ref },
    commit: tables.commit,
    table: node.table.name,
  };
}

async function requireTable(deps: TableCommandDeps, arg: unknown): Promise<TableNode | undefined> {
  const node = tableNodeOf(arg);
  if (!node) void deps.ui.info('Pick a table under a branch, tag or release: Tables → the table.');
  return node;
}

export async function openTable(deps: TableCommandDeps, arg: unknown): Promise<void> {
  const node = await requireTable(deps, arg);
  if (node) await deps.openBrowser(tableAtOf(node));
}

export async function newSqlNotebookForTable(deps: TableCommandDeps, arg: unknown): Promise<void> {
  const node = await requireTable(deps, arg);
  // The notebook runs at the ref (the branch, tag or release the table was listed under).
  if (node) await deps.execute(Commands.newSqlNotebook, node.parent.parent, `${buildSelectAll(node.table.name)};`);
}

export async function copyTableName(deps: TableCommandDeps, arg: unknown): Promise<void> {
  const node = await requireTable(deps, arg);
  if (node) await deps.ui.copy(node.table.name);
}

export async function copyTableSelect(deps: TableCommandDeps, arg: unknown): Promise<void> {
  const node = await requireTable(deps, arg);
  if (node) await deps.ui.copy(buildSelectAll(node.table.name));
}

export interface TableCommandHost {
  readonly ui: Ui;
  readonly clients: HostClients;
  readonly catalog: Pick<TableCatalogCache, 'tables' | 'columns'>;
  readonly extensionUri: vscode.Uri;
  readonly log: Logger;
}

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
        run: (where, q, limit, signal) =>
          host.clients.clientFor(where.target.hostId).runSql({ owner: where.target.owner, name: where.target.name }, { ref: where.commit, q, limit }, { signal }),
        headOf: async (where, signal) => {
          const r = await refs.resolve(where.target, { fresh: true, ...(signal ? { signal } : {}) });
          return r.kind === 'branch' || r.kind === 'tag' ? r.commit : undefined;
        },
        exportStreamed: (e) => exportStreamed(e, host.log),
      },
      at,
    );
    browsers.set(key, b);
    b.onDidDispose(() => browsers.delete(key));
    return b;
  };
  const deps: TableCommandDeps = { ui: host.ui, openBrowser, execute: (c, ...a) => vscode.commands.executeCommand(c, ...a) };
  const handlers: CommandHandler[] = [
    [Commands.openTable, (node) => openTable(deps, node)],
    [Commands.newSqlNotebookForTable, (node) => newSqlNotebookForTable(deps, node)],
    [Commands.copyTableName, (node) => copyTableName(deps, node)],
    [Commands.copyTableSelect, (node) => copyTableSelect(deps, node)],
  ];
  return [...registerGuarded(handlers, host.ui), { dispose: () => [...browsers.values()].forEach((b) => b.dispose()) }];
}
