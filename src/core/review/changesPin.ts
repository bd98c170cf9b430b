// What a Changes view reads, found once when it opens: the pair of commits (pinned to hashes, so a
// branch that moves while the view is open cannot mix two diffs), the database the diff is read in
// (the fork, for a cross-fork pull), and the changed tables with their row counts. Pure: the SQL is
// run by the caller's `ReviewRunner` (src/core/sql/sqlPort.ts, bound to one database).
import type { DatabaseRef, Pull } from '../../shared/wire';
import {
  buildColumnsQuery,
  buildDiffStatQuery,
  buildDiffSummaryQuery,
  buildLogQuery,
  buildParentsQuery,
  buildPinPairQuery,
  buildReachableQuery,
  buildTableLogQuery,
  type DiffTableSpec,
} from './doltQueries';
import { firstReachable, parseCommitPage, parseParents, parsePinnedPair } from './commitLog';
import { ReviewResultError } from './resultReader';
import { RevisionError, threeDot, twoDot, type RevisionPair } from './revisions';
import { combineTableChanges, parseDiffStat, parseDiffSummary, type TableChange, type TableChangeSummary } from './tableChanges';
import { parseColumns } from './rowDiff';
import type { ReviewRunner } from '../sql/sqlPort';

/** Rows asked for by the one-answer queries (pin, table list, columns). */
export const LIST_LIMIT = 5000;

/** What to pin, with the pull's branches already read from the API. */
export type PinInput =
  | { kind: 'refs'; from: string; to: string; threeDot: boolean }
  | { kind: 'commit'; commit: string }
  /** A pull whose from-branch is in the target database. */
  | { kind: 'pull'; toBranch: string; fromBranch: string }
  /** A pull from a fork: the fork's log is checked against the target's branch. */
  | { kind: 'crossForkPull'; toBranch: string; fromBranch: string };

export interface PinnedChanges {
  /** Always two dots between commit hashes. */
  pair: Extract<RevisionPair, { kind: 'twoDot' }>;
  /** True when the diff is read in the pull's source fork. */
  readInFork: boolean;
}

/**
 * What to pin for a pull request: its three-dot diff, read in the target database, or (its
 * from-branch in another database) in the fork, which holds the head and its ancestors.
 */
export function pinInputOfPull(
  pull: Pick<Pull, 'from_branch' | 'to_branch'>,
  target: DatabaseRef,
): { input: PinInput; fork?: DatabaseRef } {
  const from = pull.from_branch.database;
  const branches = { toBranch: pull.to_branch.branch_name, fromBranch: pull.from_branch.branch_name };
  if (from.owner === target.owner && from.name === target.name) return { input: { kind: 'pull', ...branches } };
  return { input: { kind: 'crossForkPull', ...branches }, fork: { owner: from.owner, name: from.name } };
}

/** Commits of the fork's log looked at before giving up on finding the merge base. */
const FORK_LOG_PAGE = 200;
const FORK_LOG_PAGES = 25;

function asTwoDot(pair: RevisionPair): PinnedChanges['pair'] {
  if (pair.kind !== 'twoDot') throw new ReviewResultError('A pinned pair must be two commits.');
  return pair;
}

/**
 * Pins `input` to two commit hashes. `target` runs in the database the request names; `fork` (only
 * for a cross-fork pull) in the pull's source database, which holds the head and its ancestors.
 */
export async function pinChanges(input: PinInput, target: ReviewRunner, fork?: ReviewRunner, signal?: AbortSignal): Promise<PinnedChanges> {
  const opts = { limit: LIST_LIMIT, ...(signal ? { signal } : {}) };
  switch (input.kind) {
    case 'refs': {
      const pair = input.threeDot ? threeDot(input.from, input.to) : twoDot(input.from, input.to);
      return { pair: asTwoDot(parsePinnedPair(await target(buildPinPairQuery(pair), opts))), readInFork: false };
    }
    case 'commit': {
      const parents = parseParents(await target(buildParentsQuery(input.commit), opts));
      const first = parents[0];
      if (!first) throw new RevisionError(`${input.commit.slice(0, 7)} is the first commit: it has no parent to compare with.`);
      return { pair: twoDot(first, input.commit) as PinnedChanges['pair'], readInFork: false };
    }
    case 'pull':
      return {
        pair: asTwoDot(parsePinnedPair(await target(buildPinPairQuery(threeDot(input.toBranch, input.fromBranch)), opts))),
        readInFork: false,
      };
    case 'crossForkPull': {
      if (!fork) throw new ReviewResultError('A cross-fork pull is read in its fork, and no fork was given.');
      let head: string | undefined;
      for (let page = 0; page < FORK_LOG_PAGES; page++) {
        const log = parseCommitPage(
          await fork(buildLogQuery(input.fromBranch, { pageSize: FORK_LOG_PAGE, offset: page * FORK_LOG_PAGE }), opts),
          FORK_LOG_PAGE,
        );
        const hashes = log.items.map((c) => c.hash);
        head ??= hashes[0];
        if (hashes.length > 0) {
          const reachable = new Set<string>();
          const answer = await target(buildReachableQuery(input.toBranch, hashes), opts);
          for (const row of answer.rows) if (row[0]) reachable.add(row[0]);
          const base = firstReachable(hashes, reachable);
          if (base && head) return { pair: twoDot(base, head) as PinnedChanges['pair'], readInFork: true };
        }
        if (!log.hasMore) break;
      }
      throw new ReviewResultError(
        `${input.fromBranch} of the fork shares no commit with ${input.toBranch} in the last ${FORK_LOG_PAGE * FORK_LOG_PAGES} commits.`,
      );
    }
  }
}

/** The changed tables with their row counts (DOLT_DIFF_SUMMARY + DOLT_DIFF_STAT), sorted by name. */
export async function loadTableChanges(pair: RevisionPair, run: ReviewRunner, signal?: AbortSignal): Promise<TableChangeSummary> {
  const opts = { limit: LIST_LIMIT, ...(signal ? { signal } : {}) };
  const [summary, stat] = await Promise.all([run(buildDiffSummaryQuery(pair), opts), run(buildDiffStatQuery(pair), opts)]);
  return combineTableChanges(parseDiffSummary(summary), parseDiffStat(stat));
}

/** A table's columns at both ends (none on the side where it does not exist). */
export async function loadDiffTableSpec(
  pair: PinnedChanges['pair'],
  change: TableChange,
  run: ReviewRunner,
  signal?: AbortSignal,
): Promise<DiffTableSpec> {
  const opts = { limit: LIST_LIMIT, ...(signal ? { signal } : {}) };
  const side = async (table: string | null, at: string): Promise<DiffTableSpec['fromColumns']> =>
    table === null ? [] : parseColumns(await run(buildColumnsQuery(table, at), opts));
  const [fromColumns, toColumns] = await Promise.all([side(change.fromTable, pair.from), side(change.toTable, pair.to)]);
  return { table: change.table, fromColumns, toColumns };
}

/**
 * What a table's diff is, for a Viewed mark: the pair's base and the last commit on the head side
 * that changed the table. When either moves, the table's diff may have changed and the mark goes.
 */
export async function tableDiffFingerprint(
  pair: PinnedChanges['pair'],
  table: string,
  run: ReviewRunner,
  signal?: AbortSignal,
): Promise<string> {
  const answer = await run(buildTableLogQuery(pair.to, table, { pageSize: 1 }), { limit: 2, ...(signal ? { signal } : {}) });
  const last = parseCommitPage(answer, 1).items[0]?.hash ?? 'none';
  return `${pair.from}:${last}`;
}
