// Propose Changes… (issue #23): a table's change set becomes a branch made at the change set's
// base commit, the edits written onto it by imports, checked against what was typed, and a pull
// request into the target branch. On the branch of an open pull request the edits may instead be
// committed onto that branch, as a suggestion on the pull. Nothing else is ever written directly:
// a failure or a cancel leaves the change set as it was and names the branch if one was made (the
// API cannot delete branches). The files it uploads and the checks it makes are pure
// (src/core/changes/); the sending is ./proposeSend.ts.
import { changesToEditedRows } from '../core/changes/branchDiff';
import { defaultPullText, describeCounts, proposalCounts, suggestedBranchName, type ProposalInput } from '../core/changes/proposalFiles';
import { describeStaleRows, staleRows } from '../core/changes/staleBase';
import { refNameProblem } from '../core/review/revisions';
import type { PullTarget } from '../core/targets';
import type { Branch } from '../shared/wire';
import { rereadRows } from './proposeRows';
import { sendProposal } from './proposeSend';
import { dbOf, listAllBranches, openPullsFrom, type ChangeSetScope, type ProposalAnswers, type ProposeEnv } from './proposeTypes';

export type { ChangeSetAccess, ChangeSetScope, ProposalAnswers, ProposeEnv } from './proposeTypes';

/** Propose Changes…: the whole flow; resolves the pull request opened (or added to), or undefined. */
export async function proposeChanges(env: ProposeEnv, scope: ChangeSetScope): Promise<PullTarget | undefined> {
  let input = env.changeSets.snapshot(scope);
  const c = input ? proposalCounts(input) : undefined;
  if (!input || !c || c.changed + c.added + c.deleted === 0) return void env.ui.info(`There are no changes to ${scope.table} to propose.`);
  if (input.problems.length > 0) {
    return void env.ui.info(`${input.problems.length} marked cell(s) of ${scope.table} need fixing before the changes can be proposed.`);
  }
  const client = env.clientFor(scope.hostId);
  try {
    const { branches, pulls } = await env.ui.withProgress(`Reading the branches of ${scope.owner}/${scope.name}…`, async (_p, signal) => ({
      branches: await listAllBranches(client, dbOf(scope), signal),
      pulls: await openPullsFrom(client, dbOf(scope), scope.branch, signal),
    }));
    const where = await askWhere(env, input, pulls);
    if (!where) return undefined;
    const rebased = await checkStaleBase(env, input, branches, where === 'commit');
    if (!rebased) return undefined;
    input = rebased;
    const answers = where === 'commit' ? await askCommit(env, input, pulls[0]!) : await askProposal(env, input, branches);
    if (!answers) return undefined;
    return await sendProposal(env, input, answers);
  } catch (e) {
    env.ui.error(e, { action: `propose the changes to ${scope.table}`, hostId: scope.hostId });
    return undefined;
  }
}

/** A new branch and pull request; or, on the branch of an open pull request, a commit onto it (asked). */
async function askWhere(env: ProposeEnv, input: ProposalInput, pulls: readonly number[]): Promise<'pull' | 'commit' | undefined> {
  if (pulls.length === 0) return 'pull';
  const { branch, table } = input.scope;
  return env.ui.pick(
    [
      {
        label: `$(git-commit) Commit onto ${branch}`,
        description: `adds your edits to pull request #${pulls[0]}`,
        detail: 'A suggestion on that pull: needs write access to the branch.',
        value: 'commit' as const,
      },
      {
        label: '$(git-pull-request) New branch and pull request',
        description: `into ${branch} or another branch`,
        detail: 'Nothing reaches the branch until the pull request is merged.',
        value: 'pull' as const,
      },
    ],
    { title: `Propose changes to ${table}: ${branch} is the branch of pull request #${pulls[0]}`, placeholder: 'Where your edits go' },
  );
}

/**
 * When the branch moved since the base: the rows both changed are listed, and the person sends
 * anyway (not when committing onto the branch: that would write over the newer values), rebases
 * the change set onto the head, or stops. Resolves the change set to send.
 */
export async function checkStaleBase(
  env: ProposeEnv,
  input: ProposalInput,
  branches: readonly Branch[],
  committing = false,
): Promise<ProposalInput | undefined> {
  const { scope } = input;
  const head = branches.find((b) => b.name === scope.branch)?.head_commit_sha;
  if (!head || head === scope.baseCommit) return input;
  const review = env.sql.review(scope.hostId, dbOf(scope));
  const diff = await env.ui.withProgress(`Checking what ${scope.branch} changed since your edits began…`, (_p, signal) =>
    changesToEditedRows(review, input, { from: scope.baseCommit, to: head }, signal),
  );
  const stale = staleRows(input, diff.rows);
  if (stale.length === 0 && !diff.truncated && !committing) return input;
  const sendAnyway = 'Send Anyway';
  const rebase = `Rebase onto ${scope.branch}`;
  const many = diff.truncated ? ' (or more: the branch changed too many rows to compare them all)' : '';
  const answer = await env.ui.choose(
    `${scope.branch} changed ${stale.length.toLocaleString('en-US')} of the rows you edited since ${scope.baseCommit.slice(0, 8)}${many}.`,
    committing ? [rebase] : [rebase, sendAnyway],
    `${describeStaleRows(stale)}\n\n${committing ? '' : 'Send anyway: the pull request shows the conflict when it is merged. '}Rebase: your edits move onto ${scope.branch}'s head (${head.slice(0, 8)}), re-reading the edited rows there; edits the branch already made are dropped.`,
  );
  if (answer === sendAnyway) return input;
  if (answer !== rebase) return undefined;
  return rebaseOnto(env, input, head);
}

async function rebaseOnto(env: ProposeEnv, input: ProposalInput, head: string): Promise<ProposalInput | undefined> {
  const { scope } = input;
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
  return target === undefined ? undefined : { mode: 'pull', branch: branch.trim(), title: title.trim(), description, target };
}

/** A commit onto the pull's branch: its message (prefilled with the counts). */
async function askCommit(env: ProposeEnv, input: ProposalInput, pull: number): Promise<ProposalAnswers | undefined> {
  const title = await env.ui.input({
    title: `Commit onto ${input.scope.branch} (pull request #${pull}): commit message`,
    value: defaultPullText(input).title,
    validate: (v) => (v.trim() ? undefined : 'A commit needs a message.'),
  });
  return title === undefined ? undefined : { mode: 'commit', title: title.trim(), pull };
}
