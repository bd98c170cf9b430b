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
import * as l10n from '../shared/l10n';

export type { ChangeSetAccess, ChangeSetScope, ProposalAnswers, ProposeEnv } from './proposeTypes';

/** Propose Changes…: the whole flow; resolves the pull request opened (or added to), or undefined. */
export async function proposeChanges(env: ProposeEnv, scope: ChangeSetScope): Promise<PullTarget | undefined> {
  let input = env.changeSets.snapshot(scope);
  const c = input ? proposalCounts(input) : undefined;
  if (!input || !c || c.changed + c.added + c.deleted === 0)
    return void env.ui.info(l10n.t('There are no changes to {0} to propose.', scope.table));
  if (input.problems.length > 0) {
    return void env.ui.info(
      l10n.t('{0} marked cell(s) of {1} need fixing before the changes can be proposed.', input.problems.length, scope.table),
    );
  }
  const client = env.clientFor(scope.hostId);
  try {
    const { branches, pulls } = await env.ui.withProgress(
      l10n.t('Reading the branches of {0}/{1}…', scope.owner, scope.name),
      async (_p, signal) => ({
        branches: await listAllBranches(client, dbOf(scope), signal),
        pulls: await openPullsFrom(client, dbOf(scope), scope.branch, signal),
      }),
    );
    const where = await askWhere(env, input, pulls);
    if (!where) return undefined;
    const rebased = await checkStaleBase(env, input, branches, where === 'commit');
    if (!rebased) return undefined;
    input = rebased;
    const answers = where === 'commit' ? await askCommit(env, input, pulls[0]!) : await askProposal(env, input, branches);
    if (!answers) return undefined;
    return await sendProposal(env, input, answers);
  } catch (e) {
    env.ui.error(e, { action: l10n.t('propose the changes to {0}', scope.table), hostId: scope.hostId });
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
        label: l10n.t('$(git-commit) Commit onto {0}', branch),
        description: l10n.t('adds your edits to pull request #{0}', pulls[0]),
        detail: l10n.t('A suggestion on that pull: needs write access to the branch.'),
        value: 'commit' as const,
      },
      {
        label: l10n.t('$(git-pull-request) New branch and pull request'),
        description: l10n.t('into {0} or another branch', branch),
        detail: l10n.t('Nothing reaches the branch until the pull request is merged.'),
        value: 'pull' as const,
      },
    ],
    {
      title: l10n.t('Propose changes to {0}: {1} is the branch of pull request #{2}', table, branch, pulls[0]),
      placeholder: l10n.t('Where your edits go'),
    },
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
  const diff = await env.ui.withProgress(l10n.t('Checking what {0} changed since your edits began…', scope.branch), (_p, signal) =>
    changesToEditedRows(review, input, { from: scope.baseCommit, to: head }, signal),
  );
  const stale = staleRows(input, diff.rows);
  if (stale.length === 0 && !diff.truncated && !committing) return input;
  const sendAnyway = l10n.t('Send Anyway');
  const rebase = l10n.t('Rebase onto {0}', scope.branch);
  const many = diff.truncated ? l10n.t(' (or more: the branch changed too many rows to compare them all)') : '';
  const answer = await env.ui.choose(
    l10n.t(
      '{0} changed {1} of the rows you edited since {2}{3}.',
      scope.branch,
      stale.length.toLocaleString('en-US'),
      scope.baseCommit.slice(0, 8),
      many,
    ),
    committing ? [rebase] : [rebase, sendAnyway],
    l10n.t(
      "{0}\n\n{1}Rebase: your edits move onto {2}'s head ({3}), re-reading the edited rows there; edits the branch already made are dropped.",
      describeStaleRows(stale),
      committing ? '' : l10n.t('Send anyway: the pull request shows the conflict when it is merged. '),
      scope.branch,
      head.slice(0, 8),
    ),
  );
  if (answer === sendAnyway) return input;
  if (answer !== rebase) return undefined;
  return rebaseOnto(env, input, head);
}

async function rebaseOnto(env: ProposeEnv, input: ProposalInput, head: string): Promise<ProposalInput | undefined> {
  const { scope } = input;
  const rows = await env.ui.withProgress(l10n.t("Re-reading your edited rows at {0}'s head…", scope.branch), (_p, signal) =>
    rereadRows(env.sql, input, head, signal),
  );
  const moved = await env.changeSets.rebase(scope, head, rows);
  if (moved.problems.length > 0) {
    return void env.ui.info(
      l10n.t(
        'After the rebase {0} of your edits conflict with {1} (marked in the table); fix them, then propose again.',
        moved.problems.length,
        scope.branch,
      ),
    );
  }
  void env.ui.info(
    l10n.t(
      'Your changes to {0} now start from {1} at {2}: {3}.',
      scope.table,
      scope.branch,
      head.slice(0, 8),
      describeCounts(proposalCounts(moved)),
    ),
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
    title: l10n.t('Propose changes to {0} (1/4): new branch', scope.table),
    value: suggestedBranchName(scope.table, (env.now ?? (() => new Date()))(), taken),
    validate: (v) => refNameProblem(v.trim()) ?? (taken.has(v.trim()) ? `A branch named ${v.trim()} exists already.` : undefined),
  });
  if (branch === undefined) return undefined;
  const text = defaultPullText(input);
  const title = await env.ui.input({
    title: l10n.t('Propose changes (2/4): pull request title'),
    value: text.title,
    validate: (v) => (v.trim() ? undefined : 'A pull request needs a title.'),
  });
  if (title === undefined) return undefined;
  const description = await env.ui.input({
    title: l10n.t('Propose changes (3/4): description (markdown)'),
    value: text.description,
    lines: l10n.t('Pull request description'),
  });
  if (description === undefined) return undefined;
  const target = await env.ui.pick(
    branches.map((b) => ({
      label: b.name,
      description: b.name === scope.branch ? l10n.t('where the edits were made') : '',
      value: b.name,
      picked: b.name === scope.branch,
    })),
    { title: l10n.t('Propose changes (4/4): merge into'), placeholder: l10n.t('The branch the pull request asks to change') },
  );
  return target === undefined ? undefined : { mode: 'pull', branch: branch.trim(), title: title.trim(), description, target };
}

/** A commit onto the pull's branch: its message (prefilled with the counts). */
async function askCommit(env: ProposeEnv, input: ProposalInput, pull: number): Promise<ProposalAnswers | undefined> {
  const title = await env.ui.input({
    title: l10n.t('Commit onto {0} (pull request #{1}): commit message', input.scope.branch, pull),
    value: defaultPullText(input).title,
    validate: (v) => (v.trim() ? undefined : 'A commit needs a message.'),
  });
  return title === undefined ? undefined : { mode: 'commit', title: title.trim(), pull };
}
