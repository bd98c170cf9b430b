// Sending a proposal (./proposeChanges.ts asked where): one cancellable progress notification with
// its steps. A new branch at the base commit (or the pull's own branch, for a suggestion), the
// upserts as an `update` import of JSON, the deletes as a `sql` import, the proof (the branch's
// diff against the base held to the change set), then the pull request or a note on the pull
// (./proposePull.ts). A failed step says which, and whether a branch exists by then; the change set
// is kept.
import { proposalDifferences } from '../core/changes/branchDiff';
import { describeDifference, type ProposalDifference } from '../core/changes/proposalCheck';
import { deleteSql, describeCounts, proposalCounts, upsertJson, type ProposalInput } from '../core/changes/proposalFiles';
import type { PullTarget } from '../core/targets';
import { importOntoBranch, type BranchImport } from './proposeImports';
import { dbOf, listAllBranches, type ProposalAnswers, type ProposeEnv } from './proposeTypes';
import { finishProposal } from './proposePull';
import * as l10n from '../shared/l10n';

/** A step of the proposal failed; `written` says whether anything exists by then (a branch, a commit). */
class ProposalStepError extends Error {
  constructor(
    readonly step: string,
    readonly written: boolean,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

interface Written {
  /** The branch written to, and its head after the imports. */
  readonly branch: string;
  readonly head: string;
  readonly differences: ProposalDifference[];
}

/** The branch the edits are written to. */
const branchOf = (input: ProposalInput, a: ProposalAnswers): string => (a.mode === 'pull' ? a.branch : input.scope.branch);

export async function sendProposal(env: ProposeEnv, input: ProposalInput, a: ProposalAnswers): Promise<PullTarget | undefined> {
  const { scope } = input;
  const db = dbOf(scope);
  let written: Written;
  try {
    written = await env.ui.withProgress(l10n.t('Proposing changes to {0}', scope.table), (progress, signal) =>
      writeBranch(env, input, a, (m) => progress.report(m), signal),
    );
  } catch (e) {
    return void reportStepFailure(env, input, a, e);
  } finally {
    env.refreshDatabase(scope.hostId, db, ['branches', 'operations']);
  }
  if (written.differences.length > 0 && !(await acceptDifferences(env, input, written))) return undefined;
  return finishProposal(env, input, a, written.head);
}

async function writeBranch(
  env: ProposeEnv,
  input: ProposalInput,
  a: ProposalAnswers,
  report: (message: string) => void,
  signal: AbortSignal,
): Promise<Written> {
  const { scope } = input;
  const client = env.clientFor(scope.hostId);
  const db = dbOf(scope);
  const branch = branchOf(input, a);
  let written = false;
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    report(name);
    try {
      const out = await run();
      written = true;
      return out;
    } catch (e) {
      throw new ProposalStepError(name, written, e);
    }
  };
  if (a.mode === 'pull') {
    await step(`1/4 Creating the branch ${a.branch} at ${scope.baseCommit.slice(0, 8)}…`, () =>
      client.createBranch(db, { name: a.branch, from: { commit: scope.baseCommit } }, { signal }),
    );
  }
  const message = a.mode === 'commit' ? a.title : undefined;
  await writeEdits(input, branch, message, step, (imp) => importOntoBranch(client, db, imp, signal));
  return step('4/4 Checking the branch against your edits…', async () => {
    const head = (await listAllBranches(client, db, signal)).find((b) => b.name === branch)?.head_commit_sha;
    if (!head) throw new Error(`The branch ${branch} is not there after the imports.`);
    const differences = await proposalDifferences(env.sql.review(scope.hostId, db), input, { from: scope.baseCommit, to: head }, signal);
    return { branch, head, differences };
  });
}

/** Steps 2 and 3: the upserts as an `update` import of JSON, then the deletes as a `sql` import. */
async function writeEdits(
  input: ProposalInput,
  branch: string,
  message: string | undefined,
  step: (name: string, run: () => Promise<void>) => Promise<void>,
  write: (imp: BranchImport) => Promise<void>,
): Promise<void> {
  const { table } = input.scope;
  const counts = proposalCounts(input);
  const upserted = describeCounts({ ...counts, deleted: 0 });
  const upserts = upsertJson(input);
  if (upserts) {
    const fileName = `${table}-edits.json`;
    const imp: BranchImport = {
      bytes: upserts,
      fileType: 'json',
      operation: 'update',
      branch,
      table,
      fileName,
      message: message ?? `Edit ${table}: ${upserted}`,
    };
    await step(`2/4 Writing ${upserted}…`, () => write(imp));
  }
  const deletes = deleteSql(input);
  if (deletes) {
    const fileName = `${table}-deletes.sql`;
    const imp: BranchImport = {
      bytes: deletes,
      fileType: 'sql',
      operation: 'update',
      branch,
      table,
      fileName,
      message: message ?? `Delete ${counts.deleted} row(s) of ${table}`,
    };
    await step(`3/4 Deleting ${counts.deleted.toLocaleString('en-US')} row(s)…`, () => write(imp));
  }
}

/** The branch does not read as the change set: say how, and go on only if asked. */
async function acceptDifferences(env: ProposeEnv, input: ProposalInput, w: Written): Promise<boolean> {
  const { scope } = input;
  const lines = w.differences.slice(0, 12).map(describeDifference);
  if (w.differences.length > 12) lines.push(`… and ${w.differences.length - 12} more`);
  const goOn = l10n.t('Go On Anyway');
  const show = l10n.t('Show the Branch’s Changes');
  const answer = await env.ui.choose(
    l10n.t('The branch {0} does not hold exactly your edits to {1} ({2} difference(s)).', w.branch, scope.table, w.differences.length),
    [goOn, show],
    l10n.t(
      '{0}\n\nGo on: open the pull request (or note the commit on the pull) as the branch is. Your changes are kept until then; the branch {1} stays as it is.',
      lines.join('\n'),
      w.branch,
    ),
  );
  if (answer === show) {
    await env.showChanges({
      kind: 'refs',
      target: { hostId: scope.hostId, db: dbOf(scope) },
      from: scope.baseCommit,
      to: w.head,
      table: scope.table,
    });
  }
  return answer === goOn;
}

function reportStepFailure(env: ProposeEnv, input: ProposalInput, a: ProposalAnswers, e: unknown): void {
  const { scope } = input;
  const failure = e instanceof ProposalStepError ? e : new ProposalStepError('sending', false, e);
  const cancelled = failure.cause instanceof Error && failure.cause.name === 'AbortError';
  const branch = branchOf(input, a);
  const where = !failure.written
    ? l10n.t(' Nothing was written.')
    : a.mode === 'pull'
      ? l10n.t(
          ' The branch {0} was created and may hold part of the edits; the API cannot delete branches: delete it on the web, or propose again with another name.',
          branch,
        )
      : l10n.t(' Part of the edits may be committed onto {0}; look at its latest commits before trying again.', branch);
  const kept = l10n.t(' Your {0} to {1} are kept.', describeCounts(proposalCounts(input)), scope.table);
  if (cancelled) return void env.ui.info(l10n.t('Proposing was cancelled at "{0}".{1}{2}', failure.step, where, kept));
  env.ui.error(failure.cause, {
    action: l10n.t('propose the changes to {0} ({1}){2}{3}', scope.table, failure.step.replace(/…$/, ''), where, kept),
    hostId: scope.hostId,
    // The description (or commit message) written for it can be copied from the message.
    unsent: { text: a.mode === 'pull' ? a.description : a.title },
  });
}
