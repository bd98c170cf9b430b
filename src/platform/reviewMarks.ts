// The head each reviewer last marked reviewed, per pull and account (issue #25), in the workspace
// state. One store per window: the pull view writes it (Mark as Reviewed, every table Viewed) and
// the Databases tree reads it for the pull's item, told by `onDidChange` when a mark moves.
import * as vscode from 'vscode';
import type { PullTarget } from '../core/targets';
import { reviewMarkKey } from '../core/review/sinceReview';
import { isCommitHashText } from '../core/review/revisions';
import { Disposable } from './disposable';

export class ReviewMarkStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<PullTarget>());
  /** Fires with the pull whose mark the current account moved. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly memento: Pick<vscode.Memento, 'get' | 'update'>,
    /** The account the host's requests use now (undefined when signed out: nothing is remembered). */
    private readonly reviewer: (hostId: string) => string | undefined,
  ) {
    super();
  }

  /** Whether an account is signed in to the pull's host (without one there is no mark to keep). */
  hasReviewer(target: PullTarget): boolean {
    return this.reviewer(target.hostId) !== undefined;
  }

  /** The head the current account last reviewed on the pull; undefined when none (or signed out). */
  reviewed(target: PullTarget): string | undefined {
    const who = this.reviewer(target.hostId);
    if (who === undefined) return undefined;
    const v = this.memento.get<unknown>(reviewMarkKey(target, who));
    return typeof v === 'string' && isCommitHashText(v) ? v : undefined;
  }

  /** Remembers `head` as reviewed by the current account; false when no account is signed in. */
  async mark(target: PullTarget, head: string): Promise<boolean> {
    const who = this.reviewer(target.hostId);
    if (who === undefined) return false;
    await this.memento.update(reviewMarkKey(target, who), head);
    this.changed.fire(target);
    return true;
  }
}
