// The pull request's own commits (issue #25): what its head has that its merge base has not, newest
// first in the log's (graph) order, read where the pull's diff is read (the fork, for a cross-fork
// pull); and the head of its from-branch now, to tell an open view that the branch moved on.
// Pure SQL builders and parsing; the caller's ReviewRunner runs them.
import type { Pull } from '../../shared/wire';
import { sqlString } from '../sql/quote';
import type { ReviewRunner } from '../sql/sqlPort';
import { parseCommitPage, parseHashOf, type Commit } from './commitLog';
import { pinChanges, pinInputOfPull, type PinnedChanges } from './changesPin';
import { buildHashOfQuery, type DoltQuery } from './doltQueries';
import type { Completeness } from './resultReader';
import { RevisionError, isCommitHashText } from './revisions';
import type { DatabaseRef } from '../../shared/wire';

/** Commits listed at most; a pull with more says so. */
export const PULL_COMMITS_LIMIT = 250;

/** The commits reachable from `head` and not from `base` (both hashes), newest first, with parents. */
export function buildRangeLogQuery(base: string, head: string, limit: number): DoltQuery {
  for (const h of [base, head]) if (!isCommitHashText(h)) throw new RevisionError(`"${h}" is not a 32-character commit hash.`);
  return {
    sql: `SELECT commit_hash, committer, email, date, message, parents FROM DOLT_LOG(${sqlString(`${base}..${head}`)}, '--parents') LIMIT ${limit + 1}`,
    at: head,
  };
}

export interface PullCommits {
  /** The diff's pinned pair: from the merge base to the head the commits were read at. */
  pinned: PinnedChanges;
  /** The database the commits are in (the fork for a cross-fork pull). */
  readIn: DatabaseRef;
  /** Newest first. */
  commits: Commit[];
  /** More commits than PULL_COMMITS_LIMIT. */
  more: boolean;
  completeness: Completeness;
}

/** Runners of the pull's database and, for a cross-fork pull, of its source fork. */
export interface PullRunners {
  target: ReviewRunner;
  fork?: (db: DatabaseRef) => ReviewRunner;
}

/** Pins the pull (merge base, head) and reads the commits between them. */
export async function loadPullCommits(
  pull: Pick<Pull, 'from_branch' | 'to_branch'>,
  db: DatabaseRef,
  runners: PullRunners,
  signal?: AbortSignal,
): Promise<PullCommits> {
  const { input, fork } = pinInputOfPull(pull, db);
  const forkRun = fork && runners.fork ? runners.fork(fork) : undefined;
  const pinned = await pinChanges(input, runners.target, forkRun, signal);
  const run = pinned.readInFork && forkRun ? forkRun : runners.target;
  const q = buildRangeLogQuery(pinned.pair.from, pinned.pair.to, PULL_COMMITS_LIMIT);
  const page = parseCommitPage(await run(q, { limit: PULL_COMMITS_LIMIT + 1, ...(signal ? { signal } : {}) }), PULL_COMMITS_LIMIT);
  return {
    pinned,
    readIn: pinned.readInFork && fork ? fork : db,
    commits: page.items,
    more: page.hasMore,
    completeness: page.completeness,
  };
}

/** The commit the pull's from-branch points at now, read in the branch's own database. */
export async function pullHeadNow(
  pull: Pick<Pull, 'from_branch'>,
  run: (db: DatabaseRef) => ReviewRunner,
  signal?: AbortSignal,
): Promise<string> {
  const from = pull.from_branch;
  return parseHashOf(await run(from.database)(buildHashOfQuery(from.branch_name), signal ? { signal } : {}));
}
