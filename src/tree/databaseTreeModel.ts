// The tree MODEL: what the Databases view shows and how it loads, with no vscode import, so it is
// unit-tested with a fake backend. databaseTreeDataProvider.ts renders it for VS Code.
import type { ReviewRunner } from '../core/sql/sqlPort';
import type { Branch, Database, DatabaseRef, Operation, PullState, PullSummary, Release, Tag } from '../shared/wire';
import type { Logger } from '../core/logger';
import { CATEGORIES, CATEGORY_LABELS } from './treeNodes';
import type { TableCatalogCache } from '../core/sql/tableCatalog';
import { CommitListModel } from './commitListModel';
import { CategoryListModel, dbKey, type TreeClient } from './categoryListModel';
import { TableCatalogModel } from './tableCatalogModel';
import { DataTestsModel, type TestRunSummary } from './dataTestsModel';
import type { TestOutcome } from '../core/dataTests/dataTests';
import { PullReviewModel, type PullReviewSource } from './pullReviewModel';
import type { SinceReview } from '../core/review/sinceReview';
import type {
  Category,
  CategoryNode,
  CommitsNode,
  DatabaseNode,
  ErrorNode,
  HostNode,
  ItemNode,
  LoadMoreNode,
  MessageNode,
  PullNode,
  RefNode,
  TableNode,
  TablesNode,
  TestGroupNode,
  TestNode,
  TestsNode,
  TreeNode,
} from './treeNodes';
import * as l10n from '../shared/l10n';

export type { Page, TreeClient } from './categoryListModel';

/** Hosts, accounts and databases as the tree sees them. */
export interface TreeBackend {
  /** Hosts that can be reached now (configured hosts; the local hub while it runs). */
  availableHostIds(): readonly string[];
  isSignedIn(hostId: string): boolean;
  databases(hostId: string): readonly DatabaseRef[];
  /** Hosts that have databases in the list, reachable or not. */
  hostIdsWithDatabases(): readonly string[];
  client(hostId: string): TreeClient;
  /** Review queries on a database (the Commits lists), through the one SQL port. */
  review(hostId: string, db: DatabaseRef): ReviewRunner;
}

export interface TreeModelOptions {
  backend: TreeBackend;
  log: Logger;
  /** How often a list with running operations refreshes itself. */
  operationPollMs?: number;
  /** Injectable timer, so tests control time. */
  setTimer?: (fn: () => void, ms: number) => { dispose(): void };
  /** Command ids the model puts on message nodes (kept out of the model's logic). */
  commands: { startLocalHub: string; addDatabase: string; signIn: string };
  localHubHostId: string;
  /** Tables and columns at a commit (the Tables node under each ref); none: refs have no children. */
  catalog?: Pick<TableCatalogCache, 'tables' | 'columns'>;
  /** Review marks (issue #25): an open pull's item says when its branch has commits since. */
  reviews?: PullReviewSource;
}

export const DEFAULT_PULL_STATES: readonly PullState[] = ['open'];

export class DatabaseTreeModel {
  private readonly listeners = new Set<(node: TreeNode | undefined) => void>();
  private readonly hostNodes = new Map<string, HostNode>();
  private readonly dbNodes = new Map<string, DatabaseNode>();
  private readonly categoryNodes = new Map<string, CategoryNode>();
  private readonly infos = new Map<string, { info?: Database; error?: unknown; pending?: Promise<void> }>();
  private readonly pullStates = new Map<string, readonly PullState[]>();
  private disposed = false;
  /** The Commits lists under branches and tags (issue #15). */
  private readonly commitLists: CommitListModel;
  /** The lists under each category (branches, tags, releases, pulls, forks, operations). */
  private readonly lists: CategoryListModel;
  /** The Tables node under each ref and what it holds (issue #14). */
  private readonly tables: TableCatalogModel;
  /** The Tests node under each branch and tag, and the last outcomes (issue #24). */
  private readonly dataTests: DataTestsModel;
  /** Where each open pull stands since the current account's review (issue #25). */
  private readonly pullReviews: PullReviewModel | undefined;
  private readonly reviewMarksWatch: { dispose(): void } | undefined;

