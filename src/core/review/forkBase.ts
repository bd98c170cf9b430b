// The merge base of a cross-fork pull and whether the fork holds the target's head (issue #15,
// shared with #24's Checks and Resolve): the fork has the pull's head and all its ancestors; the
// merge base is the first commit of the fork head's log that the target branch can reach. The
// merge preview, the pull's Checks and Resolve all read it here, so they agree on one base.
import type { DatabaseRef } from '../../shared/wire';
import * as l10n from '../../shared/l10n';
import { buildHashOfQuery, buildLogQuery, buildReachableQuery } from './doltQueries';
import { firstReachable, parseCommitPage, parseHashOf, parseReachable } from './commitLog';
import { requireColumn, cellAt } from './resultReader';
import type { ReviewRunner } from '../sql/sqlPort';

export type ForkBase =
  { readonly kind: 'found'; readonly base: string; readonly head: string } | { readonly kind: 'none'; readonly reason: string };

export interface ForkBaseOptions {
  signal?: AbortSignal;
  /** Commits of the fork's log read (newest first); 1000 when not given. */
  depth?: number;
}

/** The merge base of `from` (a branch of `forkDb`, read by `fork`) and `to` (read by `target`), and the fork head's hash. */
export async function findForkMergeBase(
  fork: ReviewRunner,
  target: ReviewRunner,
  sides: { forkDb: DatabaseRef; from: string; to: string },
  opts: ForkBaseOptions = {},
): Promise<ForkBase> {
  const { signal } = opts;
  const { forkDb, from, to } = sides;
  const depth = opts.depth ?? 1000;
  const log = parseCommitPage(await fork(buildLogQuery(from, { pageSize: depth }), { signal, limit: depth + 1 }), depth);
  const hashes = log.items.map((c) => c.hash);
  if (hashes.length === 0) return { kind: 'none', reason: l10n.t('{0} of {1} has no commits.', from, `${forkDb.owner}/${forkDb.name}`) };
  const reachable = parseReachable(await target(buildReachableQuery(to, hashes), { signal, limit: hashes.length + 1 }));
  const base = firstReachable(hashes, reachable);
  if (base) return { kind: 'found', base, head: hashes[0]! };
  const reason =
    log.hasMore || !log.completeness.complete
      ? l10n.t('No common commit with {0} was found among the latest {1} commits of {2}.', to, hashes.length, from)
      : l10n.t('No common commit with {0} was found in the history of {1}.', to, from);
  return { kind: 'none', reason };
}

/** The current head of `to` in the target database. */
export async function targetHead(target: ReviewRunner, to: string, signal?: AbortSignal): Promise<string> {
  return parseHashOf(await target(buildHashOfQuery(to), { signal }));
}

/** Branches of the fork looked at for the target's head (beyond the pull's own branch). */
const MAX_FORK_BRANCHES = 50;

/**
 * Whether the fork holds `commit`: reachable from the pull's head `head`, or from another branch of
 * the fork (a fork whose main was updated from the target has its head though the pull's branch does not).
 */
export async function forkHasCommit(fork: ReviewRunner, head: string, commit: string, signal?: AbortSignal): Promise<boolean> {
  if (parseReachable(await fork(buildReachableQuery(head, [commit]), { signal })).has(commit)) return true;
  const r = await fork({ sql: 'SELECT name FROM dolt_branches ORDER BY name', at: head }, { signal, limit: MAX_FORK_BRANCHES });
  if (r.status !== 'success') return false;
  const i = requireColumn(r, 'name', 'branches');
  for (const row of r.rows) {
    const name = cellAt(row, i);
    if (typeof name !== 'string' || name === '') continue;
    let q;
    try {
      q = buildReachableQuery(name, [commit]);
    } catch {
      continue; // a name the revision syntax cannot carry
    }
    if (parseReachable(await fork(q, { signal })).has(commit)) return true;
  }
  return false;
}

/** Why the fork cannot be used to compare with the target's head, and the way out. */
export function missingTargetHeadText(forkDb: DatabaseRef, to: string, toHead: string, what: string): string {
  return l10n.t(
    "{0} does not have the current head of {1} ({2}), so {3}. Update the fork's branch from {1} first.",
    `${forkDb.owner}/${forkDb.name}`,
    to,
    toHead.slice(0, 8),
    what,
  );
}
