import { dataTestItem } from './dataTestItems';
import * as vscode from 'vscode';
import { Commands, ContextValues } from '../shared/ids';
import {
  describeBranch,
  describeCommit,
  describeColumn,
  describeDatabase,
  describeFork,
  describeOperation,
  describePull,
  describeRelease,
  describeTable,
  describeTables,
  describeTag,
  type NodeText,
  type Tooltip,
} from '../core/nodeDescriptions';
import { describeError } from '../core/errorMessages';

import { Disposable } from '../platform/disposable';
import type { DatabaseTreeModel } from './databaseTreeModel';
import { LOCAL_HUB_HOST_ID } from '../auth/localHubIds';
import { CATEGORY_LABELS, type Category, type TreeNode } from './treeNodes';
import * as l10n from '../shared/l10n';

/** How the tree names hosts and whether an account is signed in there (for labels and menus). */
export interface HostPresentation {
  labelOf(hostId: string): string;
  accountLabel(hostId: string): string | undefined;
  siteUrl(hostId: string): string | undefined;
}

const CATEGORY_CONTEXT_VALUES: Record<Category, string> = {
  branches: ContextValues.branches,
  tags: ContextValues.tags,
  releases: ContextValues.releases,
  pulls: ContextValues.pulls,
  forks: ContextValues.forks,
  operations: ContextValues.operations,
};

// A state or status the API adds later gets the .other value (no menu entry) until it is listed here.
const PULL_CONTEXT_VALUES = new Map<string, string>([
  ['open', ContextValues.pullOpen],
  ['closed', ContextValues.pullClosed],
  ['merged', ContextValues.pullMerged],
]);
const OPERATION_CONTEXT_VALUES = new Map<string, string>([
  ['queued', ContextValues.operationQueued],
  ['running', ContextValues.operationRunning],
  ['succeeded', ContextValues.operationSucceeded],
  ['failed', ContextValues.operationFailed],
]);

const CATEGORY_ICONS: Record<Category, string> = {
  branches: 'git-branch',
  tags: 'tag',
  releases: 'package',
  pulls: 'git-pull-request',
  forks: 'repo-forked',
  operations: 'pulse',
};

