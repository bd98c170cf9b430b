// The pull view's Commits section and its watch on the pull's head (issue #25). The section lists
// the pull's own commits, each opening its changes in the Changes view. The watch reads where the
// from-branch points now (when the panel gains focus or becomes visible, and every `pollMs` while
// visible, as the table browser does) and, when it is not the head the view shows, the view says
// so with a Refresh button: counts, Viewed marks and commits stay as they were read until then.
import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { SqlPort } from '../core/sql/sqlPort';
import type { Pull } from '../shared/wire';
import { Commands } from '../shared/ids';
import { escapeHtml } from '../core/pullPage';
import type { PullTarget } from '../core/targets';
import type { ChangesRequest } from '../core/review/requests';
import { loadPullCommits, pullHeadNow, type PullCommits } from '../core/review/pullCommits';
import { renderHeadMovedNotice, renderPullCommitsSection, type ReviewMark } from '../core/pullCommitsPage';
import type { ReviewMarkStore } from '../platform/reviewMarks';
import * as l10n from '../shared/l10n';
import { Rerun } from '../core/rerun';

/** The element the Commits section's HTML replaces in the pull view. */
export const PULL_COMMITS_ID = 'pull-commits';
/** The element of the "branch moved" notice. */
export const PULL_HEAD_MOVED_ID = 'pull-head-moved';

/** Where each reviewer's last reviewed head is kept, per pull and account (src/platform/reviewMarks.ts). */
export type ReviewMarks = Pick<ReviewMarkStore, 'reviewed' | 'hasReviewer' | 'mark'>;

export interface PullCommitsDeps {
  sql: Pick<SqlPort, 'review'>;
  log: Logger;
  /** Since your last review; without it the section offers none. */
  reviews?: ReviewMarks;
  /** How often a visible pull view checks whether the pull's branch moved (0: never). */
  pollMs?: number;
}

export class PullCommitsSection {
  private loaded: PullCommits | undefined;
  private pull: Pick<Pull, 'from_branch' | 'to_branch' | 'state'> | undefined;
  /** The head last reported as moved, so the notice is posted once per move. */
  private reported: string | undefined;
  private readonly checks = new Rerun(() => this.checkMovedOnce());
  /** A notice found by a check and not taken by a caller yet. */
  private notice: string | undefined;
  private generation = 0;

  constructor(
    private readonly target: PullTarget,
    private readonly deps: PullCommitsDeps,
  ) {}

  /** The pinned pair the view shows and the database it is read in (undefined until read). */
  get pinnedAt(): { base: string; head: string; readIn: PullCommits['readIn'] } | undefined {
    const l = this.loaded;
    return l ? { base: l.pinned.pair.from, head: l.pinned.pair.to, readIn: l.readIn } : undefined;
  }

  /** The head commit the view shows (undefined until the commits are read). */
  get shownHead(): string | undefined {
    return this.loaded?.pinned.pair.to;
  }

  /** Reads the pull's commits and renders the section (escaped HTML); never throws. */
  async render(pull: Pick<Pull, 'from_branch' | 'to_branch' | 'state'>): Promise<string> {
    const generation = ++this.generation;
    this.pull = pull;
    this.reported = undefined;
    if (pull.state === 'merged') {
      this.loaded = undefined;
      return `<h2>${l10n.tHtml('Commits')}</h2><p class="muted">${l10n.tHtml("Merged: the pull's commits are part of its target branch now.")}</p>`;
    }
    try {
      const sql = this.deps.sql;
      const loaded = await loadPullCommits(pull, this.target.db, {
        target: sql.review(this.target.hostId, this.target.db),
        fork: (db) => sql.review(this.target.hostId, db),
      });
      if (generation === this.generation) this.loaded = loaded;
      return this.html(loaded);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.deps.log.warn(`pull commits ${this.target.db.owner}/${this.target.db.name}#${this.target.pullNumber}: ${message}`);
      return `<h2>${l10n.tHtml('Commits')}</h2><p class="error">${l10n.tHtml('Could not read the commits: {0}', escapeHtml(message))}</p>`;
    }
  }

  /**
   * The notice's HTML when the from-branch moved on from the head the view shows and that move was
   * not reported yet; undefined otherwise (and when it cannot tell). A call while a check runs
   * (which may have read the head before the move) looks once more after it; of callers that
   * share a check, one gets the notice.
   */
  async checkMoved(): Promise<string | undefined> {
    await this.checks.run();
    const notice = this.notice;
    this.notice = undefined;
    return notice;
  }

  private async checkMovedOnce(): Promise<void> {
    const pull = this.pull;
    const shown = this.shownHead;
    // Nothing read yet (or not open): nothing to check.
    if (!pull || !shown || pull.state !== 'open') return;
    try {
      const now = await pullHeadNow(pull, (db) => this.deps.sql.review(this.target.hostId, db));
      if (now === shown || now === this.reported || shown !== this.shownHead) return;
      this.reported = now;
      this.notice = renderHeadMovedNotice(pull.from_branch.branch_name, shown, now);
    } catch (e) {
      this.deps.log.warn(
        `could not check whether pull #${this.target.pullNumber}'s branch moved: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }

  /** The head last marked reviewed by the current account (undefined mark when no account). */
  reviewMark(): ReviewMark | undefined {
    const reviews = this.deps.reviews;
    if (!reviews?.hasReviewer(this.target)) return undefined;
    return { reviewed: reviews.reviewed(this.target) };
  }

  /** The section's HTML for what was read last. */
  html(loaded = this.loaded): string {
    return loaded ? renderPullCommitsSection(loaded, new Date(), this.reviewMark()) : '';
  }

  /** Remembers the head the view shows as reviewed by the current account; answers the new HTML. */
  async markReviewed(): Promise<string> {
    const head = this.shownHead;
    if (head) await this.deps.reviews?.mark(this.target, head);
    return this.html();
  }

  /** Opens the Changes view from the head last reviewed to the head the view shows. */
  async showSinceReview(): Promise<void> {
    const mark = this.reviewMark();
    const loaded = this.loaded;
    if (!loaded || !mark?.reviewed || mark.reviewed === loaded.pinned.pair.to) return;
    const request: ChangesRequest = {
      kind: 'refs',
      target: { hostId: this.target.hostId, db: loaded.readIn },
      from: mark.reviewed,
      to: loaded.pinned.pair.to,
    };
    await vscode.commands.executeCommand(Commands.showChanges, request);
  }

  /** Opens the Changes view of one of the pull's commits (against its first parent). */
  async open(commit: string): Promise<void> {
    const loaded = this.loaded;
    if (!loaded || !loaded.commits.some((c) => c.hash === commit)) return;
    const request: ChangesRequest = { kind: 'commit', target: { hostId: this.target.hostId, db: loaded.readIn }, commit };
    await vscode.commands.executeCommand(Commands.showChanges, request);
  }
}
