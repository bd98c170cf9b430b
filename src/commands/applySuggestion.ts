// Apply Suggestion (issue #25): a cell comment's suggested value, committed onto the pull's branch
// through the change-set flow. The row is read at the branch's head, the value set on it in a
// ChangeSet (so it is checked as a typed edit is: type, NULL, length), and the change set sent as
// Propose Changes… sends a suggestion (src/commands/proposeSend.ts: an `update` import onto the
// branch, the branch's diff held to the edit), whose note on the pull is the thread's reply saying
// the suggestion was applied, with the commit. Nothing is written when the row is gone, the value
// does not fit, or the cell already holds it. No vscode: the pull view's deps call it.
import { ChangeSet, EditRefusedError } from '../core/changes/changeSet';
import { anchoredBody } from '../core/review/commentAnchor';
import { parseHashOf } from '../core/review/commitLog';
import { buildColumnsQuery, buildHashOfQuery } from '../core/review/doltQueries';
import { parseColumns } from '../core/review/rowDiff';
import { buildRowAtQuery, type RowThread, type ThreadComment } from '../core/review/rowThreads';
import { shortHash } from '../core/commitHash';
import type { PullTarget } from '../core/targets';
import type { ChangeSetSnapshot } from '../core/changes/changeSetSnapshot';
import { anchorWords } from './rowComments';
import { sendProposal } from './proposeSend';
import type { ProposeEnv } from './proposeTypes';
import * as l10n from '../shared/l10n';

/** The suggestion's change set is never stored: nothing to remove once sent, nothing to rebase. */
const NO_STORE: ProposeEnv['changeSets'] = {
  snapshot: () => undefined,
  remove: async () => undefined,
  rebase: () => Promise.reject(new Error('A suggestion is applied at the head it was read at.')),
};

/** The edit a suggestion makes: the change set's snapshot at the branch's head, or why there is none. */
type Prepared = { snapshot: ChangeSetSnapshot } | { refused: string };

async function prepare(env: ProposeEnv, pull: PullTarget, c: ThreadComment, signal: AbortSignal): Promise<Prepared> {
  const a = c.anchor;
  const value = a.suggestion?.value;
  if (a.column === undefined || value === undefined) return { refused: 'The comment carries no suggested value for a cell.' };
  const p = await env.clientFor(pull.hostId).getPull(pull.db, pull.pullNumber, { signal });
  if (p.state !== 'open') return { refused: `Pull request #${pull.pullNumber} is ${p.state}: only an open pull takes suggestions.` };
  const { database, branch_name: branch } = p.from_branch;
  const run = env.sql.review(pull.hostId, database);
  const head = parseHashOf(await run(buildHashOfQuery(branch), { signal }));
  const info = parseColumns(await run(buildColumnsQuery(a.table, head), { signal }));
  const result = await run(buildRowAtQuery(info, a, head), { signal });
  const row = result.rows[0];
  if (!row) return { refused: `${branch} has no row ${anchorWords({ table: a.table, key: a.key })} any more: nothing to apply.` };
  const columns = result.columns;
  const keyColumns = info.filter((k) => k.primaryKey).map((k) => columns.findIndex((col) => col.name === k.name));
  const target = columns.findIndex((col) => col.name === a.column);
  if (target < 0 || keyColumns.some((i) => i < 0)) return { refused: `${a.table} has no column ${a.column} on ${branch}.` };
  if (row[target] === value) return { refused: `${anchorWords(a)} already holds the suggested value on ${branch}.` };
  const cs = new ChangeSet({
    scope: { hostId: pull.hostId, owner: database.owner, name: database.name, branch, table: a.table, baseCommit: head },
    columns,
    keyColumns,
    nullable: columns.map((col) => info.find((k) => k.name === col.name)?.nullable !== false),
  });
  try {
    cs.apply({ kind: 'set', edits: [{ row: { key: keyColumns.map((i) => row[i] ?? null), row: [...row] }, column: target, value }] });
  } catch (e) {
    if (e instanceof EditRefusedError) return { refused: `The suggested value does not fit ${a.column}: ${e.message}` };
    throw e;
  }
  const snapshot = cs.snapshot();
  const problem = snapshot.problems[0];
  if (problem) return { refused: `The suggested value does not fit ${a.column}: ${problem.message}` };
  return { snapshot };
}

/** Apply Suggestion on `comment` of `thread`; resolves the commit it made onto the pull's branch, or undefined. */
export async function applySuggestion(
  env: ProposeEnv,
  pull: PullTarget,
  thread: RowThread,
  comment: ThreadComment,
): Promise<string | undefined> {
  const a = comment.anchor;
  let prepared: Prepared;
  try {
    prepared = await env.ui.withProgress(l10n.t("Reading {0} on the pull's branch…", anchorWords(a)), (_p, signal) =>
      prepare(env, pull, comment, signal),
    );
  } catch (e) {
    env.ui.error(e, { action: l10n.t('apply the suggestion on {0}', anchorWords(a)), hostId: pull.hostId });
    return undefined;
  }
  if ('refused' in prepared) return void env.ui.info(prepared.refused);
  let committed: string | undefined;
  const by = comment.comment.author;
  const note = {
    db: pull.db,
    body: (head: string): string => {
      committed = head;
      const { table, key, column } = a;
      const replyAnchor = { table, key, ...(column !== undefined ? { column } : {}), commit: head, replyTo: thread.rootId };
      return anchoredBody(
        { ...replyAnchor, applied: comment.comment.comment_id },
        `Applied ${by}'s suggestion in commit ${shortHash(head)}.`,
      );
    },
  };
  // Only the suggestion's own change set: the person's unsent edits of that table stay as they are.
  const own: ProposeEnv = { ...env, changeSets: NO_STORE };
  const title = `Apply ${by}'s suggestion: ${anchorWords(a)} (pull request #${pull.pullNumber})`;
  const sent = await sendProposal(own, prepared.snapshot, { mode: 'commit', title, pull: pull.pullNumber, note });
  return sent ? committed : undefined;
}
