// What merging a pull request would do, asked before the merge (issue #15): the rows it changes
// per table (three-dot diff: what the from-branch changed since the merge base) and whether it
// would conflict (DOLT_PREVIEW_MERGE_CONFLICTS_SUMMARY), plus the first conflicting rows with
// base, ours and theirs. Every answer goes through doltQueries.ts and the review parsers; a
// partial answer is never called clean (mergeImpact says 'unknown').
//
// A cross-fork pull is read on the fork (docs/architecture.md, "Review: history and diffs"): the
// merge base is the first commit of the fork head's log the target branch can reach (forkBase.ts,
// shared with Checks and Resolve); the conflict preview is sent to the fork with the target head's
// hash, and when the fork does not have that commit on any branch the preview says it cannot be
// made rather than guessing.
import type { BranchRef, DatabaseRef } from '../../shared/wire';
import * as l10n from '../../shared/l10n';
import { buildConflictRowsQuery, buildConflictSummaryQuery, buildDiffStatQuery, buildDiffSummaryQuery } from './doltQueries';
import { findForkMergeBase, forkHasCommit, missingTargetHeadText, targetHead } from './forkBase';
import { parseConflictPage, type ConflictPage } from './conflicts';
import { bothComplete, type Completeness } from './resultReader';
import { threeDot, twoDot, type RevisionPair } from './revisions';
import type { ReviewRunner } from '../sql/sqlPort';
import {
  combineTableChanges,
  mergeImpact,
  parseConflictSummary,
  parseDiffStat,
  parseDiffSummary,
  type MergeImpact,
  type RowCounts,
  type TableChange,
} from './tableChanges';

/** The two branches of a pull request, as the API gives them. */
export interface MergeSides {
  /** The database the pull belongs to (where to_branch lives). */
  db: DatabaseRef;
  fromBranch: BranchRef;
  toBranch: BranchRef;
}

export type MergePreview =
  | {
      kind: 'ready';
      impact: MergeImpact;
      /** Both the counts and the conflict check came back whole. */
      completeness: Completeness;
      /** Where conflict rows are read: the database, and ours/theirs as the preview named them. */
      conflictsAt: { db: DatabaseRef; ours: string; theirs: string };
      /** The diff the counts come from (for a Changes view of the same pair). */
      pair: RevisionPair;
      diffDb: DatabaseRef;
    }
  /** The preview cannot be made (a cross-fork pull whose fork lacks the target head, no merge base). */
  | { kind: 'unavailable'; reason: string };

export interface MergePreviewOptions {
  signal?: AbortSignal;
  /** Commits of a fork's log read to find the merge base of a cross-fork pull. */
  forkLogDepth?: number;
}

const sameDb = (a: DatabaseRef, b: DatabaseRef): boolean => a.owner === b.owner && a.name === b.name;

/** Counts and conflicts of merging `sides.fromBranch` into `sides.toBranch`. */
export async function previewMerge(
  runOn: (db: DatabaseRef) => ReviewRunner,
  sides: MergeSides,
  opts: MergePreviewOptions = {},
): Promise<MergePreview> {
  const signal = opts.signal;
  const to = sides.toBranch.branch_name;
  const from = sides.fromBranch.branch_name;
  const target = runOn(sides.toBranch.database);
  if (sameDb(sides.fromBranch.database, sides.toBranch.database)) {
    const pair = threeDot(to, from);
    const [summary, stat, conflicts] = await Promise.all([
      target(buildDiffSummaryQuery(pair), { signal }),
      target(buildDiffStatQuery(pair), { signal }),
      target(buildConflictSummaryQuery(to, from), { signal }),
    ]);
    return ready(summary, stat, conflicts, { db: sides.toBranch.database, ours: to, theirs: from }, pair, sides.toBranch.database);
  }
  // Cross-fork: read on the fork, which has the head and all its ancestors.
  const forkDb = sides.fromBranch.database;
  const fork = runOn(forkDb);
  const found = await findForkMergeBase(fork, target, { forkDb, from, to }, { signal, depth: opts.forkLogDepth ?? 1000 });
  if (found.kind === 'none') return { kind: 'unavailable', reason: l10n.t('{0} The merge cannot be previewed.', found.reason) };
  const { base, head } = found;
  const toHead = await targetHead(target, to, signal);
  const pair = twoDot(base, head);
  const [summary, stat] = await Promise.all([fork(buildDiffSummaryQuery(pair), { signal }), fork(buildDiffStatQuery(pair), { signal })]);
  // The conflict preview needs both heads in one database: the fork, when it has the target's head.
  if (toHead !== base && !(await forkHasCommit(fork, head, toHead, signal)))
    return {
      kind: 'unavailable',
      reason: missingTargetHeadText(forkDb, to, toHead, l10n.t('whether the merge conflicts cannot be previewed')),
    };
  const conflicts = await fork(buildConflictSummaryQuery(toHead, head), { signal });
  return ready(summary, stat, conflicts, { db: forkDb, ours: toHead, theirs: head }, pair, forkDb);
}

