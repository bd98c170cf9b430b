// The lists under a database's categories (Branches, Tags, Releases, Pull Requests, Forks,
// Operations) in the Databases tree: loading a page at a time, dropping late answers after a
// refresh, and re-reading Operations while some still run. No vscode: the tree model delegates
// here (databaseTreeModel.ts) and the unit tests drive it through that model with a fake backend.
import type { Branch, Database, DatabaseRef, Operation, PullSummary, Release, Tag } from '../shared/wire';
import type { Logger } from '../core/logger';
import { isOperationActive } from '../core/nodeDescriptions';
import type { CategoryNode } from './treeNodes';

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

type Opts = { signal?: AbortSignal };

/** The client calls the tree makes (HubClient satisfies it). */
export interface TreeClient {
  getDatabase(db: DatabaseRef, opts?: Opts): Promise<Database>;
  listBranches(db: DatabaseRef, params?: { pageToken?: string }, opts?: Opts): Promise<Page<Branch>>;
  listTags(db: DatabaseRef, params?: { pageToken?: string }, opts?: Opts): Promise<Page<Tag>>;
  listReleases(db: DatabaseRef, params?: { pageToken?: string }, opts?: Opts): Promise<Page<Release>>;
  listPulls(db: DatabaseRef, params?: { pageToken?: string }, opts?: Opts): Promise<Page<PullSummary>>;
  listForks(db: DatabaseRef, opts?: Opts): Promise<DatabaseRef[]>;
  listOperations(db: DatabaseRef, params?: { pageToken?: string }, opts?: Opts): Promise<Page<Operation>>;
}

export interface ListState {
  items: unknown[];
  nextPageToken: string | undefined;
  error: unknown;
  loaded: boolean;
  /** Bumped on refresh so a late answer to an older load is dropped. */
  generation: number;
  pending: Promise<void> | undefined;
  timer: { dispose(): void } | undefined;
}

export interface CategoryListOptions {
  client(hostId: string): TreeClient;
  /** Reloads a category (the Operations poll calls it). */
  refresh(node: CategoryNode): void;
  log: Logger;
  /** How often a list with running operations refreshes itself. */
  operationPollMs?: number;
  /** Injectable timer, so tests control time. */
  setTimer?: (fn: () => void, ms: number) => { dispose(): void };
}

export class CategoryListModel {
  private readonly lists = new Map<string, ListState>();
  private disposed = false;

  constructor(private readonly o: CategoryListOptions) {}

  list(node: CategoryNode): ListState {
    const key = `${dbKey(node.hostId, node.db)} ${node.category}`;
    let s = this.lists.get(key);
    if (!s) {
      s = { items: [], nextPageToken: undefined, error: undefined, loaded: false, generation: 0, pending: undefined, timer: undefined };
      this.lists.set(key, s);
    }
    return s;
  }

  loadPage(node: CategoryNode, state: ListState, pageToken: string | undefined): Promise<void> {
    if (state.pending) return state.pending;
    const generation = state.generation;
    const run = (async () => {
      try {
        const page = await this.fetch(node, pageToken);
        if (state.generation !== generation) return;
        state.items = pageToken === undefined ? page.items : [...state.items, ...page.items];
        // An empty token means the last page, exactly like an absent one.
        state.nextPageToken = page.nextPageToken ? page.nextPageToken : undefined;
        state.error = undefined;
        state.loaded = true;
      } catch (e) {
        if (state.generation !== generation) return;
        state.error = e;
        this.o.log.warn(`could not load ${node.category} of ${node.db.owner}/${node.db.name}: ${String(e)}`);
      } finally {
        if (state.generation === generation) state.pending = undefined;
      }
      if (node.category === 'operations') this.scheduleOperationsRefresh(node, state);
    })();
    state.pending = run;
    return run;
  }

  private async fetch(node: CategoryNode, pageToken: string | undefined): Promise<Page<unknown>> {
    const client = this.o.client(node.hostId);
    const params = pageToken === undefined ? {} : { pageToken };
    switch (node.category) {
      case 'branches':
        return client.listBranches(node.db, params);
      case 'tags':
        return client.listTags(node.db, params);
      case 'releases':
        return client.listReleases(node.db, params);
      case 'pulls':
        return client.listPulls(node.db, params);
      case 'forks':
        return { items: await client.listForks(node.db) };
      case 'operations':
        return client.listOperations(node.db, params);
    }
  }

  /** Running operations refresh themselves until none is queued or running. */
  private scheduleOperationsRefresh(node: CategoryNode, state: ListState): void {
    state.timer?.dispose();
    state.timer = undefined;
    if (this.disposed || state.error) return;
    if (!(state.items as Operation[]).some(isOperationActive)) return;
    const setTimer = this.o.setTimer ?? defaultTimer;
    state.timer = setTimer(() => {
      state.timer = undefined;
      this.o.refresh(node);
    }, this.o.operationPollMs ?? 2000);
  }

  /** Forgets every list. */
  resetAll(): void {
    for (const s of this.lists.values()) this.reset(s);
  }

  /** Forgets the lists whose key starts with `prefix` (a host's or a database's). */
  resetWhere(prefix: string): void {
    for (const [k, s] of this.lists) if (k.startsWith(prefix)) this.reset(s);
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.lists.values()) s.timer?.dispose();
  }

  reset(s: ListState): void {
    s.generation++;
    s.items = [];
    s.nextPageToken = undefined;
    s.error = undefined;
    s.loaded = false;
    s.pending = undefined;
    s.timer?.dispose();
    s.timer = undefined;
  }
}

export function dbKey(hostId: string, db: DatabaseRef): string {
  return `${hostId} ${db.owner}/${db.name}`;
}

function defaultTimer(fn: () => void, ms: number): { dispose(): void } {
  const t = setTimeout(fn, ms);
  return { dispose: () => clearTimeout(t) };
}