/** Renders DatabaseTreeModel nodes as VS Code tree items: labels, descriptions, icons, menus. */
export class DatabaseTreeDataProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly model: DatabaseTreeModel,
    private readonly hosts: HostPresentation,
  ) {
    super();
    this._register(model.onDidChange((node) => this.changed.fire(node)));
  }

  getChildren(element?: TreeNode): Promise<TreeNode[]> {
    return this.model.children(element);
  }

  getParent(element: TreeNode): TreeNode | undefined {
    switch (element.kind) {
      case 'host':
        return undefined;
      case 'database':
        return this.model.hostNode(element.hostId);
      case 'category':
        return this.model.databaseNode(element.hostId, element.db);
      default:
        return element.parent;
    }
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const now = Date.now();
    switch (node.kind) {
      case 'host':
      case 'database':
      case 'category':
        return this.containerItem(node, now);
      case 'branch':
      case 'tag':
      case 'release':
      case 'pull':
      case 'fork':
      case 'operation':
        return this.listedItem(node, now);
      case 'commits':
      case 'commit':
      case 'tables':
      case 'table':
      case 'column':
        return this.catalogItem(node, now);
      case 'tests':
      case 'testGroup':
      case 'test':
        return dataTestItem(node, this.model);
      case 'loadMore':
      case 'error':
      case 'message':
        return this.statusItem(node);
    }
  }

  /** A host, a database, or one of its categories. */
  private containerItem(node: Extract<TreeNode, { kind: 'host' | 'database' | 'category' }>, now: number): vscode.TreeItem {
    const Collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    switch (node.kind) {
      case 'host': {
        const account = this.hosts.accountLabel(node.hostId);
        const item = new vscode.TreeItem(this.hosts.labelOf(node.hostId), vscode.TreeItemCollapsibleState.Expanded);
        item.id = `host:${node.hostId}`;
        item.description = account ? account : l10n.t('not signed in');
        item.tooltip = render({
          title: this.hosts.labelOf(node.hostId),
          fields: [
            ['Site', this.hosts.siteUrl(node.hostId) ?? 'not running'],
            ['Account', account ?? 'none (public databases only)'],
          ],
        });
        item.iconPath = new vscode.ThemeIcon(node.hostId === LOCAL_HUB_HOST_ID ? 'server-environment' : 'globe');
        item.contextValue = account ? ContextValues.hostSignedIn : ContextValues.hostSignedOut;
        return item;
      }
      case 'database': {
        const text = describeDatabase(node.db, this.model.databaseInfo(node.hostId, node.db), now);
        const item = this.fromText(text, Collapsed);
        item.id = `db:${node.hostId}:${node.db.owner}/${node.db.name}`;
        const info = this.model.databaseInfo(node.hostId, node.db);
        item.iconPath = new vscode.ThemeIcon(info?.visibility === 'private' ? 'lock' : 'database');
        item.contextValue = ContextValues.database;
        return item;
      }
      case 'category': {
        const item = new vscode.TreeItem(CATEGORY_LABELS[node.category], Collapsed);
        item.id = `cat:${node.hostId}:${node.db.owner}/${node.db.name}:${node.category}`;
        item.iconPath = new vscode.ThemeIcon(CATEGORY_ICONS[node.category]);
        item.contextValue = CATEGORY_CONTEXT_VALUES[node.category];
        if (node.category === 'pulls') {
          const states = this.model.pullStateFilter(node.hostId, node.db);
          item.description = states.length === 0 ? l10n.t('all') : states.join(', ');
        }
        return item;
      }
    }
  }

  /** What a category lists: branches, tags, releases, pulls, forks, operations. */
  private listedItem(
    node: Extract<TreeNode, { kind: 'branch' | 'tag' | 'release' | 'pull' | 'fork' | 'operation' }>,
    now: number,
  ): vscode.TreeItem {
    const Collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    const None = vscode.TreeItemCollapsibleState.None;
    switch (node.kind) {
      case 'branch': {
        // Collapsed: a branch holds its Commits (issue #15) and, with a catalog, its Tables.
        const item = this.fromText(describeBranch(node.branch, now), Collapsed);
        item.iconPath = new vscode.ThemeIcon('git-branch');
        item.contextValue = ContextValues.branch;
        return item;
      }
      case 'tag': {
        const item = this.fromText(describeTag(node.tag, now), Collapsed);
        item.iconPath = new vscode.ThemeIcon('tag');
        item.contextValue = ContextValues.tag;
        return item;
      }
      case 'release': {
        const item = this.fromText(describeRelease(node.release, now), this.model.refHasChildren() ? Collapsed : None);
        item.iconPath = new vscode.ThemeIcon('package');
        item.contextValue = ContextValues.release;
        return item;
      }
      case 'pull': {
        const since = this.model.pullReview(node);
        const item = this.fromText(describePull(node.pull, now, since), None);
        const state = node.pull.state;
        // New commits since the account's review show in the icon too: a long title hides the description.
        item.iconPath = since && since.kind !== 'current' ? pullIconNewChanges() : pullIcon(state);
        // Pull commands attach to pull.open / pull.closed / pull.merged (pull.other when unknown).
        item.contextValue = PULL_CONTEXT_VALUES.get(state) ?? ContextValues.pullOther;
        item.command = { command: Commands.showPullRequest, title: l10n.t('Show Pull Request'), arguments: [node] };
        return item;
      }
      case 'fork': {
        const item = this.fromText(describeFork(node.fork), None);
        item.iconPath = new vscode.ThemeIcon('repo-forked');
        item.contextValue = ContextValues.fork;
        return item;
      }
      case 'operation': {
        const item = this.fromText(describeOperation(node.operation, now), None);
        item.iconPath = operationIcon(node.operation.status);
        const s = node.operation.status;
        item.contextValue = OPERATION_CONTEXT_VALUES.get(s) ?? ContextValues.operationOther;
        return item;
      }
    }
  }

  /** What a ref holds: its commits, its tables, a table's columns. */
  private catalogItem(
    node: Extract<TreeNode, { kind: 'commits' | 'commit' | 'tables' | 'table' | 'column' }>,
    now: number,
  ): vscode.TreeItem {
    const Collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    const None = vscode.TreeItemCollapsibleState.None;
    switch (node.kind) {
      case 'commits': {
        const item = new vscode.TreeItem(l10n.t('Commits'), Collapsed);
        item.iconPath = new vscode.ThemeIcon('history');
        item.contextValue = ContextValues.commits;
        item.tooltip = l10n.t('The commits of {0}, newest first', node.ref);
        return item;
      }
      case 'commit': {
        const item = this.fromText(describeCommit(node.commit, now), None);
        item.iconPath = new vscode.ThemeIcon(node.commit.isMerge ? 'git-merge' : 'git-commit');
        item.contextValue = ContextValues.commit;
        // A click shows what the commit changed (the Changes view), as a commit in a log does elsewhere.
        item.command = { command: Commands.showCommitChanges, title: l10n.t('Show Changes'), arguments: [node] };
        return item;
      }
      case 'tables': {
        const item = this.fromText(describeTables(node.db, node.ref, node.commit), Collapsed);
        item.iconPath = new vscode.ThemeIcon('list-tree');
        item.contextValue = ContextValues.tablesAtRef;
        return item;
      }
      case 'table': {
        const view = node.table.kind === 'view';
        const item = this.fromText(describeTable(node.table, node.parent.ref, node.parent.commit), Collapsed);
        item.iconPath = new vscode.ThemeIcon(view ? 'eye' : 'table');
        item.contextValue = view ? ContextValues.view : ContextValues.table;
        return item;
      }
      case 'column': {
        const item = this.fromText(describeColumn(node.column), None);
        item.iconPath = new vscode.ThemeIcon(node.column.primaryKey ? 'key' : 'symbol-field');
        item.contextValue = ContextValues.column;
        return item;
      }
    }
  }

  /** The rows that are not data: load more, an error (retry or sign in), a message. */
  private statusItem(node: Extract<TreeNode, { kind: 'loadMore' | 'error' | 'message' }>): vscode.TreeItem {
    const None = vscode.TreeItemCollapsibleState.None;
    switch (node.kind) {
      case 'loadMore': {
        const item = new vscode.TreeItem(l10n.t('Load more…'), None);
        item.iconPath = new vscode.ThemeIcon('more');
        item.contextValue = ContextValues.loadMore;
        item.command = { command: Commands.loadMore, title: l10n.t('Load More'), arguments: [node] };
        return item;
      }
      case 'error': {
        const presentation = describeError(node.error, { action: l10n.t('load this') });
        const item = new vscode.TreeItem(presentation?.message ?? l10n.t('Loading was cancelled'), None);
        item.description = l10n.t('click to retry');
        item.tooltip = l10n.t('{0}\n\nClick to retry.', presentation?.message ?? '');
        item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
        item.contextValue = ContextValues.error;
        const signIn = presentation?.actions.find((a) => a.kind === 'signIn');
        if (signIn) {
          // A 401 is fixed by signing in, not by retrying; the tree reloads once the account changes.
          const hostId = 'hostId' in node.parent ? (node.parent as { hostId: string }).hostId : undefined;
          item.description = l10n.t('click to sign in');
          item.command = { command: Commands.signIn, title: l10n.t('Sign In'), arguments: [hostId] };
        } else {
          item.command = { command: Commands.refreshNode, title: l10n.t('Retry'), arguments: [node] };
        }
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text, None);
        item.iconPath = new vscode.ThemeIcon('info');
        item.contextValue = ContextValues.message;
        if (node.action) {
          item.description = node.action.title;
          item.command = { command: node.action.command, title: node.action.title, arguments: [...(node.action.args ?? [])] };
        }
        return item;
      }
    }
  }

  private fromText(text: NodeText, state: vscode.TreeItemCollapsibleState): vscode.TreeItem {
    const item = new vscode.TreeItem(text.label, state);
    if (text.description) item.description = text.description;
    item.tooltip = render(text.tooltip);
    if (text.accessibilityLabel) item.accessibilityInformation = { label: text.accessibilityLabel };
    return item;
  }
}

