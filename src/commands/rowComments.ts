// Comments on rows and cells of a pull (issue #25): ask for the text, then post it as an ordinary
// pull comment whose body carries the anchor (src/core/review/commentAnchor.ts). A reply carries
// its thread's anchor, at the head the reviewer sees now. UI injected, as in pullActions.ts.
import type { Ui } from '../platform/ui';
import type { PullTarget } from '../core/targets';
import type { Cell } from '../shared/wire';
import { anchoredBody, type CommentAnchor, type RowCommentRequest } from '../core/review/commentAnchor';
import type { UnsentText } from '../core/errorMessages';
import * as l10n from '../shared/l10n';

export interface RowCommentEnv {
  ui: Pick<Ui, 'input' | 'editText' | 'info' | 'pick'>;
  /**
   * Posts a comment body on the pull (the pull view refreshes); resolves undefined when it failed,
   * having shown the failure with `unsent` (the text written, and how to write it again).
   */
  post(target: PullTarget, body: string, unsent?: UnsentText): Promise<unknown>;
}

/** What a comment is about, in words: `suppliers, id = 3, rating`. */
export function anchorWords(a: Pick<CommentAnchor, 'table' | 'key' | 'column'>): string {
  const key = Object.entries(a.key)
    .map(([c, v]) => `${c} = ${v === null ? 'NULL' : v.length > 40 ? `${v.slice(0, 39)}…` : v}`)
    .join(', ');
  return [a.table, key, a.column].filter((x) => x !== undefined).join(', ');
}

async function askText(env: RowCommentEnv, title: string, start?: string): Promise<string | undefined> {
  const text = await env.ui.input({
    title,
    placeholder: l10n.t('Markdown'),
    ...(start !== undefined ? { value: start } : {}),
    validate: (v) => (v.trim() ? undefined : 'Write something first.'),
    lines: l10n.t('Comment'),
  });
  return text?.trim() ? text : undefined;
}

/** The suggested value: a text (starting from the cell's value now) or NULL; undefined when cancelled. */
async function askValue(env: RowCommentEnv, req: RowCommentRequest, now: Cell): Promise<{ value: Cell } | undefined> {
  const where = l10n.t('{0} (pull request #{1})', anchorWords(req.anchor), req.pull.pullNumber);
  // An input box takes one line: a value over several lines (or one that has some now) is edited in an editor.
  const lines = {
    label: `$(list-flat) ${l10n.t('A value over several lines…')}`,
    description: l10n.t('in an editor'),
    value: 'lines' as const,
  };
  const line = { label: `$(edit) ${l10n.t('A value…')}`, description: l10n.t('typed next'), value: 'text' as const };
  const multiline = now !== null && /[\r\n]/.test(now);
  const kind = await env.ui.pick(
    [...(multiline ? [lines, line] : [line, lines]), { label: l10n.t('NULL'), description: l10n.t('no value'), value: 'null' as const }],
    { title: l10n.t('Suggest a value for {0}', where), placeholder: l10n.t('What the cell should hold') },
  );
  if (kind === undefined) return undefined;
  if (kind === 'null') return { value: null };
  const title = l10n.t('Suggested value for {0}', where);
  const value =
    kind === 'lines'
      ? await env.ui.editText({ name: l10n.t('Suggested value'), title, value: now ?? '' })
      : await env.ui.input({ title, value: now ?? '' });
  return value === undefined ? undefined : { value };
}

/** Comment on Row / Cell… (or Suggest a Value… on a cell) from a pull's Changes view. Resolves the body posted, or undefined. */
export async function commentOnRow(env: RowCommentEnv, req: RowCommentRequest): Promise<string | undefined> {
  const suggestion = req.suggest && req.anchor.column !== undefined ? await askValue(env, req, req.suggest.value) : undefined;
  if (req.suggest && !suggestion) return undefined;
  const where = l10n.t('{0} (pull request #{1})', anchorWords(req.anchor), req.pull.pullNumber);
  const ask = (start?: string): Promise<string | undefined> =>
    suggestion
      ? env.ui.input({
          title: l10n.t('Why this value? (optional) {0}', where),
          placeholder: l10n.t('Markdown'),
          ...(start !== undefined ? { value: start } : {}),
          lines: l10n.t('Comment'),
        })
      : askText(env, `Comment on ${where}`, start);
  return writeAndPost(env, req.pull, ask, (text) => anchoredBody({ ...req.anchor, ...(suggestion ? { suggestion } : {}) }, text));
}

/** Reply to a thread: the thread's anchor at the head the view shows now, naming the first comment. */
export async function replyToThread(
  env: RowCommentEnv,
  pull: PullTarget,
  thread: { rootId: string; anchor: CommentAnchor },
  head: string,
): Promise<string | undefined> {
  const title = `Reply on ${anchorWords(thread.anchor)} (pull request #${pull.pullNumber})`;
  const { table, key, column } = thread.anchor;
  const anchor = { table, key, ...(column !== undefined ? { column } : {}), commit: head, replyTo: thread.rootId };
  return writeAndPost(
    env,
    pull,
    (start) => askText(env, title, start),
    (text) => anchoredBody(anchor, text),
  );
}

/**
 * Asks for the text (from `start`) and posts its body; should the post fail, the failure offers the
 * text again (Edit and Try Again asks from it) so nothing written is lost.
 */
async function writeAndPost(
  env: RowCommentEnv,
  pull: PullTarget,
  ask: (start?: string) => Promise<string | undefined>,
  bodyOf: (text: string) => string,
  start?: string,
): Promise<string | undefined> {
  const text = await ask(start);
  if (text === undefined) return undefined;
  const body = bodyOf(text);
  const unsent = { text, again: () => writeAndPost(env, pull, ask, bodyOf, text) };
  return (await env.post(pull, body, unsent)) === undefined ? undefined : body;
}
