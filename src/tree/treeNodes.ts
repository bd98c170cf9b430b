// The tree's node shapes: plain data, no vscode. The model creates them; the provider renders them.
import type { Branch, Database, DatabaseRef, Operation, PullSummary, Release, Tag } from '../shared/wire';
import type { Commit } from '../core/review/commitLog';
import type { TableEntry } from '../core/sql/tableCatalog';
import type { TableColumnInfo } from '../core/sql/tableQuery';
import type { DataTest } from '../core/dataTests/dataTests';
import * as l10n from '../shared/l10n';

export const CATEGORIES = ['branches', 'tags', 'releases', 'pulls', 'forks', 'operations'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Getters: each text is translated when read, not when this module loads. */
export const CATEGORY_LABELS: Record<Category, string> = {
  get branches() {
    return l10n.t('Branches');
  },
  get tags() {
    return l10n.t('Tags');
  },
  get releases() {
    return l10n.t('Releases');
  },
  get pulls() {
    return l10n.t('Pull Requests');
  },
  get forks() {
    return l10n.t('Forks');
  },
  get operations() {
    return l10n.t('Operations');
  },
};

export interface HostNode {
  readonly kind: 'host';
  readonly hostId: string;
}

export interface DatabaseNode {
  readonly kind: 'database';
  readonly hostId: string;
  readonly db: DatabaseRef;
}

export interface CategoryNode {
  readonly kind: 'category';
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly category: Category;
}

interface ItemBase {
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly parent: CategoryNode;
}

export interface BranchNode extends ItemBase {
  readonly kind: 'branch';
  readonly branch: Branch;
}
export interface TagNode extends ItemBase {
  readonly kind: 'tag';
  readonly tag: Tag;
}
export interface ReleaseNode extends ItemBase {
  readonly kind: 'release';
  readonly release: Release;
}
export interface PullNode extends ItemBase {
  readonly kind: 'pull';
  readonly pull: PullSummary;
}
export interface ForkNode extends ItemBase {
  readonly kind: 'fork';
  readonly fork: DatabaseRef;
}
export interface OperationNode extends ItemBase {
  readonly kind: 'operation';
  readonly operation: Operation;
}

// ---- history (issue #15): a branch's or tag's commits

/** "Commits" under a branch or tag: its log, paged, pinned to the head when the list loaded. */
export interface CommitsNode {
  readonly kind: 'commits';
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly parent: BranchNode | TagNode;
  /** The branch or tag name the log is read from. */
  readonly ref: string;
}

/** One commit of a Commits list. */
export interface CommitNode {
  readonly kind: 'commit';
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly parent: CommitsNode;
  readonly commit: Commit;
}

export interface LoadMoreNode {
  readonly kind: 'loadMore';
  readonly parent: CategoryNode | CommitsNode;
}

/** A failed load, shown in place of the children it could not load; retry refreshes `parent`. */
export interface ErrorNode {
  readonly kind: 'error';
  readonly parent: TreeNode;
  readonly error: unknown;
}

/** A short note such as "No branches" or "Local hub is stopped", optionally with a command. */
export interface MessageNode {
  readonly kind: 'message';
  readonly parent: TreeNode;
  readonly text: string;
  readonly action?: { readonly command: string; readonly title: string; readonly args?: readonly unknown[] };
}

export type ItemNode = BranchNode | TagNode | ReleaseNode | PullNode | ForkNode | OperationNode;

// ---- Tables at a ref (issue #14) ------------------------------------------------------------

/** A node that names a ref and the commit it pointed at when listed: what Tables hangs under. */
export type RefNode = BranchNode | TagNode | ReleaseNode;

/** "Tables" under a ref: the tables and views at `commit`. */
export interface TablesNode {
  readonly kind: 'tables';
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly parent: RefNode;
  /** The ref's name as the user knows it (branch, tag, release's tag). */
  readonly ref: string;
  /** The commit the ref pointed at when the tree listed it: every read under it is at this commit. */
  readonly commit: string;
}

/** One table or view at the commit of its Tables node. */
export interface TableNode {
  readonly kind: 'table';
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly parent: TablesNode;
  readonly table: TableEntry;
}

/** One column of a table. */
export interface ColumnNode {
  readonly kind: 'column';
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly parent: TableNode;
  readonly column: TableColumnInfo;
}

/** The ref name and commit a branch, tag or release node names. */
export function refOf(node: RefNode): { ref: string; commit: string } {
  switch (node.kind) {
    case 'branch':
      return { ref: node.branch.name, commit: node.branch.head_commit_sha };
    case 'tag':
      return { ref: node.tag.name, commit: node.tag.commit_sha };
    case 'release':
      return { ref: node.release.tag, commit: node.release.commit_sha };
  }
}

export type SchemaNode = TablesNode | TableNode | ColumnNode;

// ---- the database's tests at a ref (issue #24) -------------------------------------------------

/** "Tests" under a branch or tag: the dolt_tests rows at the commit the ref named when listed. */
export interface TestsNode {
  readonly kind: 'tests';
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly parent: BranchNode | TagNode;
  readonly ref: string;
  readonly commit: string;
}

/** One group of tests (tests without a group sit directly under Tests). */
export interface TestGroupNode {
  readonly kind: 'testGroup';
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly parent: TestsNode;
  readonly group: string;
}

/** One test; `tests` is the Tests node it belongs to (its ref and commit). */
export interface TestNode {
  readonly kind: 'test';
  readonly hostId: string;
  readonly db: DatabaseRef;
  readonly parent: TestsNode | TestGroupNode;
  readonly tests: TestsNode;
  readonly test: DataTest;
}

export type DataTestNode = TestsNode | TestGroupNode | TestNode;

export type TreeNode =
  | HostNode
  | DatabaseNode
  | CategoryNode
  | ItemNode
  | SchemaNode
  | DataTestNode
  | CommitsNode
  | CommitNode
  | LoadMoreNode
  | ErrorNode
  | MessageNode;

/** Everything a command invoked on a node needs to know about the database it belongs to. */
export function databaseOf(node: TreeNode): { hostId: string; db: DatabaseRef } | undefined {
  switch (node.kind) {
    case 'database':
    case 'category':
    case 'branch':
    case 'tag':
    case 'release':
    case 'pull':
    case 'fork':
    case 'operation':
    case 'commits':
    case 'commit':
    case 'tables':
    case 'table':
    case 'column':
    case 'tests':
    case 'testGroup':
    case 'test':
      return { hostId: node.hostId, db: node.db };
    case 'loadMore':
      return { hostId: node.parent.hostId, db: node.parent.db };
    default:
      return undefined;
  }
}

export type DatabaseInfo = Database;

/** A command argument that is one of the tree's nodes (VS Code passes the node a menu ran on). */
export function isTreeNode(value: unknown): value is TreeNode {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}
