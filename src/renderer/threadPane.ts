// The pane beside a pull's Changes grid that shows the comments on one row or cell (issue #25):
// each thread's comments with author and time, a suggested value and where it was applied. Every
// server text is set as text (textContent), never parsed as HTML; the pull view renders the same
// threads as markdown, with Reply and Apply Suggestion.
import type { ThreadPaneItem } from '../shared/changesProtocol';
import { el } from './dom';
import * as l10n from '../shared/l10n';

export const THREAD_PANE_CSS = `
.chg-thread { flex: 0 0 280px; max-height: calc(100vh - 90px); overflow: auto; border-left: 1px solid var(--vscode-panel-border, #8884); padding-left: 8px; }
.chg-thread[hidden] { display: none; }
.chg-thread h2 { font-size: 1em; margin: 4px 0; display: flex; justify-content: space-between; gap: 6px; }
.chg-thread .t-comment { border-top: 1px solid var(--vscode-panel-border, #8882); padding: 4px 0; }
.chg-thread .t-meta { color: var(--vscode-descriptionForeground); font-size: 0.9em; }
.chg-thread .t-text, .chg-thread .t-value { white-space: pre-wrap; overflow-wrap: anywhere; margin: 2px 0; }
.chg-thread .t-value { font-family: var(--vscode-editor-font-family, monospace); background: var(--vscode-textCodeBlock-background, #8881); padding: 2px 4px; }
.chg-thread button { background: none; border: none; color: var(--vscode-textLink-foreground); cursor: pointer; font: inherit; }
`;

/** Fills `pane` with the threads on one row or cell (none hides it); `reply` asks for a reply on one. */
export function renderThreadPane(
  doc: Document,
  pane: HTMLElement,
  about: string,
  threads: readonly ThreadPaneItem[],
  reply?: (rootId: string) => void,
): void {
  pane.replaceChildren();
  pane.hidden = threads.length === 0;
  pane.dataset.about = about;
  if (threads.length === 0) return;
  const head = el(doc, 'h2');
  head.appendChild(el(doc, 'span', undefined, l10n.t('Comments on {0}', about)));
  const close = el(doc, 'button', undefined, l10n.t('Close'));
  close.type = 'button';
  close.setAttribute('data-action', 'closeThread');
  close.addEventListener('click', () => renderThreadPane(doc, pane, about, []));
  head.appendChild(close);
  pane.appendChild(head);
  for (const t of threads) {
    const section = el(doc, 'section', 't-thread');
    section.setAttribute('data-thread', t.rootId);
    for (const c of t.comments) {
      const item = el(doc, 'div', 't-comment');
      item.setAttribute('data-comment-id', c.id);
      item.appendChild(el(doc, 'div', 't-meta', `${c.author} · ${new Date(c.createdAt).toLocaleString()}`));
      if (c.suggestion) {
        const v = c.suggestion.value;
        item.appendChild(el(doc, 'div', 't-meta', l10n.t('Suggested value:')));
        item.appendChild(el(doc, 'div', 't-value', v === null ? l10n.t('NULL') : v === '' ? l10n.t('(empty text)') : v));
        if (c.suggestion.appliedIn) {
          const applied = el(doc, 'div', 't-meta', l10n.t('Applied in {0}', c.suggestion.appliedIn.slice(0, 8)));
          applied.setAttribute('data-applied', c.suggestion.appliedIn);
          item.appendChild(applied);
        }
      }
      if (c.text) item.appendChild(el(doc, 'div', 't-text', c.text));
      section.appendChild(item);
    }
    if (reply) {
      const b = el(doc, 'button', undefined, l10n.t('Reply…'));
      b.type = 'button';
      b.setAttribute('data-thread-reply', t.rootId);
      b.addEventListener('click', () => reply(t.rootId));
      section.appendChild(b);
    }
    pane.appendChild(section);
  }
}
