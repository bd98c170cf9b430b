// What a branch, tag or release holds in the Databases tree (issue #14): its Tables node, the
// tables at the ref's commit and each table's columns, read through the table catalog cache. No
// vscode: the tree model delegates here (databaseTreeModel.ts); its unit tests drive it.
import type { Logger } from '../core/logger';
import type { TableCatalogCache } from '../core/sql/tableCatalog';
import { refOf } from './treeNodes';
import type { ErrorNode, MessageNode, RefNode, TableNode, TablesNode, TreeNode } from './treeNodes';

export interface TableCatalogOptions {
  /** None: the tree shows no Tables node, so nothing here is asked for. */
  catalog: Pick<TableCatalogCache, 'tables' | 'columns'> | undefined;
  log: Logger;
  /** What a failed read shows (an error node, or "may be private: sign in"). */
  failure(parent: TablesNode | TableNode, error: unknown): ErrorNode | MessageNode;
}

export class TableCatalogModel {
  private readonly tablesNodes = new WeakMap<RefNode, TablesNode>();

  constructor(private readonly o: TableCatalogOptions) {}

  /** The one "Tables" node of a ref (the same object every time, as VS Code expects). */
  tablesNode(node: RefNode): TablesNode {
    let n = this.tablesNodes.get(node);
    if (!n) this.tablesNodes.set(node, (n = { kind: 'tables', hostId: node.hostId, db: node.db, parent: node, ...refOf(node) }));
    return n;
  }

  async tableChildren(node: TablesNode): Promise<TreeNode[]> {
    try {
      const tables = await (this.o.catalog as Pick<TableCatalogCache, 'tables'>).tables(node.hostId, node.db, node.commit);
      if (tables.length === 0) return [message(node, `No tables at ${node.ref}`)];
      return tables.map((table) => ({ kind: 'table', hostId: node.hostId, db: node.db, parent: node, table }) satisfies TableNode);
    } catch (e) {
      this.o.log.warn(`could not list the tables of ${node.db.owner}/${node.db.name} at ${node.ref}: ${String(e)}`);
      return [this.o.failure(node, e)];
    }
  }

  async columnChildren(node: TableNode): Promise<TreeNode[]> {
    try {
      const p = node.parent;
      const columns = await (this.o.catalog as Pick<TableCatalogCache, 'columns'>).columns(node.hostId, node.db, p.commit, node.table.name);
      if (columns.length === 0) return [message(node, 'No columns')];
      return columns.map((column) => ({ kind: 'column', hostId: node.hostId, db: node.db, parent: node, column }));
    } catch (e) {
      this.o.log.warn(`could not read the columns of ${node.table.name} at ${node.parent.ref}: ${String(e)}`);
      return [this.o.failure(node, e)];
    }
  }
}

function message(parent: TreeNode, text: string): MessageNode {
  return { kind: 'message', parent, text };
}
