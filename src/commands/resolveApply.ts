// Settling a conflicting pull (issue #24): read the three versions of every table the pull changes
// (pinned to hashes), then apply the choices one of two ways (src/core/review/conflictResolution.ts
// says which): onto the pull's own branch as one `update` import per table, when that settles them;
// otherwise the pull's changes rebuilt on the target's head with the choices, as a new branch and a
// new pull that names the old one, which gets a comment linking it. Nothing is ever written to the
// target branch. A pull from a fork is read and written in the fork (the pull author's database,
// where the user may write), provided the fork holds the target's head; otherwise it is refused. No vscode: the hub test drives it with a real client.
import type { HubClient } from '../api/index';
import { paginate } from '../api/pagination';
import type { BranchRef, Cell, DatabaseRef, Pull, QueryResult } from '../shared/wire';
import { BINARY_CELL } from '../shared/wire';
import type { ReviewRunner } from '../core/sql/sqlPort';
import { quoteIdentifier, sqlCount } from '../core/sql/quote';
import { buildDiffSummaryQuery, buildHashOfQuery, buildMergeBaseQuery } from '../core/review/doltQueries';
import { forkHasCommit, missingTargetHeadText, targetHead } from '../core/review/forkBase';
import { parseHashOf, parseMergeBase } from '../core/review/commitLog';
import { parseDiffSummary, type TableChange } from '../core/review/tableChanges';
import { twoDot } from '../core/review/revisions';
import {
  branchRows,
  findConflicts,
  mergedRows,
  rowsJson,
  settlesOnBranch,
  unsettleable,
  NO_CHOICES,
  type Choices,
  type TableConflicts,
  type TableVersion,
} from '../core/review/conflictResolution';
import { importOntoBranch, type ImportApi } from './proposeImports';
import { parseColumnsOf } from '../core/sql/tableCatalog';
import type { TableColumnInfo } from '../core/sql/tableQuery';
import * as l10n from '../shared/l10n';

/** Rows of one table read per version; a larger table is refused (said so, not cut). */
export const MAX_TABLE_ROWS = 10_000;

export interface ResolutionTable {
  readonly table: string;
  readonly base: TableVersion;
  readonly ours: TableVersion;
  readonly theirs: TableVersion;
  readonly conflicts: TableConflicts;
  /** Its columns at the target's head, for the typed checks of a typed value. */
  readonly columnInfo: readonly TableColumnInfo[];
  /** Why this table cannot be settled cell by cell. */
  readonly refusal?: string;
}

export interface Resolution {
  readonly pull: Pull;
  readonly commits: { readonly base: string; readonly ours: string; readonly theirs: string };
  /** Where the versions were read and where Apply writes: the pull's own database (the fork for a pull from one). */
  readonly readIn: DatabaseRef;
  /** Every table the pull changes, conflicting or not (a rebuild carries all of them). */
  readonly tables: readonly ResolutionTable[];
}

const EMPTY: TableVersion = { columns: [], keyColumns: [], rows: [] };

