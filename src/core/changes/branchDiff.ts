// Every changed row of one table between two commits, read with the Changes view's own queries
// (keyset pages of DOLT_DIFF on the primary key), for the checks around proposing a change set:
// what the new branch holds against the base (the proof of what was sent), and what the target
// branch changed since the base (a stale base). Bounded: a diff past `maxRows` says so.
import type { Cell } from '../../shared/wire';
import { loadDiffTableSpec, type PinnedChanges } from '../review/changesPin';
import { buildRowDiffPageQuery, type DiffPagePosition } from '../review/doltQueries';
import { ReviewResultError } from '../review/resultReader';
import { parseRowDiffPage, type RowDiff } from '../review/rowDiff';
import type { ReviewRunner } from '../sql/sqlPort';

export const BRANCH_DIFF_PAGE = 1000;

export interface BranchDiff {
  rows: RowDiff[];
  /** More rows changed than were read (`maxRows`). */
  truncated: boolean;
}

/** The table's row changes from `from` to `to` (two commit hashes), at most `maxRows` of them. */
export async function readTableDiff(
  run: ReviewRunner,
  commits: { readonly from: string; readonly to: string },
  table: string,
  opts: { signal?: AbortSignal; maxRows?: number } = {},
): Promise<BranchDiff> {
  const pair: PinnedChanges['pair'] = { kind: 'twoDot', from: commits.from, to: commits.to };
  const spec = await loadDiffTableSpec(
    pair,
    { table, fromTable: table, toTable: table, kind: 'modified', dataChanged: true, schemaChanged: false },
    run,
    opts.signal,
  );
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
