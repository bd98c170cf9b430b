// Comments on rows and cells of a pull (issue #25): ask for the text, then post it as an ordinary
// pull comment whose body carries the anchor (src/core/review/commentAnchor.ts). A reply carries
// its thread's anchor, at the head the reviewer sees now. UI injected, as in pullActions.ts.
import type { Ui } from '../platform/ui';
import type { PullTarget } from '../core/targets';
import { anchoredBody, type CommentAnchor, type RowCommentRequest } from '../core/review/commentAnchor';
import * as l10n from '../shared/l10n';

export interface RowCommentEnv {
  ui: Pick<Ui, 'input' | 'info'>;
  /** Posts a comment body on the pull (the pull view refreshes); resolves undefined when it failed. */
  post(target: PullTarget, body: string): Promise<unknown>;
}

/** What a comment is about, in words: `suppliers, id = 3, rating`. */
export function anchorWords(a: Pick<CommentAnchor, 'table' | 'key' | 'column'>): string {
  const key = Object.entries(a.key)
    .map(([c, v]) => `${c} = ${v === null ? 'NULL' : v.length > 40 ? `${v.slice(0, 39)}…` : v}`)
    .join(', ');
  return [a.table, key, a.column].filter((x) => x !== undefined).join(', ');
}

async function askText(env: RowCommentEnv, title: string): Promise<string | undefined> {
  const text = await env.ui.input({
    title,
    placeholder: l10n.t('Markdown'),
    validate: (v) => (v.trim() ? undefined : 'Write something first.'),
  });
  return text?.trim() ? text : undefined;
}

/** Comment on Row / Cell… from a pull's Changes view. Resolves the body posted, or undefined. */
export async function commentOnRow(env: RowCommentEnv, req: RowCommentRequest): Promise<string | undefined> {
  const text = await askText(env, `Comment on ${anchorWords(req.anchor)} (pull request #${req.pull.pullNumber})`);
  if (text === undefined) return undefined;
  const body = anchoredBody({ ...req.anchor }, text);
  return (await env.post(req.pull, body)) === undefined ? undefined : body;
}

/** Reply to a thread: the thread's anchor at the head the view shows now, naming the first comment. */
export async function replyToThread(
  env: RowCommentEnv,
  pull: PullTarget,
  thread: { rootId: string; anchor: CommentAnchor },
  head: string,
): Promise<string | undefined> {
  const text = await askText(env, `Reply on ${anchorWords(thread.anchor)} (pull request #${pull.pullNumber})`);
  if (text === undefined) return undefined;
  const { table, key, column } = thread.anchor;
  const body = anchoredBody({ table, key, ...(column !== undefined ? { column } : {}), commit: head, replyTo: thread.rootId }, text);
  return (await env.post(pull, body)) === undefined ? undefined : body;
}
