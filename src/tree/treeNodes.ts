// The tree's node shapes: plain data, no vscode. The model creates them; the provider renders them.
import type { Branch, Database, DatabaseRef, Operation, PullSummary, Release, Tag } from '../shared/wire';
import type { Commit } from '../core/review/commitLog';

export const CATEGORIES = ['branches', 'tags', 'releases', 'pulls', 'forks', 'operations'] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  branches: 'Branches',
  tags: 'Tags',
  releases: 'Releases',
  pulls: 'Pull Requests',
  forks: 'Forks',
  operations: 'Operations',
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
export type TreeNode = HostNode | DatabaseNode | CategoryNode | ItemNode | CommitsNode | CommitNode | LoadMoreNode | ErrorNode | MessageNode;

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
