// The pull view's "Row comments" section (issue #25): one thread per commented row or cell, with
// what it is about, whether it is current, outdated or about a deleted row, its comments and a
// Reply button. Pure: server text goes through escapeHtml or the sanitizing markdown renderer.
import type { MarkdownRenderer } from './markdown';
import { escapeHtml, relativeTime } from './pullPage';
import type { RowThread, ThreadComment, ThreadState } from './review/rowThreads';
import type { Cell } from '../shared/wire';
import { SHORT_HASH_LENGTH } from './commitHash';
import * as l10n from '../shared/l10n';

function about(t: RowThread): string {
  const key = Object.entries(t.anchor.key)
    .map(([c, v]) => `${escapeHtml(c)} = ${v === null ? 'NULL' : escapeHtml(v.length > 60 ? `${v.slice(0, 59)}…` : v)}`)
    .join(', ');
  const column = t.anchor.column !== undefined ? ` · <code>${escapeHtml(t.anchor.column)}</code>` : ' · row';
  return `<strong>${escapeHtml(t.anchor.table)}</strong> · ${key}${column}`;
}

function stateHtml(s: ThreadState | undefined): string {
  if (!s) return `<span class="label muted" data-thread-state="checking">${l10n.tHtml('checking…')}</span>`;
  switch (s.kind) {
    case 'current':
      return '';
    case 'outdated':
      return `<span class="label" data-thread-state="outdated" title="${l10n.tHtml('The row changed since this thread was written')}">${l10n.tHtml('outdated')}</span>`;
    case 'deleted':
      return `<span class="label" data-thread-state="deleted">${l10n.tHtml('row deleted since')}</span>`;
    case 'invalid':
      return `<span class="label" data-thread-state="invalid">${escapeHtml(s.reason)}</span>`;
  }
}

const VALUE_SHOWN_MAX = 2000;

/** A suggested value as text: NULL and empty text in words, anything else literal in a <pre>. */
function valueHtml(v: Cell): string {
  if (v === null) return `<em>${l10n.tHtml('NULL')}</em>`;
  if (v === '') return `<em>${l10n.tHtml('empty text')}</em>`;
  const chars = Array.from(v);
  const shown = chars.length > VALUE_SHOWN_MAX ? `${chars.slice(0, VALUE_SHOWN_MAX).join('')}…` : v;
  return `<pre class="suggested-value">${escapeHtml(shown)}</pre>`;
}

/** A comment's suggested value, and Apply Suggestion, or where it was applied (a later comment of the thread says so). */
function suggestionHtml(t: RowThread, c: ThreadComment, canApply: boolean): string {
  const s = c.anchor.suggestion;
  if (!s) return '';
  const id = c.comment.comment_id;
  const applied = t.comments.find((x) => x.anchor.applied === id);
  const action = applied
    ? `<span class="label" data-suggestion-applied="${escapeHtml(applied.anchor.commit)}">${l10n.tHtml('applied in {0}', `<code>${escapeHtml(applied.anchor.commit.slice(0, SHORT_HASH_LENGTH))}</code>`)}</span>`
    : canApply
      ? `<button type="button" data-thread-apply="${escapeHtml(id)}">${l10n.tHtml('Apply Suggestion')}</button>`
      : '';
  return `<div class="suggestion" data-suggestion="${escapeHtml(id)}"><span>${l10n.tHtml('Suggested value:')}</span> ${valueHtml(s.value)} ${action}</div>`;
}

/** The section's inner HTML; `states` by thread root id (absent while being read). */
export function renderThreadsSection(
  threads: readonly RowThread[],
  states: ReadonlyMap<string, ThreadState>,
  md: MarkdownRenderer,
  now: Date,
  canApply = false,
): string {
  if (threads.length === 0) return '';
  const items = threads
    .map((t) => {
      const comments = t.comments
        .map(
          (c) =>
            `<div class="thread-comment" data-comment-id="${escapeHtml(c.comment.comment_id)}"><div class="comment-head"><strong>${escapeHtml(c.comment.author)}</strong> ` +
            `${escapeHtml(relativeTime(c.comment.created_at, now))}</div>${suggestionHtml(t, c, canApply)}<div class="markdown">${md.render(c.text)}</div></div>`,
        )
        .join('');
      const cell = t.anchor.column !== undefined ? ` data-column="${escapeHtml(t.anchor.column)}"` : '';
      return (
        `<article class="thread" data-thread="${escapeHtml(t.rootId)}" data-table="${escapeHtml(t.anchor.table)}"${cell}>` +
        `<div class="thread-head">${about(t)} ${stateHtml(states.get(t.rootId))} <span class="muted">${t.comments.length} ${t.comments.length === 1 ? 'comment' : 'comments'}</span></div>` +
        `${comments}<div class="actions"><button type="button" class="secondary" data-thread-reply="${escapeHtml(t.rootId)}">${l10n.tHtml('Reply')}</button></div></article>`
      );
    })
    .join('');
  return `<h2>${l10n.tHtml('Row comments ({0})', threads.length)}</h2>${items}`;
}

export const PULL_THREADS_STYLE = `
.thread { border: 1px solid var(--vscode-panel-border, #8884); border-radius: 4px; margin: 10px 0; padding: 0 10px; }
.thread-head { padding: 6px 0; }
.thread-comment { border-top: 1px solid var(--vscode-panel-border, #8882); }
.thread .label, .pull-commits .label { border: 1px solid currentColor; border-radius: 3px; padding: 0 4px; font-size: 0.85em; }
.suggestion { display: flex; gap: 6px; align-items: baseline; flex-wrap: wrap; margin: 4px 0; }
.suggested-value { margin: 0; padding: 2px 6px; max-height: 8em; overflow: auto; white-space: pre-wrap; background: var(--vscode-textCodeBlock-background, #8881); }
[data-thread-state="outdated"], [data-thread-state="deleted"] { color: var(--vscode-editorWarning-foreground, #c80); }
`;