/** Server text goes through appendText so markdown and links in it are shown, never interpreted. */
function render(t: Tooltip): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown('**');
  md.appendText(t.title);
  md.appendMarkdown('**\n\n');
  for (const [k, v] of t.fields) {
    md.appendText(`${k}: ${v}`);
    md.appendMarkdown('  \n');
  }
  if (t.body) {
    md.appendMarkdown('\n---\n\n');
    md.appendText(t.body);
  }
  return md;
}

function pullIconNewChanges(): vscode.ThemeIcon {
  return new vscode.ThemeIcon('git-pull-request-new-changes', new vscode.ThemeColor('charts.green'));
}

function pullIcon(state: string): vscode.ThemeIcon {
  switch (state) {
    case 'open':
      return new vscode.ThemeIcon('git-pull-request', new vscode.ThemeColor('charts.green'));
    case 'merged':
      return new vscode.ThemeIcon('git-merge', new vscode.ThemeColor('charts.purple'));
    case 'closed':
      return new vscode.ThemeIcon('git-pull-request-closed', new vscode.ThemeColor('charts.red'));
    default:
      return new vscode.ThemeIcon('git-pull-request');
  }
}

function operationIcon(status: string): vscode.ThemeIcon {
  switch (status) {
    case 'queued':
      return new vscode.ThemeIcon('clock');
    case 'running':
      return new vscode.ThemeIcon('sync~spin');
    case 'succeeded':
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    case 'failed':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    default:
      return new vscode.ThemeIcon('question');
  }
}
