// The last step of a proposal, once the branch holds the edits (./proposeSend.ts): the pull request,
// or for a suggestion the note on the pull, then the change set removed. Opening the pull can fail
// after everything else is written: the edits stay on their branch and the change set is kept, the
// error says so and offers the title and description again (Edit and Try Again opens the pull from
// that branch, so nothing is written twice). A note that fails is only said: the commit is made.
import { describeCounts, proposalCounts, type ProposalInput } from '../core/changes/proposalFiles';
import type { PullTarget } from '../core/targets';
import { dbOf, type ProposalAnswers, type ProposeEnv } from './proposeTypes';
import { askPullText } from './pullActions';
import * as l10n from '../shared/l10n';

type PullAnswers = Extract<ProposalAnswers, { mode: 'pull' }>;

/** Opens the pull (or notes the commit on it), removes the change set and shows the pull; undefined when the pull could not be opened. */
export async function finishProposal(
  env: ProposeEnv,
  input: ProposalInput,
  a: ProposalAnswers,
  head: string,
): Promise<PullTarget | undefined> {
  const { scope } = input;
  let target: PullTarget;
  if (a.mode === 'pull') {
    try {
      target = await openPull(env, input, a);
    } catch (e) {
      return void reportNotOpened(env, input, a, head, e);
    }
  } else {
    target = await noteOnPull(env, input, a, head);
  }
  await env.changeSets.remove(scope);
  env.refreshDatabase(scope.hostId, dbOf(scope), ['pulls']);
  const branch = a.mode === 'pull' ? a.branch : scope.branch;
  env.log.info(`proposed ${describeCounts(proposalCounts(input))} of ${scope.table} on ${branch} (pull #${target.pullNumber})`);
  await env.showPull(target);
  return target;
}

async function openPull(env: ProposeEnv, input: ProposalInput, a: PullAnswers): Promise<PullTarget> {
  const { scope } = input;
  const db = dbOf(scope);
  const pull = await env.clientFor(scope.hostId).createPull(db, {
    title: a.title,
    ...(a.description.trim() ? { description: a.description } : {}),
    from_branch: { database: db, branch_name: a.branch },
    to_branch: { database: db, branch_name: a.target },
  });
  return { hostId: scope.hostId, db, pullNumber: pull.pull_number };
}

/** The edits are on `a.branch`, the pull is not open: said, with the texts offered again. */
function reportNotOpened(env: ProposeEnv, input: ProposalInput, a: PullAnswers, head: string, e: unknown): void {
  const { scope } = input;
  env.ui.error(e, {
    action: l10n.t(
      'open the pull request from {0} into {1} (the branch holds your edits to {2}, checked; they are kept here until the pull request is open)',
      a.branch,
      a.target,
      scope.table,
    ),
    hostId: scope.hostId,
    unsent: { text: a.description, again: () => openAgain(env, input, a, head) },
  });
}

/** Edit and Try Again: the title and description asked again from what was written, then the pull opened from the same branch. */
async function openAgain(env: ProposeEnv, input: ProposalInput, a: PullAnswers, head: string): Promise<PullTarget | undefined> {
  const boxes = {
    title: l10n.t('Open the pull request from {0}: title', a.branch),
    description: l10n.t('Open the pull request from {0}: description (markdown)', a.branch),
  };
  const text = await askPullText(env.ui, boxes, a);
  return text ? finishProposal(env, input, { ...a, title: text.title.trim(), description: text.description }, head) : undefined;
}

/** A suggestion committed onto the pull's branch is said on the pull, so its conversation shows it. */
async function noteOnPull(
  env: ProposeEnv,
  input: ProposalInput,
  a: Extract<ProposalAnswers, { mode: 'commit' }>,
  head: string,
): Promise<PullTarget> {
  const { scope } = input;
  const db = a.note?.db ?? dbOf(scope);
  const target = { hostId: scope.hostId, db, pullNumber: a.pull };
  try {
    await env.clientFor(scope.hostId).createPullComment(db, a.pull, {
      body: a.note ? a.note.body(head) : `Committed suggested changes to \`${scope.table}\`: ${describeCounts(proposalCounts(input))}.`,
    });
  } catch (e) {
    // The commit is on the branch: the proposal is made; only its mention on the pull is missing.
    env.ui.error(e, {
      action: l10n.t('note the commit onto {0} on pull request #{1} (the edits are committed)', scope.branch, a.pull),
      hostId: scope.hostId,
    });
  }
  return target;
}
