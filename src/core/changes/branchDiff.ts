// Every changed row of one table between two commits, read with the Changes view's own queries
// (keyset pages of DOLT_DIFF on the primary key), for the checks around proposing a change set:
// what the new branch holds against the base (the proof of what was sent), and what the target
// branch changed since the base (a stale base). Bounded: a diff past `maxRows` says so.
// Each query of DOLT_DIFF walks the whole table whatever its LIMIT, so these checks keep to as few
// as they can: the stale-base check reads the change set's own rows by key (./keyedDiff.ts), an
// index lookup per edited row; the proof reads the diff in one pass when it is the expected size.
import type { Cell } from '../../shared/wire';
import { loadDiffTableSpec, type PinnedChanges } from '../review/changesPin';
import { buildRowDiffPageQuery, buildRowDiffUnorderedQuery, type DiffPagePosition } from '../review/doltQueries';
import { ReviewResultError } from '../review/resultReader';
import { parseRowDiffPage, type RowDiff } from '../review/rowDiff';
import type { ReviewRunner } from '../sql/sqlPort';
import { readKeyedDiff } from './keyedDiff';
import { compareWithBranch, expectedRows, type ProposalDifference } from './proposalCheck';
import type { ProposalInput } from './proposalFiles';

export const BRANCH_DIFF_PAGE = 1000;

export interface BranchDiff {
  rows: RowDiff[];
  /** More rows changed than were read (`maxRows`). */
  truncated: boolean;
}

type Commits = { readonly from: string; readonly to: string };

/** The pair of commits and the table's columns at both, for the diff queries. */
async function diffOf(run: ReviewRunner, commits: Commits, table: string, signal?: AbortSignal) {
  const pair: PinnedChanges['pair'] = { kind: 'twoDot', from: commits.from, to: commits.to };
  const change = { table, fromTable: table, toTable: table, kind: 'modified', dataChanged: true, schemaChanged: false } as const;
  return { pair, spec: await loadDiffTableSpec(pair, change, run, signal) };
}

/** The table's row changes from `from` to `to` (two commit hashes), at most `maxRows` of them. */
export async function readTableDiff(
  run: ReviewRunner,
  commits: Commits,
  table: string,
  opts: { signal?: AbortSignal; maxRows?: number } = {},
): Promise<BranchDiff> {
  const { pair, spec } = await diffOf(run, commits, table, opts.signal);
  const rows: RowDiff[] = [];
  const max = opts.maxRows ?? 100_000;
  let position: DiffPagePosition = { kind: 'first' };
  for (;;) {
    const query = buildRowDiffPageQuery(pair, spec, { position, pageSize: BRANCH_DIFF_PAGE });
    const page = parseRowDiffPage(await run(query, { limit: BRANCH_DIFF_PAGE + 1, signal: opts.signal }), spec, BRANCH_DIFF_PAGE);
    if (!page.completeness.complete) {
      throw new ReviewResultError(`The server cut the diff of ${table} short (${page.completeness.reason}); it could not be read whole.`);
    }
    rows.push(...page.rows);
    if (rows.length >= max) return { rows: rows.slice(0, max), truncated: page.hasMore || rows.length > max };
    if (!page.hasMore) return { rows, truncated: false };
    position = page.nextAfter ? { kind: 'after', key: page.nextAfter as Cell[] } : { kind: 'offset', offset: rows.length };
  }
}

/**
 * The proof of what was sent: every way the branch's diff against the base (`to` is the branch's
 * head) differs from the change set. A diff that holds no row beyond the change set's count is
 * read whole in one pass of DOLT_DIFF (no sort, no pages: each query walks the whole table);
 * a bigger one, which means rows the change set did not make, is read in pages to name them all.
 * The query is sent at the base commit, a ref the person has been reading at (both sides are
 * commit hashes, so where it runs changes nothing in its answer).
 */
export async function proposalDifferences(
  run: ReviewRunner,
  input: ProposalInput,
  commits: Commits,
  signal?: AbortSignal,
): Promise<ProposalDifference[]> {
  const table = input.scope.table;
  const { pair, spec } = await diffOf(run, commits, table, signal);
  const expected = Math.max(1, expectedRows(input).size);
  const query = buildRowDiffUnorderedQuery(pair, spec, expected);
  const page = parseRowDiffPage(await run({ ...query, at: commits.from }, { limit: expected + 1, signal }), spec, expected);
  if (page.completeness.complete && !page.hasMore) return compareWithBranch(input, page.rows);
  return compareWithBranch(input, (await readTableDiff(run, commits, table, { signal })).rows);
}

/** The target branch's changes since the base to the rows the change set edits (others do not matter). */
export async function changesToEditedRows(
  run: ReviewRunner,
  input: ProposalInput,
  commits: Commits,
  signal?: AbortSignal,
): Promise<BranchDiff> {
  const keyed = await readKeyedDiff(run, input, commits, signal).catch((e: unknown) => {
    // The branch's table no longer has the base's columns: the diff reads both schemas.
    if (e instanceof ReviewResultError) return undefined;
    throw e;
  });
  return keyed ? { rows: keyed, truncated: false } : readTableDiff(run, commits, input.scope.table, { signal });
}
