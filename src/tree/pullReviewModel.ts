// "N new commits since your review" on a pull's item in the Databases tree (issue #25). For each open
// pull the current account has marked reviewed (src/platform/reviewMarks.ts), reads where the pull's
// branch is now against the head reviewed (src/core/review/sinceReview.ts) and re-renders the list.
// Answers are kept per PullSummary object, so a refreshed pull list (new objects) reads again, and
// per reviewed head, so a moved mark reads again. No vscode: the tree model delegates here.
import type { Logger } from '../core/logger';
import type { ReviewRunner } from '../core/sql/sqlPort';
import type { PullTarget } from '../core/targets';
import { readSinceReview, type SinceReview } from '../core/review/sinceReview';
import type { DatabaseRef, Pull, PullSummary } from '../shared/wire';
import type { PullNode } from './treeNodes';

/** The review marks and the one API call the tree needs for them. */
export interface PullReviewSource {
  /** The head the current account last reviewed on the pull, if any. */
  reviewed(target: PullTarget): string | undefined;
  /** Fires when the current account's mark on a pull moves. */
  onDidChange(listener: (target: PullTarget) => void): { dispose(): void };
  getPull(hostId: string, db: DatabaseRef, pullNumber: number): Promise<Pull>;
}

export interface PullReviewOptions {
  source: PullReviewSource;
  review(hostId: string, db: DatabaseRef): ReviewRunner;
  /** Re-renders the pulls of a database (an answer arrived). */
  changed(hostId: string, db: DatabaseRef): void;
  log: Logger;
}

interface Entry {
  reviewed: string;
  state: SinceReview | undefined;
}

export class PullReviewModel {
  private readonly entries = new WeakMap<PullSummary, Entry>();

  constructor(private readonly o: PullReviewOptions) {}

  /** Where the pull stands since the current account's review; undefined when unknown (yet) or never reviewed. */
  state(node: PullNode): SinceReview | undefined {
    if (node.pull.state !== 'open') return undefined;
    const target: PullTarget = { hostId: node.hostId, db: node.db, pullNumber: node.pull.pull_number };
    const reviewed = this.o.source.reviewed(target);
    if (reviewed === undefined) return undefined;
    let entry = this.entries.get(node.pull);
    if (entry?.reviewed !== reviewed) {
      entry = { reviewed, state: undefined };
      this.entries.set(node.pull, entry);
      void this.load(node.pull, entry, target);
    }
    return entry.state;
  }

  private async load(pull: PullSummary, entry: Entry, target: PullTarget): Promise<void> {
    try {
      const full = await this.o.source.getPull(target.hostId, target.db, target.pullNumber);
      const state = await readSinceReview(full, entry.reviewed, (db) => this.o.review(target.hostId, db));
      if (this.entries.get(pull) !== entry) return;
      entry.state = state;
      this.o.changed(target.hostId, target.db);
    } catch (e) {
      // The item stays as it was (no review line); the next refresh of the list tries again.
      this.o.log.warn(`pull #${target.pullNumber} since your review: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
