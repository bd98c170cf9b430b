// Propose Changes… (issue #23): a table's change set becomes a branch made at the change set's
// base commit, the edits written onto it by imports, checked against what was typed, and a pull
// request into the target branch. Nothing is written to the target branch; a failure or a cancel
// leaves the change set as it was and names the branch if one was made (the API cannot delete
// branches). The files it uploads and the checks it makes are pure (src/core/changes/).
import type { HubClient } from '../api/index';
import { readTableDiff } from '../core/changes/branchDiff';
import { compareWithBranch, describeDifference, type ProposalDifference } from '../core/changes/proposalCheck';
import {
  defaultPullText,
  deleteSql,
  describeCounts,
  proposalCounts,
  suggestedBranchName,
  upsertJson,
  type ProposalInput,
} from '../core/changes/proposalFiles';
import { describeStaleRows, staleRows } from '../core/changes/staleBase';
import type { Logger } from '../core/logger';
import type { ChangesRequest } from '../core/review/requests';
import { refNameProblem } from '../core/review/revisions';
import type { SqlPort } from '../core/sql/sqlPort';
import type { PullTarget } from '../core/targets';
import type { Ui } from '../platform/ui';
import type { Branch, Cell, DatabaseRef } from '../shared/wire';
import { paginate } from '../api/pagination';
import { rereadRows } from './proposeRows';
import { importOntoBranch, type BranchImport, type ImportApi } from './proposeImports';

/** Which change set: the table, its database and branch, and the commit its edits were made on. */
export interface ChangeSetScope {
  readonly hostId: string;
  readonly owner: string;
  readonly name: string;
  readonly branch: string;
  readonly table: string;
  readonly baseCommit: string;
}

/** What proposing needs of the change sets kept in the workspace. */
export interface ChangeSetAccess {
  snapshot(scope: ChangeSetScope): ProposalInput | undefined;
  remove(scope: ChangeSetScope): Promise<void>;
  /** Moves the change set onto `newBase`, given its edited rows as they are there (null: gone). */
  rebase(scope: ChangeSetScope, newBase: string, rowsAtNewBase: ReadonlyMap<string, Cell[] | null>): Promise<ProposalInput>;
}

export type ProposeApi = ImportApi & Pick<HubClient, 'listBranches' | 'createBranch' | 'createPull'>;

export interface ProposeEnv {
  readonly ui: Ui;
  readonly log: Logger;
  clientFor(hostId: string): ProposeApi;
  readonly sql: Pick<SqlPort, 'review' | 'at'>;
  readonly changeSets: ChangeSetAccess;
  refreshDatabase(hostId: string, db: DatabaseRef, what: ('branches' | 'pulls' | 'operations')[]): void;
  showPull(target: PullTarget): Promise<unknown>;
  showChanges(request: ChangesRequest): Promise<unknown>;
  readonly now?: () => Date;
}

/** What the person answered. */
export interface ProposalAnswers {
  readonly branch: string;
  readonly title: string;
  readonly description: string;
  readonly target: string;
}