  constructor(private readonly o: TreeModelOptions) {
    this.commitLists = new CommitListModel({
      review: (hostId, db) => o.backend.review(hostId, db),
      fire: (node) => this.fire(node),
      log: o.log,
    });
    this.lists = new CategoryListModel({
      client: (hostId) => o.backend.client(hostId),
      refresh: (node) => this.refresh(node),
      log: o.log,
      operationPollMs: o.operationPollMs,
      setTimer: o.setTimer,
    });
    this.dataTests = new DataTestsModel({
      review: (hostId, db) => o.backend.review(hostId, db),
      fire: (node) => this.fire(node),
      log: o.log,
    });
    const reviews = o.reviews;
    if (reviews) {
      const pullsOf = (hostId: string, db: DatabaseRef): void => {
        if (this.dbNodes.has(dbKey(hostId, db))) this.fire(this.categoryNode(hostId, db, 'pulls'));
      };
      this.pullReviews = new PullReviewModel({ source: reviews, review: (h, db) => o.backend.review(h, db), changed: pullsOf, log: o.log });
      this.reviewMarksWatch = reviews.onDidChange((t) => pullsOf(t.hostId, t.db));
    }
    this.tables = new TableCatalogModel({ catalog: o.catalog, log: o.log, failure: (parent, e) => this.failure(parent, parent, e) });
  }