function ready(
  summary: Parameters<typeof parseDiffSummary>[0],
  stat: Parameters<typeof parseDiffStat>[0],
  conflicts: Parameters<typeof parseConflictSummary>[0],
  conflictsAt: { db: DatabaseRef; ours: string; theirs: string },
  pair: RevisionPair,
  diffDb: DatabaseRef,
): MergePreview {
  const changes = combineTableChanges(parseDiffSummary(summary), parseDiffStat(stat));
  const conflictSummary = parseConflictSummary(conflicts);
  const impact = mergeImpact(changes, conflictSummary);
  return {
    kind: 'ready',
    impact,
    completeness: bothComplete(changes.completeness, conflictSummary.completeness),
    conflictsAt,
    pair,
    diffDb,
  };
}

/** The first `pageSize` conflicting rows of each table with data conflicts (at most `maxTables` tables). */
export async function previewConflictRows(
  runOn: (db: DatabaseRef) => ReviewRunner,
  preview: Extract<MergePreview, { kind: 'ready' }>,
  opts: { pageSize: number; maxTables: number; signal?: AbortSignal },
): Promise<{ table: string; page: ConflictPage }[]> {
  const run = runOn(preview.conflictsAt.db);
  const tables = preview.impact.conflictingTables.filter((t) => (t.dataConflicts ?? 0) > 0).slice(0, opts.maxTables);
  return Promise.all(
    tables.map(async (t) => ({
      table: t.table,
      page: parseConflictPage(
        await run(buildConflictRowsQuery(preview.conflictsAt.ours, preview.conflictsAt.theirs, t.table, { pageSize: opts.pageSize }), {
          signal: opts.signal,
          limit: opts.pageSize + 1,
        }),
        opts.pageSize,
      ),
    })),
  );
}

// ---------------------------------------------------------------- what the confirmation says

const rowsText = (n: number): string => (n === 1 ? l10n.t('1 row') : l10n.t('{0} rows', n));
const tablesText = (n: number): string => (n === 1 ? l10n.t('1 table') : l10n.t('{0} tables', n));
const schemaConflictsText = (n: number): string => (n === 1 ? l10n.t('1 schema conflict') : l10n.t('{0} schema conflicts', n));

/** `2 added, 1 modified, 1 removed` (only the kinds that occur; `rows changed` counts unknown modifications as such). */
export function rowCountsText(rows: RowCounts | undefined): string {
  if (!rows) return l10n.t('no row changes');
  const parts = [
    rows.added ? l10n.t('{0} added', rows.added) : '',
    rows.modified === null ? l10n.t('modified rows not counted') : rows.modified ? l10n.t('{0} modified', rows.modified) : '',
    rows.removed ? l10n.t('{0} removed', rows.removed) : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : l10n.t('no row changes');
}

function tableLine(t: TableChange): string {
  const marks = [
    t.kind === 'added'
      ? l10n.t('new table')
      : t.kind === 'dropped'
        ? l10n.t('table dropped')
        : t.kind === 'renamed'
          ? l10n.t('renamed from {0}', t.fromTable ?? '')
          : '',
    t.schemaChanged ? l10n.t('schema changed') : '',
  ].filter(Boolean);
  return `${t.table}: ${rowCountsText(t.rows)}${marks.length ? ` (${marks.join(', ')})` : ''}`;
}

/** The sentence about conflicts; never "clean" on a partial answer. */
export function conflictText(preview: Extract<MergePreview, { kind: 'ready' }>): string {
  const { impact } = preview;
  if (impact.willConflict === true) {
    const list = impact.conflictingTables
      .map((t) => {
        const kinds = [t.dataConflicts ? rowsText(t.dataConflicts) : '', t.schemaConflicts ? schemaConflictsText(t.schemaConflicts) : ''];
        return `${t.table} (${kinds.filter(Boolean).join(', ')})`;
      })
      .join(', ');
    return l10n.t('It will conflict in {0}: the merge fails until the conflicts are resolved on the branches.', list);
  }
  if (impact.willConflict === 'unknown') {
    const c = preview.completeness;
    return !c.complete && c.reason === 'timeout'
      ? l10n.t('Whether it conflicts is not known: the server timed out before the preview finished.')
      : !c.complete
        ? l10n.t('Whether it conflicts is not known: the server sent only part of the answer before the preview finished.')
        : l10n.t('Whether it conflicts is not known: the answer was incomplete before the preview finished.');
  }
  return l10n.t('No conflicts: it merges cleanly.');
}

/** The modal's detail: which tables change by how many rows, and whether it conflicts. */
export function mergeConfirmationDetail(preview: MergePreview, intro: string): string {
  if (preview.kind === 'unavailable') return `${intro}\n\n${l10n.t('No preview: {0}', preview.reason)}`;
  const { impact, completeness } = preview;
  const tables = impact.tables;
  const head =
    tables.length === 0
      ? l10n.t('It changes no tables.')
      : completeness.complete
        ? l10n.t('It changes {0} in {1}:', rowsText(impact.rowsChanged), tablesText(tables.length))
        : l10n.t('It changes at least {0} in {1}:', rowsText(impact.rowsChanged), tablesText(tables.length));
  return [intro, '', head, ...tables.map((t) => `• ${tableLine(t)}`), '', conflictText(preview)].join('\n');
}