/** A step of the proposal failed; `branchMade` says whether the branch exists by then. */
class ProposalStepError extends Error {
  constructor(
    readonly step: string,
    readonly branchMade: boolean,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

const dbOf = (s: ChangeSetScope): DatabaseRef => ({ owner: s.owner, name: s.name });

async function listAllBranches(client: ProposeApi, db: DatabaseRef, signal?: AbortSignal): Promise<Branch[]> {
  const out: Branch[] = [];
  for await (const b of paginate((pageToken) => client.listBranches(db, { pageToken }, signal ? { signal } : {}))) out.push(b);
  return out;
}

/** Propose Changes…: the whole flow; resolves the pull request opened, or undefined. */
export async function proposeChanges(env: ProposeEnv, scope: ChangeSetScope): Promise<PullTarget | undefined> {
  let input = env.changeSets.snapshot(scope);
  if (!input || proposalCounts(input).changed + proposalCounts(input).added + proposalCounts(input).deleted === 0) {
    return void env.ui.info(`There are no changes to ${scope.table} to propose.`);
  }
  if (input.problems.length > 0) {
    return void env.ui.info(`${input.problems.length} marked cell(s) of ${scope.table} need fixing before the changes can be proposed.`);
  }
  const client = env.clientFor(scope.hostId);
  try {
    const branches = await env.ui.withProgress(`Reading the branches of ${scope.owner}/${scope.name}…`, (_p, signal) =>
      listAllBranches(client, dbOf(scope), signal),
    );
    const rebased = await checkStaleBase(env, input, branches);
    if (!rebased) return undefined;
    input = rebased;
    const answers = await askProposal(env, input, branches);
    if (!answers) return undefined;
    return await sendProposal(env, input, answers);
  } catch (e) {
    env.ui.error(e, { action: `propose the changes to ${scope.table}`, hostId: scope.hostId });
    return undefined;
  }
}

/**
 * When the branch moved since the base: the rows both changed are listed, and the person sends
 * anyway, rebases the change set onto the head, or stops. Resolves the change set to send.
 */
export async function checkStaleBase(
  env: ProposeEnv,
  input: ProposalInput,
  branches: readonly Branch[],
): Promise<ProposalInput | undefined> {
  const { scope } = input;
  const head = branches.find((b) => b.name === scope.branch)?.head_commit_sha;
  if (!head || head === scope.baseCommit) return input;
  const review = env.sql.review(scope.hostId, dbOf(scope));
  const diff = await env.ui.withProgress(`Checking what ${scope.branch} changed since your edits began…`, (_p, signal) =>
    readTableDiff(review, { from: scope.baseCommit, to: head }, scope.table, { signal }),
  );
  const stale = staleRows(input, diff.rows);
  if (stale.length === 0 && !diff.truncated) return input;
  const sendAnyway = 'Send Anyway';
  const rebase = `Rebase onto ${scope.branch}`;
  const answer = await env.ui.choose(
    `${scope.branch} changed ${stale.length.toLocaleString('en-US')} of the rows you edited since ${scope.baseCommit.slice(0, 8)}${diff.truncated ? ' (or more: the branch changed too many rows to compare them all)' : ''}.`,
    [rebase, sendAnyway],
    `${describeStaleRows(stale)}\n\nSend anyway: the pull request shows the conflict when it is merged. Rebase: your edits move onto ${scope.branch}'s head (${head.slice(0, 8)}), re-reading the edited rows there; edits the branch already made are dropped.`,
  );
  if (answer === sendAnyway) return input;
  if (answer !== rebase) return undefined;
  const rows = await env.ui.withProgress(`Re-reading your edited rows at ${scope.branch}'s head…`, (_p, signal) =>
    rereadRows(env.sql, input, head, signal),
  );
  const moved = await env.changeSets.rebase(scope, head, rows);
  if (moved.problems.length > 0) {
    return void env.ui.info(
      `After the rebase ${moved.problems.length} of your edits conflict with ${scope.branch} (marked in the table); fix them, then propose again.`,
    );
  }
  void env.ui.info(
    `Your changes to ${scope.table} now start from ${scope.branch} at ${head.slice(0, 8)}: ${describeCounts(proposalCounts(moved))}.`,
  );
  return moved;
}

/** The branch name (suggested), the title and description (prefilled with the counts) and the target branch. */
export async function askProposal(
  env: ProposeEnv,
  input: ProposalInput,
  branches: readonly Branch[],
): Promise<ProposalAnswers | undefined> {
  const { scope } = input;
  const taken = new Set(branches.map((b) => b.name));
  const branch = await env.ui.input({
    title: `Propose changes to ${scope.table} (1/4): new branch`,
    value: suggestedBranchName(scope.table, (env.now ?? (() => new Date()))(), taken),
    validate: (v) => refNameProblem(v.trim()) ?? (taken.has(v.trim()) ? `A branch named ${v.trim()} exists already.` : undefined),
  });
  if (branch === undefined) return undefined;
  const text = defaultPullText(input);
  const title = await env.ui.input({
    title: 'Propose changes (2/4): pull request title',
    value: text.title,
    validate: (v) => (v.trim() ? undefined : 'A pull request needs a title.'),
  });
  if (title === undefined) return undefined;
  const description = await env.ui.input({ title: 'Propose changes (3/4): description (markdown)', value: text.description });
  if (description === undefined) return undefined;
  const target = await env.ui.pick(
    branches.map((b) => ({
      label: b.name,
      description: b.name === scope.branch ? 'where the edits were made' : '',
      value: b.name,
      picked: b.name === scope.branch,
    })),
    { title: 'Propose changes (4/4): merge into', placeholder: 'The branch the pull request asks to change' },
  );
  return target === undefined ? undefined : { branch: branch.trim(), title: title.trim(), description, target };
}

/** Branch, imports, proof, pull request: one cancellable progress notification with its steps. */
export async function sendProposal(env: ProposeEnv, input: ProposalInput, a: ProposalAnswers): Promise<PullTarget | undefined> {
  const { scope } = input;
  const db = dbOf(scope);
  let outcome: { head: string; differences: ProposalDifference[] };
  try {
    outcome = await env.ui.withProgress(`Proposing changes to ${scope.table}`, (progress, signal) =>
      writeBranch(env, input, a, (m) => progress.report(m), signal),
    );
  } catch (e) {
    env.refreshDatabase(scope.hostId, db, ['branches', 'operations']);
    return void reportStepFailure(env, input, a, e);
  } finally {
    env.refreshDatabase(scope.hostId, db, ['branches', 'operations']);
  }
  if (outcome.differences.length > 0 && !(await acceptDifferences(env, input, a, outcome))) return undefined;
  const pull = await env.clientFor(scope.hostId).createPull(db, {
    title: a.title,
    ...(a.description.trim() ? { description: a.description } : {}),
    from_branch: { database: db, branch_name: a.branch },
    to_branch: { database: db, branch_name: a.target },
  });
  const target: PullTarget = { hostId: scope.hostId, db, pullNumber: pull.pull_number };
  await env.changeSets.remove(scope);
  env.refreshDatabase(scope.hostId, db, ['pulls']);
  env.log.info(`proposed ${describeCounts(proposalCounts(input))} of ${scope.table} as pull #${pull.pull_number} from ${a.branch}`);
  await env.showPull(target);
  return target;
}

async function writeBranch(
  env: ProposeEnv,
  input: ProposalInput,
  a: ProposalAnswers,
  report: (message: string) => void,
  signal: AbortSignal,
): Promise<{ head: string; differences: ProposalDifference[] }> {
  const { scope } = input;
  const client = env.clientFor(scope.hostId);
  const db = dbOf(scope);
  const step = async <T>(name: string, made: boolean, run: () => Promise<T>): Promise<T> => {
    report(name);
    try {
      return await run();
    } catch (e) {
      throw new ProposalStepError(name, made, e);
    }
  };
  await step(`1/4 Creating the branch ${a.branch} at ${scope.baseCommit.slice(0, 8)}…`, false, () =>
    client.createBranch(db, { name: a.branch, from: { commit: scope.baseCommit } }, { signal }),
  );
  await writeEdits(
    input,
    a,
    (name, run) => step(name, true, run),
    (imp) => importOntoBranch(client, db, imp, signal),
  );
  return step('4/4 Checking the branch against your edits…', true, async () => {
    const head = (await listAllBranches(client, db, signal)).find((b) => b.name === a.branch)?.head_commit_sha;
    if (!head) throw new Error(`The branch ${a.branch} is not there after the imports.`);
    const diff = await readTableDiff(env.sql.review(scope.hostId, db), { from: scope.baseCommit, to: head }, scope.table, { signal });
    return { head, differences: compareWithBranch(input, diff.rows) };
  });
}

/** Steps 2 and 3: the upserts as an `update` import of JSON, then the deletes as a `sql` import. */
async function writeEdits(
  input: ProposalInput,
  a: ProposalAnswers,
  step: (name: string, run: () => Promise<void>) => Promise<void>,
  write: (imp: BranchImport) => Promise<void>,
): Promise<void> {
  const { table } = input.scope;
  const counts = proposalCounts(input);
  const upserts = upsertJson(input);
  if (upserts) {
    const imp: BranchImport = {
      bytes: upserts,
      fileType: 'json',
      operation: 'update',
      branch: a.branch,
      table,
      fileName: `${table}-edits.json`,
      message: `Edit ${table}: ${describeCounts({ ...counts, deleted: 0 })}`,
    };
    await step(`2/4 Writing ${describeCounts({ ...counts, deleted: 0 })}…`, () => write(imp));
  }
  const deletes = deleteSql(input);
  if (deletes) {
    const imp: BranchImport = {
      bytes: deletes,
      fileType: 'sql',
      operation: 'update',
      branch: a.branch,
      table,
      fileName: `${table}-deletes.sql`,
      message: `Delete ${counts.deleted} row(s) of ${table}`,
    };
    await step(`3/4 Deleting ${counts.deleted.toLocaleString('en-US')} row(s)…`, () => write(imp));
  }
}

/** The branch does not read as the change set: say how, and open the pull request only if asked. */
async function acceptDifferences(
  env: ProposeEnv,
  input: ProposalInput,
  a: ProposalAnswers,
  outcome: { head: string; differences: ProposalDifference[] },
): Promise<boolean> {
  const { scope } = input;
  const lines = outcome.differences.slice(0, 12).map(describeDifference);
  if (outcome.differences.length > 12) lines.push(`… and ${outcome.differences.length - 12} more`);
  const openAnyway = 'Open the Pull Request Anyway';
  const show = 'Show the Branch’s Changes';
  const answer = await env.ui.choose(
    `The branch ${a.branch} does not hold exactly your edits to ${scope.table} (${outcome.differences.length} difference(s)).`,
    [openAnyway, show],
    `${lines.join('\n')}\n\nYour changes are kept. The branch ${a.branch} stays as it is.`,
  );
  if (answer === show) {
    await env.showChanges({
      kind: 'refs',
      target: { hostId: scope.hostId, db: dbOf(scope) },
      from: scope.baseCommit,
      to: outcome.head,
      table: scope.table,
    });
  }
  return answer === openAnyway;
}

function reportStepFailure(env: ProposeEnv, input: ProposalInput, a: ProposalAnswers, e: unknown): void {
  const { scope } = input;
  const failure = e instanceof ProposalStepError ? e : new ProposalStepError('sending', false, e);
  const cancelled = failure.cause instanceof Error && failure.cause.name === 'AbortError';
  const where = failure.branchMade
    ? ` The branch ${a.branch} was created and may hold part of the edits; the API cannot delete branches: delete it on the web, or propose again with another name.`
    : ' Nothing was written.';
  const kept = ` Your ${describeCounts(proposalCounts(input))} to ${scope.table} are kept.`;
  if (cancelled) return void env.ui.info(`Proposing was cancelled at "${failure.step}".${where}${kept}`);
  env.ui.error(failure.cause, {
    action: `propose the changes to ${scope.table} (${failure.step.replace(/…$/, '')})${where}${kept}`,
    hostId: scope.hostId,
  });
}
