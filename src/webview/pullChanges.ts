import type { PullWebviewMessage } from '../shared/pullProtocol';

// The pull view's Changes section in the browser: a table name opens its diff in the Changes
// view, a Viewed box marks it. The host renders the section (escaped HTML) and keeps the marks.

export function bindPullChanges(post: (m: PullWebviewMessage) => void): void {
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-changes-table]') : null;
    if (!button) return;
    post({ type: 'changes.open', table: button.dataset['changesTable'] ?? '' });
  });
  document.addEventListener('change', (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || box.dataset['viewedTable'] === undefined) return;
    post({ type: 'changes.viewed', table: box.dataset['viewedTable'], viewed: box.checked });
  });
}

/** Replaces the inner HTML of the section the host names (sanitized by the host). */
export function replaceSection(id: string, html: string): void {
  const section = document.getElementById(id);
  if (section) section.innerHTML = html;
}
