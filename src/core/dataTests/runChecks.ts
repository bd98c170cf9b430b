// Runs a pull's checks (issue #24): the tests at the merge base and at the head, each pinned to a
// commit hash first (so a branch that moves mid-run cannot mix two states), and the CI runs of the
// pull's branch. Through the SQL port's review runner and one API list call; no vscode.
import type { BranchRef, DatabaseRef, Operation } from '../../shared/wire';
import type { ReviewRunner } from '../sql/sqlPort';
import { buildHashOfQuery, buildMergeBaseQuery } from '../review/doltQueries';
import { parseHashOf, parseMergeBase } from '../review/commitLog';
import { LIST_TESTS_SQL, readRun, readTests, runTestsSql } from './dataTests';
import { ciRunsFor, compareRuns, type CiRun, type PullChecks, type SideRun } from './pullChecks';

export interface ChecksSides {
  db: DatabaseRef;
  fromBranch: BranchRef;
  toBranch: BranchRef;
}

export interface ChecksDeps {
  runOn(db: DatabaseRef): ReviewRunner;
  /** The first page of the database's operations (newest first). */
  operations(db: DatabaseRef, signal?: AbortSignal): Promise<readonly Operation[]>;
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

export async function runPullChecks(deps: ChecksDeps, sides: ChecksSides, signal?: AbortSignal): Promise<PullChecks> {
  const from = sides.fromBranch.branch_name;
  const to = sides.toBranch.branch_name;
  const headRun = deps.runOn(sides.fromBranch.database);
  const head = side(async () => runAt(headRun, parseHashOf(await headRun(buildHashOfQuery(from), { signal })), signal));
  const base = sameDb(sides.fromBranch.database, sides.toBranch.database)
    ? side(async () => runAt(headRun, parseMergeBase(await headRun(buildMergeBaseQuery(to, from), { signal })), signal))
    : Promise.resolve<SideRun>({
        kind: 'notRun',
        reason: 'The pull comes from a fork: its merge base is not read here, so the tests are compared with nothing.',
      });
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
