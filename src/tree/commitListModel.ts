// The Commits lists of the Databases tree (issue #15): under each branch and tag, its log a page
// at a time (DOLT_LOG through src/core/review/doltQueries.ts). When a list first loads, the ref's
// head is pinned (HASHOF) and every page is read at that hash, so commits made while the list is
// open cannot shift the pages; Refresh on the node re-pins. No vscode: the tree model delegates
// here and the unit tests drive it with a fake SQL client.
import type { DatabaseRef } from '../shared/wire';
import type { Logger } from '../core/logger';
import { buildHashOfQuery, buildLogQuery } from '../core/review/doltQueries';
import { parseCommitPage, parseHashOf, type Commit } from '../core/review/commitLog';
import type { ReviewRunner } from '../core/sql/sqlPort';
import type { Completeness } from '../core/review/resultReader';
import type { BranchNode, CommitNode, CommitsNode, ErrorNode, LoadMoreNode, MessageNode, TagNode, TreeNode } from './treeNodes';

export const COMMIT_PAGE_SIZE = 50;

interface CommitListState {
  /** The commit the ref pointed at when the list loaded; every page is read there. */
  pinned: string | undefined;
  commits: Commit[];
  hasMore: boolean;
  /** The last page came back cut short by the server (row limit or timeout). */
  partial: Completeness | undefined;
  error: unknown;
  loaded: boolean;
  generation: number;
  pending: Promise<void> | undefined;
}

export interface CommitListOptions {
  review(hostId: string, db: DatabaseRef): ReviewRunner;
  /** Tells the tree a node's children changed. */
  fire(node: TreeNode): void;
  log: Logger;
  pageSize?: number;
}

export class CommitListModel {
  private readonly nodes = new Map<string, CommitsNode>();
  private readonly states = new Map<string, CommitListState>();

  constructor(private readonly o: CommitListOptions) {}

  /** The one "Commits" node of a branch or tag (the same object every time, as VS Code expects). */
  commitsNodeOf(parent: BranchNode | TagNode): CommitsNode {
    const ref = parent.kind === 'branch' ? parent.branch.name : parent.tag.name;
    const key = keyOf(parent.hostId, parent.db, parent.kind, ref);
    let n = this.nodes.get(key);
    if (!n) this.nodes.set(key, (n = { kind: 'commits', hostId: parent.hostId, db: parent.db, parent, ref }));
    return n;
  }

  async children(node: CommitsNode): Promise<TreeNode[]> {
    const state = this.state(node);
    if (!state.loaded && !state.error) await this.load(node, state);
    const out: TreeNode[] = state.commits.map((commit): CommitNode => ({
      kind: 'commit',
      hostId: node.hostId,
      db: node.db,
      parent: node,
      commit,
    }));
    if (state.error) out.push({ kind: 'error', parent: node, error: state.error } satisfies ErrorNode);
    else if (state.partial && !state.partial.complete) {
      out.push(
        message(
          node,
          `The server sent only part of this page (${state.partial.reason === 'timeout' ? 'timed out' : 'row limit'}): Load more reads on from here.`,
        ),
      );
    }
    if (state.hasMore && !state.error) out.push({ kind: 'loadMore', parent: node } satisfies LoadMoreNode);
    if (out.length === 0) out.push(message(node, 'No commits'));
    return out;
  }

  /** The commit the list is pinned to, once loaded. */
  pinnedCommit(node: CommitsNode): string | undefined {
    return this.states.get(this.key(node))?.pinned;
  }

  async loadMore(node: CommitsNode): Promise<void> {
    const state = this.state(node);
    if (!state.hasMore || state.error) return;
    await this.load(node, state);
    this.o.fire(node);
  }

  /** Forgets one list: it re-pins and reloads when shown again. */
  reset(node: CommitsNode): void {
    const s = this.states.get(this.key(node));
    if (s) resetState(s);
  }

  /** Forgets every list of a database (all kinds, or only branches' or tags'), or of a whole host. */
  resetWhere(hostId: string, db?: DatabaseRef, kind?: 'branch' | 'tag'): void {
    const prefix = db ? `${hostId} ${db.owner}/${db.name} ${kind ?? ''}` : `${hostId} `;
    for (const [k, s] of this.states) if (k.startsWith(prefix)) resetState(s);
  }

  resetAll(): void {
    for (const s of this.states.values()) resetState(s);
  }

  private key(node: CommitsNode): string {
    return keyOf(node.hostId, node.db, node.parent.kind, node.ref);
  }

  private state(node: CommitsNode): CommitListState {
    const key = this.key(node);
    let s = this.states.get(key);
    if (!s)
      this.states.set(
        key,
        (s = {
          pinned: undefined,
          commits: [],
          hasMore: false,
          partial: undefined,
          error: undefined,
          loaded: false,
          generation: 0,
          pending: undefined,
        }),
      );
    return s;
  }

  private load(node: CommitsNode, state: CommitListState): Promise<void> {
    if (state.pending) return state.pending;
    const generation = state.generation;
    const pageSize = this.o.pageSize ?? COMMIT_PAGE_SIZE;
    const run = this.o.review(node.hostId, node.db);
    state.pending = (async () => {
      try {
        const pinned = state.pinned ?? parseHashOf(await run(buildHashOfQuery(node.ref)));
        const page = parseCommitPage(
          await run(buildLogQuery(pinned, { pageSize, offset: state.commits.length }), { limit: pageSize + 1 }),
          pageSize,
        );
        if (state.generation !== generation) return;
        state.pinned = pinned;
        state.commits = [...state.commits, ...page.items];
        // A cut-short page may have more after it even when it says nothing of it.
        state.hasMore = page.hasMore || (!page.completeness.complete && page.items.length > 0);
        state.partial = page.completeness.complete ? undefined : page.completeness;
        state.error = undefined;
        state.loaded = true;
      } catch (e) {
        if (state.generation !== generation) return;
        state.error = e;
        this.o.log.warn(
          `could not load the commits of ${node.ref} in ${node.db.owner}/${node.db.name}: ${e instanceof Error ? e.message : String(e)}`,
        );
      } finally {
        if (state.generation === generation) state.pending = undefined;
      }
    })();
    return state.pending;
  }
}

function resetState(s: CommitListState): void {
  s.generation++;
  s.pinned = undefined;
  s.commits = [];
  s.hasMore = false;
  s.partial = undefined;
  s.error = undefined;
  s.loaded = false;
  s.pending = undefined;
}

function keyOf(hostId: string, db: DatabaseRef, kind: 'branch' | 'tag', ref: string): string {
  return `${hostId} ${db.owner}/${db.name} ${kind} ${ref}`;
}

function message(parent: TreeNode, text: string): MessageNode {
  return { kind: 'message', parent, text };
}
