// The pull view's "Row comments" section (issue #25): the pull's anchored comments as threads, each
// marked outdated or deleted against the head the view shows, with Reply. Comments without an
// anchor stay in the pull's conversation (the panel filters them with `splitThreads`).
import type { Logger } from '../core/logger';
import type { MarkdownRenderer } from '../core/markdown';
import type { SqlPort } from '../core/sql/sqlPort';
import type { DatabaseRef, PullComment } from '../shared/wire';
import type { PullTarget } from '../core/targets';
import { splitThreads, threadState, type RowThread, type ThreadComment, type ThreadState } from '../core/review/rowThreads';
import { renderThreadsSection } from '../core/pullThreadsPage';

/** The element the section's HTML replaces in the pull view. */
export const PULL_THREADS_ID = 'pull-threads';

export interface PullThreadsDeps {
  sql: Pick<SqlPort, 'review'>;
  log: Logger;
  /** Asks for a reply and posts it (src/commands/rowComments.ts `replyToThread`). */
  reply(pull: PullTarget, thread: { rootId: string; anchor: RowThread['anchor'] }, head: string): Promise<unknown>;
  /** Commits a comment's suggested value onto the pull's branch and records it in the thread (src/commands/applySuggestion.ts). */
  apply?(pull: PullTarget, thread: RowThread, comment: ThreadComment): Promise<unknown>;
}

export class PullThreadsSection {
  private threads: RowThread[] = [];
  private states = new Map<string, ThreadState>();
  private head: string | undefined;
  private generation = 0;

  constructor(
    private readonly target: PullTarget,
    private readonly deps: PullThreadsDeps,
    private readonly md: MarkdownRenderer,
  ) {}

  /** The comments of the conversation (those without an anchor), and the threads kept for the section. */
  split(comments: readonly PullComment[]): PullComment[] {
    const { threads, conversation } = splitThreads(comments);
    this.threads = threads;
    this.states = new Map([...this.states].filter(([id]) => threads.some((t) => t.rootId === id)));
    return conversation;
  }

  html(): string {
    return renderThreadsSection(this.threads, this.states, this.md, new Date(), this.deps.apply !== undefined);
  }

  /** The threads as last split (for tests and the Changes view's marks). */
  get current(): readonly RowThread[] {
    return this.threads;
  }

  /** Reads each thread's state at `at.head` in `at.readIn`; calls `changed` when done. */
  async check(at: { base: string; head: string; readIn: DatabaseRef }, changed: () => void): Promise<void> {
    const generation = ++this.generation;
    this.head = at.head;
    const run = this.deps.sql.review(this.target.hostId, at.readIn);
    const states = new Map<string, ThreadState>();
    await Promise.all(
      this.threads.map(async (t) => {
        try {
          states.set(t.rootId, await threadState(run, t, at.head, at.base));
        } catch (e) {
          this.deps.log.warn(`row comment ${t.rootId}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }),
    );
    if (generation !== this.generation) return;
    this.states = states;
    changed();
  }

  /** Reply on a thread, at the head the view shows. */
  async reply(rootId: string): Promise<void> {
    const thread = this.threads.find((t) => t.rootId === rootId);
    const head = this.head;
    if (!thread || !head) return;
    await this.deps.reply(this.target, { rootId, anchor: thread.anchor }, head);
  }

  /** Apply Suggestion on a comment that carries a suggested value. */
  async apply(commentId: string): Promise<void> {
    for (const thread of this.threads) {
      const comment = thread.comments.find((c) => c.comment.comment_id === commentId && c.anchor.suggestion !== undefined);
      if (comment) return void (await this.deps.apply?.(this.target, thread, comment));
    }
  }
}