  /** Fires with the node whose children changed, or undefined for the whole tree. */
  onDidChange(listener: (node: TreeNode | undefined) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  // ---- structure -------------------------------------------------------------------------

  /**
   * Root: one node per host that has databases or a signed-in account. Empty when there is
   * nothing at all, so VS Code shows the welcome view ("no account" / "no database").
   */
  roots(): HostNode[] {
    const b = this.o.backend;
    const withDbs = b.hostIdsWithDatabases();
    if (withDbs.length === 0) return [];
    const ids = [...withDbs];
    for (const id of b.availableHostIds()) if (!ids.includes(id) && b.isSignedIn(id)) ids.push(id);
    return ids.map((id) => this.hostNode(id));
  }

  hostNode(hostId: string): HostNode {
    let n = this.hostNodes.get(hostId);
    if (!n) this.hostNodes.set(hostId, (n = { kind: 'host', hostId }));
    return n;
  }

  databaseNode(hostId: string, db: DatabaseRef): DatabaseNode {
    const key = dbKey(hostId, db);
    let n = this.dbNodes.get(key);
    if (!n) this.dbNodes.set(key, (n = { kind: 'database', hostId, db: { owner: db.owner, name: db.name } }));
    return n;
  }

  categoryNode(hostId: string, db: DatabaseRef, category: Category): CategoryNode {
    const key = `${dbKey(hostId, db)} ${category}`;
    let n = this.categoryNodes.get(key);
    if (!n) this.categoryNodes.set(key, (n = { kind: 'category', hostId, db: this.databaseNode(hostId, db).db, category }));
    return n;
  }

  /** The Database resource last fetched for a node (for its description), if any. */
  databaseInfo(hostId: string, db: DatabaseRef): Database | undefined {
    return this.infos.get(dbKey(hostId, db))?.info;
  }

  /** Remember a Database the caller already has (from create/add), saving a request. */
  setDatabaseInfo(hostId: string, info: Database): void {
    this.infos.set(dbKey(hostId, info), { info });
    this.fire(this.dbNodes.get(dbKey(hostId, info)) ? this.hostNode(hostId) : undefined);
  }

  async children(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return this.roots();
    switch (node.kind) {
      case 'host':
        return this.hostChildren(node);
      case 'database':
        return this.databaseChildren(node);
      case 'category':
        return this.categoryChildren(node);
      case 'branch':
      case 'tag':
      case 'release':
        return this.refChildren(node);
      case 'tables':
        return this.tables.tableChildren(node);
      case 'table':
        return this.tables.columnChildren(node);
      case 'commits':
        return this.commitLists.children(node);
      case 'tests':
      case 'testGroup':
        return this.dataTests.children(node);
      default:
        return [];
    }
  }

  // ---- under a ref: Tables (issue #14) --------------------------------------------------------

  /** Whether a branch, tag or release has children (the provider makes it collapsible). */
  refHasChildren(): boolean {
    return this.o.catalog !== undefined;
  }

  /** What a branch, tag or release holds: its Tables, and a branch's or tag's Commits (issue #15). */
  private refChildren(node: RefNode): TreeNode[] {
    const out: TreeNode[] = this.o.catalog ? [this.tables.tablesNode(node)] : [];
    if (node.kind === 'branch' || node.kind === 'tag') out.push(this.commitLists.commitsNodeOf(node), this.dataTests.testsNode(node));
    return out;
  }

  /** Runs every test, a group or one test at the node's commit (issue #24). */
  runTests(node: TestsNode | TestGroupNode | TestNode, signal?: AbortSignal): Promise<TestRunSummary> {
    return this.dataTests.run(node, signal);
  }

  /** The last outcome of a test, or of a group's tests that ran. */
  testOutcome(node: TestNode): TestOutcome | undefined {
    return this.dataTests.outcome(node);
  }

  testGroupOutcomes(node: TestGroupNode): TestOutcome[] {
    return this.dataTests.groupOutcomes(node);
  }

  /** An open pull's standing since the current account's review (undefined: never reviewed, or not read yet). */
  pullReview(node: PullNode): SinceReview | undefined {
    return this.pullReviews?.state(node);
  }

  tablesNode(node: RefNode): TablesNode {
    return this.tables.tablesNode(node);
  }

  private hostChildren(node: HostNode): TreeNode[] {
    const b = this.o.backend;
    const dbs = b.databases(node.hostId);
    if (!b.availableHostIds().includes(node.hostId)) {
      const isLocal = node.hostId === this.o.localHubHostId;
      return [
        message(
          node,
          isLocal ? 'The local hub is stopped.' : 'This host is no longer in the versionedDb.hosts setting.',
          isLocal ? { command: this.o.commands.startLocalHub, title: l10n.t('Start Local Hub') } : undefined,
        ),
      ];
    }
    if (dbs.length === 0) {
      return [
        message(node, 'No databases yet: add one by owner/name.', {
          command: this.o.commands.addDatabase,
          title: l10n.t('Add Database'),
          args: [node],
        }),
      ];
    }
    const nodes = dbs.map((db) => this.databaseNode(node.hostId, db));
    // Descriptions (private, fork of, last write) come from GET database: fetch them up front.
    for (const n of nodes) if (!this.infos.has(dbKey(n.hostId, n.db))) void this.loadDatabaseInfo(n);
    return nodes;
  }

  private databaseChildren(node: DatabaseNode): TreeNode[] {
    const state = this.infos.get(dbKey(node.hostId, node.db));
    if (!state?.info && !state?.pending && !state?.error) void this.loadDatabaseInfo(node);
    if (state?.error) return [this.failure(node, node, state.error)];
    return CATEGORIES.map((c) => this.categoryNode(node.hostId, node.db, c));
  }

  /** Fetches the Database for the node's description; a failure becomes the node's error child. */
  private async loadDatabaseInfo(node: DatabaseNode): Promise<void> {
    const key = dbKey(node.hostId, node.db);
    const entry: { info?: Database; error?: unknown; pending?: Promise<void> } = {};
    this.infos.set(key, entry);
    entry.pending = (async () => {
      try {
        entry.info = await this.o.backend.client(node.hostId).getDatabase(node.db);
      } catch (e) {
        entry.error = e;
        this.o.log.warn(`could not load ${node.db.owner}/${node.db.name}: ${String(e)}`);
      }
      entry.pending = undefined;
      if (this.infos.get(key) === entry) {
        // The label's description changes (host level re-render); an error replaces the children.
        this.fire(entry.error ? node : this.hostNode(node.hostId));
      }
    })();
    return entry.pending;
  }

  private async categoryChildren(node: CategoryNode): Promise<TreeNode[]> {
    const state = this.lists.list(node);
    if (!state.loaded && !state.error) await this.lists.loadPage(node, state, undefined);
    const out: TreeNode[] = [];
    const items = this.visibleItems(node, state);
    out.push(...items);
    if (state.error) out.push(this.failure(node, node, state.error));
    if (state.nextPageToken !== undefined && !state.error) out.push({ kind: 'loadMore', parent: node } satisfies LoadMoreNode);
    if (out.length === 0) out.push(message(node, this.emptyText(node)));
    return out;
  }

  /**
   * What a failed load shows. A 404 while signed out to that host is most likely a private
   * database (the API answers 404, not 403, so as not to reveal it): say so and offer Sign In,
   * not a retry that cannot help. Anything else is an error node with its retry.
   */
  private failure(
    parent: DatabaseNode | CategoryNode | TablesNode | TableNode,
    where: { hostId: string; db: DatabaseRef },
    error: unknown,
  ): ErrorNode | MessageNode {
    if (isNotFound(error) && !this.o.backend.isSignedIn(where.hostId)) {
      return message(parent, `${where.db.owner}/${where.db.name} may be private: sign in to see it`, {
        command: this.o.commands.signIn,
        title: l10n.t('Sign In'),
        args: [where.hostId],
      });
    }
    return { kind: 'error', parent, error };
  }

  private visibleItems(node: CategoryNode, state: { items: unknown[] }): ItemNode[] {
    const base = { hostId: node.hostId, db: node.db, parent: node };
    switch (node.category) {
      case 'branches':
        return (state.items as Branch[]).map((branch) => ({ ...base, kind: 'branch', branch }));
      case 'tags':
        return (state.items as Tag[]).map((tag) => ({ ...base, kind: 'tag', tag }));
      case 'releases':
        return (state.items as Release[]).map((release) => ({ ...base, kind: 'release', release }));
      case 'pulls': {
        const states = this.pullStateFilter(node.hostId, node.db);
        return (state.items as PullSummary[])
          .filter((p) => states.length === 0 || states.includes(p.state))
          .map((pull) => ({ ...base, kind: 'pull', pull }));
      }
      case 'forks':
        return (state.items as DatabaseRef[]).map((fork) => ({ ...base, kind: 'fork', fork }));
      case 'operations':
        return (state.items as Operation[]).map((operation) => ({ ...base, kind: 'operation', operation }));
    }
  }

  private emptyText(node: CategoryNode): string {
    if (node.category === 'pulls') {
      const states = this.pullStateFilter(node.hostId, node.db);
      return states.length === 0 ? l10n.t('No pull requests') : l10n.t('No {0} pull requests', states.join(l10n.t(' or ')));
    }
    return l10n.t('No {0}', CATEGORY_LABELS[node.category].toLowerCase());
  }

  // ---- loading ---------------------------------------------------------------------------

  /** Appends the next page under a category; the "Load more" node calls this. */
  async loadMore(node: LoadMoreNode | CategoryNode | CommitsNode): Promise<void> {
    const list = node.kind === 'loadMore' ? node.parent : node;
    if (list.kind === 'commits') return this.commitLists.loadMore(list);
    const category = list;
    const state = this.lists.list(category);
    if (state.nextPageToken === undefined) return;
    await this.lists.loadPage(category, state, state.nextPageToken);
    this.fire(category);
  }

  // ---- refresh ---------------------------------------------------------------------------

  /** Forgets what was loaded under `node` (everything when undefined) and re-renders it. */
  refresh(node?: TreeNode): void {
    if (!node) {
      this.commitLists.resetAll();
      this.lists.resetAll();
      this.infos.clear();
      this.fire(undefined);
      return;
    }
    switch (node.kind) {
      case 'host':
        this.lists.resetWhere(`${node.hostId} `);
        this.commitLists.resetWhere(node.hostId);
        for (const key of [...this.infos.keys()]) if (key.startsWith(`${node.hostId} `)) this.infos.delete(key);
        this.fire(node);
        return;
      case 'database':
        this.lists.resetWhere(`${dbKey(node.hostId, node.db)} `);
        this.commitLists.resetWhere(node.hostId, node.db);
        this.infos.delete(dbKey(node.hostId, node.db));
        this.fire(node);
        return;
      case 'category':
        this.lists.reset(this.lists.list(node));
        // A reloaded branch or tag list may have moved heads: its Commits lists pin again.
        if (node.category === 'branches' || node.category === 'tags')
          this.commitLists.resetWhere(node.hostId, node.db, node.category === 'branches' ? 'branch' : 'tag');
        this.fire(node);
        return;
      case 'commits':
        this.commitLists.reset(node);
        this.fire(node);
        return;
      case 'error':
      case 'message':
        if (node.parent.kind === 'database') this.infos.delete(dbKey(node.parent.hostId, node.parent.db));
        this.refresh(node.parent);
        return;
      case 'loadMore':
        this.refresh(node.parent);
        return;
      case 'tables':
        // Reload the ref itself (its list): a branch that moved brings a new commit and so a new
        // read; the same commit's tables are kept (they cannot change), a failed read was not.
        this.refresh(node.parent);
        return;
      case 'table':
        this.fire(node);
        return;
      default:
        this.refresh(node.parent);
    }
  }

  /** Hosts or databases were added or removed: re-render, keeping every list already loaded. */
  structureChanged(): void {
    this.fire(undefined);
  }

  /** For other features (pull requests, imports): reload one database's lists after a change. */
  refreshDatabase(hostId: string, db: DatabaseRef, categories?: readonly Category[]): void {
    if (!this.dbNodes.has(dbKey(hostId, db))) return;
    if (!categories) {
      this.refresh(this.databaseNode(hostId, db));
      return;
    }
    for (const c of categories) this.refresh(this.categoryNode(hostId, db, c));
  }

  // ---- pull state filter -----------------------------------------------------------------

  pullStateFilter(hostId: string, db: DatabaseRef): readonly PullState[] {
    return this.pullStates.get(dbKey(hostId, db)) ?? DEFAULT_PULL_STATES;
  }

  /** Filters pulls on the client (the API has no filter); empty means every state. */
  setPullStateFilter(hostId: string, db: DatabaseRef, states: readonly PullState[]): void {
    this.pullStates.set(dbKey(hostId, db), [...states]);
    this.fire(this.categoryNode(hostId, db, 'pulls'));
  }

  // ---- lifecycle -------------------------------------------------------------------------

  dispose(): void {
    this.disposed = true;
    this.reviewMarksWatch?.dispose();
    this.lists.dispose();
    this.listeners.clear();
  }

  private fire(node: TreeNode | undefined): void {
    if (this.disposed) return;
    for (const l of [...this.listeners]) l(node);
  }
}

/**
 * A 404 from the API client. By name and status, never `instanceof`: the client is a lazily loaded
 * bundle of its own (esbuild.mjs), so its ApiError is not the class this bundle would import.
 */
function isNotFound(e: unknown): boolean {
  return e instanceof Error && e.name === 'ApiError' && (e as { status?: unknown }).status === 404;
}

function message(parent: TreeNode, text: string, action?: MessageNode['action']): MessageNode {
  return action ? { kind: 'message', parent, text, action } : { kind: 'message', parent, text };
}
