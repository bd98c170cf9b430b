// Runs a pull's checks (issue #24): the tests at the merge base and at the head, each pinned to a
// commit hash first (so a branch that moves mid-run cannot mix two states), and the CI runs of the
// pull's branch. A pull from a fork runs both sides in the fork, its merge base found as the merge
// preview finds it (../review/forkBase.ts). Through the SQL port's review runner and one API list call; no vscode. A run at a
// commit hash is kept in a TestRunCache when one is given (./testRunCache.ts): the hashes are read
// every time, the tests run again only at a hash not seen (a moved head or base).
import type { BranchRef, DatabaseRef, Operation } from '../../shared/wire';
import type { ReviewRunner } from '../sql/sqlPort';
import { buildHashOfQuery, buildMergeBaseQuery } from '../review/doltQueries';
import { parseHashOf, parseMergeBase } from '../review/commitLog';
import { findForkMergeBase } from '../review/forkBase';
import { LIST_TESTS_SQL, readRun, readTests, runTestsSql } from './dataTests';
import { ciRunsFor, compareRuns, type CiRun, type PullChecks, type SideRun } from './pullChecks';
import type { TestRunCache } from './testRunCache';

export interface ChecksSides {
  db: DatabaseRef;
  fromBranch: BranchRef;
  toBranch: BranchRef;
}

export interface ChecksDeps {
  runOn(db: DatabaseRef): ReviewRunner;
  /** The first page of the database's operations (newest first). */
  operations(db: DatabaseRef, signal?: AbortSignal): Promise<readonly Operation[]>;
  /** Runs kept by commit, and the host `runOn` sends to (part of what a run is kept under). */
  readonly cache?: { readonly runs: TestRunCache; readonly hostId: string };
}

const sameDb = (a: DatabaseRef, b: DatabaseRef): boolean => a.owner === b.owner && a.name === b.name;

/** Every test at `commit` of `db`, run once. */
async function runAt(run: ReviewRunner, commit: string, signal?: AbortSignal): Promise<SideRun> {
  const list = readTests(await run({ sql: LIST_TESTS_SQL, at: commit }, { signal }));
  if (list.length === 0) return { kind: 'ran', commit, outcomes: new Map() };
  const result = await run({ sql: runTestsSql({ kind: 'all' }), at: commit }, { signal });
  return {
    kind: 'ran',
    commit,
    outcomes: readRun(
      result,
      list.map((t) => t.name),
    ),
  };
}

async function side(work: () => Promise<SideRun>): Promise<SideRun> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof Error && e.name === 'AbortError') throw e;
    return { kind: 'notRun', reason: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The pull's merge base as a hash: DOLT_MERGE_BASE in one database, or for a pull from a fork the
 * first commit of the fork head's log the target reaches (forkBase.ts, as the merge preview reads it).
 * Tests there run in the fork, which has all of the head's ancestors.
 */
async function mergeBase(deps: ChecksDeps, sides: ChecksSides, signal?: AbortSignal): Promise<string> {
  const from = sides.fromBranch.branch_name;
  const to = sides.toBranch.branch_name;
  const forkDb = sides.fromBranch.database;
  const fork = deps.runOn(forkDb);
  if (sameDb(forkDb, sides.toBranch.database)) return parseMergeBase(await fork(buildMergeBaseQuery(to, from), { signal }));
  const found = await findForkMergeBase(fork, deps.runOn(sides.toBranch.database), { forkDb, from, to }, { signal });
  if (found.kind === 'none') throw new Error(`The pull comes from a fork and its merge base was not found: ${found.reason}`);
  return found.base;
}

export async function runPullChecks(deps: ChecksDeps, sides: ChecksSides, signal?: AbortSignal): Promise<PullChecks> {
  const from = sides.fromBranch.branch_name;
  const db = sides.fromBranch.database;
  const headRun = deps.runOn(db);
  const testsAt = (commit: string): Promise<SideRun> => {
    const cache = deps.cache;
    const work = (): Promise<SideRun> => runAt(headRun, commit, signal);
    return cache ? cache.runs.runAt({ hostId: cache.hostId, db, commit }, work) : work();
  };
  const head = side(async () => testsAt(parseHashOf(await headRun(buildHashOfQuery(from), { signal }))));
  const base = side(async () => testsAt(await mergeBase(deps, sides, signal)));
  let ci: CiRun[] = [];
  let ciError: string | undefined;
  try {
    ci = ciRunsFor(await deps.operations(sides.db, signal), from);
  } catch (e) {
    if (e instanceof Error && e.name === 'AbortError') throw e;
    ciError = e instanceof Error ? e.message : String(e);
  }
  const [b, h] = await Promise.all([base, head]);
  return { base: b, head: h, tests: compareRuns(b, h), ci, ...(ciError ? { ciError } : {}) };
}
