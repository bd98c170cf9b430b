// "Since your last review" outside the pull view (issue #25): where the head a reviewer last
// marked reviewed is kept, and how many commits the pull's branch has gained since, read where the
// branch lives (the fork, for a cross-fork pull). The pull view's Commits section
// (src/views/pullCommits.ts) and the pull's item in the Databases tree (src/tree/pullReviewModel.ts)
// share both. Pure: the caller's ReviewRunner runs the SQL.
import type { DatabaseRef, Pull } from '../../shared/wire';
import type { ReviewRunner } from '../sql/sqlPort';
import type { PullTarget } from '../targets';
import { parseCommitPage, parseHashOf } from './commitLog';
import { buildHashOfQuery } from './doltQueries';
import { buildRangeLogQuery } from './pullCommits';
import { shortHash } from '../commitHash';

/** Commits counted at most; more reads as "99+". */
export const NEW_COMMITS_LIMIT = 99;

/** The workspace-state key of the head `who` last reviewed on a pull. */
export function reviewMarkKey(target: PullTarget, who: string): string {
  return `versionedDb.reviewed:${target.hostId}:${who}:${target.db.owner}/${target.db.name}#${target.pullNumber}`;
}

export type SinceReview =
  /** The branch is where the reviewer left it. */
  | { kind: 'current'; reviewed: string }
  /** `count` commits on the branch are not reachable from the reviewed head (`more`: at least that many). */
  | { kind: 'new'; reviewed: string; head: string; count: number; more: boolean }
  /** The reviewed head is not in the branch's history any more (a force push), or cannot be read. */
  | { kind: 'changed'; reviewed: string; head: string };

/** Where the pull's branch stands against the head last reviewed (a commit hash). */
export async function readSinceReview(
  pull: Pick<Pull, 'from_branch'>,
  reviewed: string,
  run: (db: DatabaseRef) => ReviewRunner,
  signal?: AbortSignal,
): Promise<SinceReview> {
  const opts = signal ? { signal } : {};
  const branch = pull.from_branch;
  const runner = run(branch.database);
  const head = parseHashOf(await runner(buildHashOfQuery(branch.branch_name), opts));
  if (head === reviewed) return { kind: 'current', reviewed };
  let page;
  try {
    page = parseCommitPage(await runner(buildRangeLogQuery(reviewed, head, NEW_COMMITS_LIMIT), opts), NEW_COMMITS_LIMIT);
  } catch (e) {
    if (signal?.aborted) throw e;
    // The reviewed commit is not in this database's history (rewritten, or a fork that lost it).
    return { kind: 'changed', reviewed, head };
  }
  // Nothing new but another head: the branch was reset behind the reviewed commit.
  if (page.items.length === 0) return { kind: 'changed', reviewed, head };
  return { kind: 'new', reviewed, head, count: page.items.length, more: page.hasMore };
}

/** One line for a tree item's description: "2 new commits since your review". */
export function sinceReviewText(s: SinceReview): string | undefined {
  switch (s.kind) {
    case 'current':
      return undefined;
    case 'new':
      return `${s.more ? `${s.count}+` : s.count} new ${s.count === 1 && !s.more ? 'commit' : 'commits'} since your review`;
    case 'changed':
      return 'changed since your review';
  }
}

/** The tooltip's line: what was reviewed and where the branch is now. */
export function sinceReviewDetail(s: SinceReview): string {
  const at = shortHash(s.reviewed);
  switch (s.kind) {
    case 'current':
      return `Reviewed at ${at}, the branch's head`;
    case 'new':
      return `${sinceReviewText(s) ?? ''} at ${at} (head ${shortHash(s.head)})`;
    case 'changed':
      return `Reviewed at ${at}; the branch no longer contains that commit (head ${shortHash(s.head)})`;
  }
}