async function readVersion(run: ReviewRunner, table: string, commit: string, signal?: AbortSignal): Promise<TableVersion> {
  const r: QueryResult = await run(
    { sql: `SELECT * FROM ${quoteIdentifier(table)} LIMIT ${sqlCount(MAX_TABLE_ROWS + 1)}`, at: commit },
    { limit: MAX_TABLE_ROWS + 1, signal },
  );
  if (r.status !== 'success') {
    if (/no such table|not found|doesn't exist/i.test(r.message ?? '')) return EMPTY;
    throw new Error(`Reading ${table} at ${commit.slice(0, 8)}: ${r.message ?? r.status}`);
  }
  if (r.rows.length > MAX_TABLE_ROWS) throw new Error(`${table} has more than ${MAX_TABLE_ROWS} rows: too large to settle here.`);
  return {
    columns: r.columns.map((c) => c.name),
    keyColumns: r.columns.flatMap((c, i) => (c.is_primary_key ? [i] : [])),
    rows: r.rows,
  };
}

const pinned = async (
  run: ReviewRunner,
  q: { sql: string; at: string },
  parse: (r: QueryResult) => string,
  signal?: AbortSignal,
): Promise<string> => parse(await run(q, { signal }));

const sameDb = (a: DatabaseRef, b: DatabaseRef): boolean => a.owner === b.owner && a.name === b.name;

/**
 * The three commits, pinned, and where they are read. A pull from a fork is read in the fork (the
 * target's head read in the target, then looked for in the fork), which must hold that head.
 */
async function pinCommits(
  runOn: (db: DatabaseRef) => ReviewRunner,
  pull: Pull,
  signal?: AbortSignal,
): Promise<{ run: ReviewRunner; readIn: DatabaseRef; commits: Resolution['commits'] }> {
  const from = pull.from_branch;
  const to = pull.to_branch;
  const readIn = from.database;
  const run = runOn(readIn);
  const ours = await targetHead(runOn(to.database), to.branch_name, signal);
  const theirs = await pinned(run, buildHashOfQuery(from.branch_name), parseHashOf, signal);
  if (!sameDb(readIn, to.database) && !(await forkHasCommit(run, theirs, ours, signal)))
    throw new Error(missingTargetHeadText(readIn, to.branch_name, ours, l10n.t('its conflicts cannot be settled there')));
  const base = await pinned(run, buildMergeBaseQuery(ours, theirs), parseMergeBase, signal);
  return { run, readIn, commits: { base, ours, theirs } };
}

async function readTable(run: ReviewRunner, change: TableChange, c: Resolution['commits'], signal?: AbortSignal): Promise<ResolutionTable> {
  const table = change.table;
  const [b, o, t] = [
    await readVersion(run, table, c.base, signal),
    await readVersion(run, table, c.ours, signal),
    await readVersion(run, table, c.theirs, signal),
  ];
  const refusal =
    change.kind !== 'modified' || change.schemaChanged
      ? 'The pull adds, drops, renames or reshapes this table: only row changes can be settled here.'
      : unsettleable(b, o, t);
  const columnInfo = refusal ? [] : parseColumnsOf(table, await run({ sql: `DESCRIBE ${quoteIdentifier(table)}`, at: c.ours }, { signal }));
  return {
    table,
    columnInfo,
    base: b,
    ours: o,
    theirs: t,
    conflicts: refusal ? { cells: [], rows: [] } : findConflicts(b, o, t),
    ...(refusal ? { refusal } : {}),
  };
}

/** Reads what settling `pull` needs. A cross-fork pull is read in the fork, where its branch lives. */
export async function readResolution(runOn: (db: DatabaseRef) => ReviewRunner, pull: Pull, signal?: AbortSignal): Promise<Resolution> {
  const { run, readIn, commits } = await pinCommits(runOn, pull, signal);
  const summary = parseDiffSummary(await run(buildDiffSummaryQuery(twoDot(commits.base, commits.theirs)), { signal }));
  const tables: ResolutionTable[] = [];
  for (const change of summary.tables) tables.push(await readTable(run, change, commits, signal));
  return { pull, readIn, commits, tables };
}

/** `rebuild` makes its branch in `in` (the pull's own database) at the head of `onto`, and opens the pull to `onto`. */
export type ResolutionPlan =
  | { readonly kind: 'onBranch'; readonly branch: BranchRef }
  | { readonly kind: 'rebuild'; readonly onto: BranchRef; readonly in: DatabaseRef };

/** Which way Apply goes, said in the view before it does. */
/** The choices of each table, by table name (row keys repeat across tables). */
export type TableChoices = ReadonlyMap<string, Choices>;

export function planResolution(r: Resolution, choices: TableChoices): ResolutionPlan {
  return settlesOnBranch(r.tables.map((t) => ({ conflicts: t.conflicts, choices: choices.get(t.table) ?? NO_CHOICES })))
    ? { kind: 'onBranch', branch: r.pull.from_branch }
    : { kind: 'rebuild', onto: r.pull.to_branch, in: r.readIn };
}

export function describePlan(r: Resolution, plan: ResolutionPlan): string {
  const n = r.pull.pull_number;
  const name = (db: DatabaseRef): string => `${db.owner}/${db.name}`;
  return plan.kind === 'onBranch'
    ? l10n.t(
        "Every conflicting cell takes the target's value: it is written in {0} onto the pull's branch {1} (one update import per table), and pull request #{2} then merges cleanly.",
        name(plan.branch.database),
        plan.branch.branch_name,
        n,
      )
    : l10n.t(
        "Some cells take the pull's value or a typed one, which the pull's branch cannot settle: a new branch is made in {0} at the head of {1} with every change of pull request #{2} and your choices, a new pull request is opened from it to {3}, and #{2} gets a comment linking it. Nothing is written to {1} of {3}.",
        name(plan.in),
        plan.onto.branch_name,
        n,
        name(plan.onto.database),
      );
}

export type ResolveApi = ImportApi & Pick<HubClient, 'createBranch' | 'createPull' | 'createPullComment' | 'listBranches'>;

export type ApplyOutcome =
  | { readonly kind: 'onBranch'; readonly pullNumber: number }
  /** `unnoted`: why the old pull got no comment naming the new one (the rebuild itself is done). */
  | { readonly kind: 'rebuild'; readonly pullNumber: number; readonly branch: string; readonly unnoted?: string };

/**
 * `base`, or `base-2`, `base-3`…: the first name no branch of `db` has. An earlier Apply that failed
 * after making its branch left that name taken (the API cannot delete branches).
 */
async function freeBranchName(api: ResolveApi, db: DatabaseRef, base: string, signal: AbortSignal): Promise<string> {
  const taken = new Set<string>();
  for await (const b of paginate((pageToken) => api.listBranches(db, { pageToken }, { signal }))) taken.add(b.name);
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  return name;
}

/** An error's message as a sentence (a full stop added when it has none), for a message that goes on after it. */
function sentence(e: unknown): string {
  const why = e instanceof Error ? e.message : String(e);
  return /[.!?…]$/.test(why) ? why : `${why}.`;
}

function noBinary(table: string, rows: readonly (readonly Cell[])[]): void {
  if (rows.some((r) => r.some((v) => v === BINARY_CELL)))
    throw new Error(`${table} holds binary values, which cannot be written back from here.`);
}

/** One JSON import of `rows` into `table` on `branch`, waited for. */
function jsonImport(
  api: ResolveApi,
  db: DatabaseRef,
  what: {
    table: string;
    columns: readonly string[];
    rows: readonly (readonly Cell[])[];
    operation: 'update' | 'replace';
    branch: string;
    message: string;
  },
  signal: AbortSignal,
): Promise<void> {
  noBinary(what.table, what.rows);
  const imp = {
    bytes: rowsJson(what.columns, what.rows),
    fileType: 'json',
    operation: what.operation,
    branch: what.branch,
    table: what.table,
    fileName: `${what.table}.json`,
    message: what.message,
  } as const;
  return importOntoBranch(api, db, imp, signal);
}

/** Apply onto the pull's branch stopped after writing some of its tables there: they stay written. */
export class PartlyAppliedError extends Error {}

/**
 * Applies the choices; throws before writing when a table cannot be settled or a conflict has no
 * choice. `written`: the tables an earlier Apply of the same resolution wrote onto the pull's
 * branch before it failed (the plan was every cell ours then, as it is whenever it writes there),
 * skipped now and added to as tables are written.
 */
export async function applyResolution(
  api: ResolveApi,
  r: Resolution,
  choices: TableChoices,
  opts: { newBranch: string; signal: AbortSignal; written?: Set<string> },
): Promise<ApplyOutcome> {
  const plan = planResolution(r, choices);
  const n = r.pull.pull_number;
  if (plan.kind === 'onBranch') {
    await writeOnBranch(api, r, plan.branch, opts.written ?? new Set(), opts.signal);
    return { kind: 'onBranch', pullNumber: n };
  }
  const { signal } = opts;
  // A rebuild carries every table the pull changes, so one it cannot read cell by cell stops it.
  const refused = r.tables.find((t) => t.refusal !== undefined);
  if (refused) throw new Error(`${refused.table}: ${refused.refusal}`);
  const merged = r.tables.map((t) => ({ t, rows: mergedRows(t.base, t.ours, t.theirs, choices.get(t.table) ?? NO_CHOICES) }));
  for (const m of merged) noBinary(m.t.table, m.rows);
  // The branch is made where the pull's branch lives (the fork for a pull from one: the target's
  // head is there, pinCommits checked), at the target head's commit; the pull goes to the target.
  const pull = await writeRebuild(api, r, plan, merged, opts);
  // The rebuild is done once the new pull is open; a comment that fails is only said.
  const body = `The conflicts of this pull request are settled in #${pull.pullNumber}.`;
  const unnoted = await api.createPullComment(plan.onto.database, n, { body }, { signal }).then(
    () => undefined,
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
  return { kind: 'rebuild', pullNumber: pull.pullNumber, branch: pull.branch, ...(unnoted !== undefined ? { unnoted } : {}) };
}

/** Every cell ours: each conflicting table imported onto the pull's branch in turn; a failure after the first says which are written. */
async function writeOnBranch(api: ResolveApi, r: Resolution, branch: BranchRef, written: Set<string>, signal: AbortSignal): Promise<void> {
  const message = `Settle the conflicts of pull request #${r.pull.pull_number}`;
  for (const t of r.tables) {
    if (t.conflicts.cells.length === 0 || written.has(t.table)) continue;
    const rows = branchRows(t.theirs, t.conflicts);
    const what = { table: t.table, columns: t.theirs.columns, rows, operation: 'update', branch: branch.branch_name, message } as const;
    try {
      await jsonImport(api, branch.database, what, signal);
    } catch (e) {
      if (written.size === 0) throw e;
      throw new PartlyAppliedError(
        l10n.t(
          'Writing {0} failed: {1} Already written onto {2}: {3}. Apply again writes the rest.',
          t.table,
          sentence(e),
          branch.branch_name,
          [...written].join(', '),
        ),
        { cause: e },
      );
    }
    written.add(t.table);
  }
}

/**
 * The rebuild's branch (the next free name) at the target's head with the merged tables, and its
 * pull into the target. A failure after the branch is made names it: the API cannot delete it.
 */
async function writeRebuild(
  api: ResolveApi,
  r: Resolution,
  plan: Extract<ReturnType<typeof planResolution>, { kind: 'rebuild' }>,
  merged: readonly { t: Resolution['tables'][number]; rows: Cell[][] }[],
  opts: { newBranch: string; signal: AbortSignal },
): Promise<{ pullNumber: number; branch: string }> {
  const { signal } = opts;
  const n = r.pull.pull_number;
  const message = `Settle the conflicts of pull request #${n}`;
  const db = plan.in;
  const branch = await freeBranchName(api, db, opts.newBranch, signal);
  await api.createBranch(db, { name: branch, from: { commit: r.commits.ours } }, { signal });
  try {
    for (const { t, rows } of merged)
      await jsonImport(api, db, { table: t.table, columns: t.ours.columns, rows, operation: 'replace', branch, message }, signal);
    const pull = await api.createPull(
      plan.onto.database,
      {
        title: l10n.t('{0} (conflicts settled)', r.pull.title),
        description: l10n.t('Rebuilds pull request #{0} on {1} with its conflicts settled cell by cell.', n, plan.onto.branch_name),
        from_branch: { database: db, branch_name: branch },
        to_branch: plan.onto,
      },
      { signal },
    );
    return { pullNumber: pull.pull_number, branch };
  } catch (e) {
    throw new Error(
      l10n.t(
        '{0} The branch {1} was made in {2}/{3} and may hold part of the settled tables (the API cannot delete branches); Apply again makes a new one.',
        sentence(e),
        branch,
        db.owner,
        db.name,
      ),
      { cause: e },
    );
  }
}
