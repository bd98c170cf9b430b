// What the commands on a table (or view) of the tree's Tables node do: Open Table (the table
// browser, at the commit the tree listed for the ref), New SQL Notebook with a SELECT, Copy Name,
// Copy SELECT. No vscode: the browser and the notebook command are injected (tableCommands.ts).
import type { Ui } from '../platform/ui';
import { Commands } from '../shared/ids';
import { buildSelectAll } from '../core/sql/tableQuery';
import type { TableAt } from '../core/paging/tableOpening';
import { isCommitHash } from '../core/commitHash';
import { isTreeNode, type TableNode } from '../tree/treeNodes';
import * as l10n from '../shared/l10n';

export interface TableCommandDeps {
  readonly ui: Pick<Ui, 'copy' | 'info' | 'error'>;
  /** Opens (or reveals) the browser of a table at a commit. */
  readonly openBrowser: (at: TableAt) => Promise<unknown>;
  /** Runs a command (the notebook's New SQL Notebook). */
  readonly execute: (command: string, ...args: unknown[]) => PromiseLike<unknown>;
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
  if (!node) void deps.ui.info(l10n.t('Pick a table under a branch, tag or release: Tables → the table.'));
  return node;
}

export async function openTable(deps: TableCommandDeps, arg: unknown): Promise<void> {
  const node = await requireTable(deps, arg);
  if (node) await deps.openBrowser(tableAtOf(node));
}

/** Opens the browser at a table a view names (the Changes view of a pull: its branch at the head shown). */
export async function openTableAt(deps: TableCommandDeps, arg: unknown): Promise<void> {
  const at = tableAtArg(arg);
  if (!at) {
    void deps.ui.info(l10n.t("Open a table from the tree (Tables → the table), or from a pull request's Changes view."));
    return;
  }
  await deps.openBrowser(at);
}

function tableAtArg(arg: unknown): TableAt | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const { target, commit, table } = arg as Partial<Record<keyof TableAt, unknown>>;
  const t = target as Partial<Record<string, unknown>> | undefined;
  const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 1024;
  if (!t || !text(t['hostId']) || !text(t['owner']) || !text(t['name']) || !text(t['ref'])) return undefined;
  if (!text(commit) || !isCommitHash(commit) || !text(table)) return undefined;
  return { target: { hostId: t['hostId'], owner: t['owner'], name: t['name'], ref: t['ref'] }, commit, table };
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
