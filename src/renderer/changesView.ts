// Webview script of the Changes view (dist/changesView.js): the changed tables on the left with
// their counts and a schema mark, the selected table's row diff on the right in the shared paged
// grid, with the kind filter, "hide unchanged columns", the schema diff and the SQL patch export.
// Every server text is set as text (textContent), never parsed as HTML.
import type { GridToHostMessage } from '../shared/queryResultOutput';
import type { GridPagingMessage, HostPagingMessage } from '../shared/gridPaging';
import type { GridEditMessage } from '../shared/editProtocol';
import {
  DIFF_KINDS,
  type ChangedTableItem,
  type ChangesHostMessage,
  type ChangesViewMessage,
  type DiffKind,
} from '../shared/changesProtocol';
import { ResultGrid } from './resultGrid';
import { el } from './dom';
import { THREAD_PANE_CSS, renderThreadPane } from './threadPane';
import * as l10n from '../shared/l10n';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
// The host's l10n bundle (WebviewHost writes it into <body data-l10n>), before any text is made.
l10n.useBundleJson(document.body.dataset['l10n']);
const post = (m: GridToHostMessage | GridPagingMessage | GridEditMessage | ChangesViewMessage): void => vscode.postMessage(m);
const root = document.getElementById('root') as HTMLElement;
const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';

const CSS = `
body { padding: 0 8px; }
.chg { font-family: var(--vscode-font-family, sans-serif); font-size: var(--vscode-font-size, 13px); color: var(--vscode-foreground); }
.chg-head h1 { font-size: 1.2em; margin: 8px 0 2px; }
.chg-sub { color: var(--vscode-descriptionForeground); margin-bottom: 6px; }
.chg-banner { border-left: 3px solid var(--vscode-editorWarning-foreground, #c90); padding: 4px 8px; margin: 4px 0;
  background: var(--vscode-inputValidation-warningBackground, transparent); }
.chg-banner.error { border-left-color: var(--vscode-errorForeground, #e51400); }
.chg-body { display: flex; gap: 12px; align-items: flex-start; }
.chg-list { flex: 0 0 240px; list-style: none; padding: 0; margin: 0; max-height: calc(100vh - 90px); overflow: auto; }
.chg-list button { display: block; width: 100%; text-align: left; background: none; color: inherit; border: 1px solid transparent;
  padding: 4px 6px; cursor: pointer; font: inherit; }
.chg-list button:hover { background: var(--vscode-list-hoverBackground); }
.chg-list button[aria-current="true"] { background: var(--vscode-list-activeSelectionBackground); color: var(--vscode-list-activeSelectionForeground); }
.chg-list button:focus { outline: 1px solid var(--vscode-focusBorder); }
.chg-name { font-weight: 600; }
.chg-counts { display: block; font-size: 0.9em; }
.chg-added { color: var(--vscode-gitDecoration-addedResourceForeground, #587c0c); }
.chg-modified { color: var(--vscode-gitDecoration-modifiedResourceForeground, #895503); }
.chg-removed { color: var(--vscode-gitDecoration-deletedResourceForeground, #ad0707); }
/* On the selected table's background the kind colors lose their contrast: its counts take the selection's text color (the +, ~ and − still tell the kinds apart). */
.chg-list button[aria-current="true"] .chg-counts span { color: inherit; }
.chg-schema { font-size: 0.85em; border: 1px solid currentColor; border-radius: 3px; padding: 0 3px; margin-left: 4px; }
.chg-main { flex: 1 1 auto; min-width: 0; }
.chg-controls { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; padding: 4px 0; }
.chg-controls button { background: var(--vscode-button-secondaryBackground, var(--vscode-button-background));
  color: var(--vscode-button-secondaryForeground, var(--vscode-button-foreground)); border: none; padding: 3px 8px; cursor: pointer; font: inherit; }
.chg-empty { color: var(--vscode-descriptionForeground); padding: 8px 0; }
`;

{
  const style = document.createElement('style');
  if (nonce) style.nonce = nonce;
  style.textContent = CSS + THREAD_PANE_CSS;
  document.head.appendChild(style);
}

const shell = el(document, 'div', 'chg');
const head = el(document, 'div', 'chg-head');
const h1 = el(document, 'h1', undefined, l10n.t('Changes'));
const sub = el(document, 'div', 'chg-sub', l10n.t('Reading the changes…'));
head.append(h1, sub);
const banners = el(document, 'div', 'chg-banners');
const body = el(document, 'div', 'chg-body');
const list = el(document, 'ul', 'chg-list');
list.setAttribute('aria-label', l10n.t('Changed tables'));
const main = el(document, 'div', 'chg-main');
const controls = el(document, 'div', 'chg-controls');
const tableBanners = el(document, 'div', 'chg-banners');
const gridRoot = el(document, 'div', 'chg-grid');
main.append(controls, tableBanners, gridRoot);
// A row's or cell's comment threads, beside the grid (a pull's Changes view: Show Comments).
const threadPane = el(document, 'aside', 'chg-thread');
threadPane.setAttribute('aria-label', l10n.t('Comments'));
threadPane.hidden = true;
body.append(list, main, threadPane);
shell.append(head, banners, body);
root.replaceChildren(shell);

let grid: ResultGrid | undefined;
let tables: ChangedTableItem[] = [];
let selected: string | undefined;
let kinds: DiffKind[] = [...DIFF_KINDS];
let hideUnchanged = false;
/** An unsent change set's diff (issue #23): no schema diff, no SQL patch, every column shown. */
let unsent = false;
/** An open pull's branch, where the selected table can be edited (a suggested change). */
let editAt: string | undefined;

function banner(parent: HTMLElement, text: string, error = false): void {
  const b = el(document, 'div', `chg-banner${error ? ' error' : ''}`, text);
  b.setAttribute('role', error ? 'alert' : 'status');
  parent.appendChild(b);
}

function count(n: number | null, cls: string, label: string): HTMLElement {
  const s = el(document, 'span', cls, n === null ? `? ${label}` : `${n.toLocaleString('en-US')} ${label}`);
  s.setAttribute('data-count', label);
  return s;
}

function renderList(): void {
  list.replaceChildren();
  if (tables.length === 0) {
    list.appendChild(el(document, 'li', 'chg-empty', l10n.t('No table changed.')));
    return;
  }
  for (const t of tables) {
    const li = el(document, 'li');
    const b = el(document, 'button');
    b.type = 'button';
    b.setAttribute('data-table', t.table);
    b.setAttribute('aria-current', String(t.table === selected));
    const name = el(document, 'span', 'chg-name', t.change === 'renamed' && t.fromTable ? `${t.fromTable} → ${t.table}` : t.table);
    b.appendChild(name);
    if (t.change !== 'modified') b.appendChild(el(document, 'span', 'chg-schema', t.change));
    if (t.schemaChanged) {
      const mark = el(document, 'span', 'chg-schema', l10n.t('schema'));
      mark.title = l10n.t('The schema of this table changed');
      mark.setAttribute('data-schema', 'changed');
      b.appendChild(mark);
    }
    const counts = el(document, 'span', 'chg-counts');
    counts.append(
      count(t.added, 'chg-added', 'added'),
      document.createTextNode(' · '),
      count(t.modified, 'chg-modified', 'modified'),
      document.createTextNode(' · '),
      count(t.removed, 'chg-removed', 'removed'),
    );
    b.appendChild(counts);
    b.addEventListener('click', () => post({ type: 'changes.select', table: t.table }));
    li.appendChild(b);
    list.appendChild(li);
  }
}

function renderControls(): void {
  controls.replaceChildren();
  const t = tables.find((x) => x.table === selected);
  if (!t) return;
  for (const k of DIFF_KINDS) {
    const label = el(document, 'label');
    const box = el(document, 'input');
    box.type = 'checkbox';
    box.checked = kinds.includes(k);
    box.setAttribute('data-kind-filter', k);
    box.addEventListener('change', () => {
      const next = DIFF_KINDS.filter((x) => (x === k ? box.checked : kinds.includes(x)));
      if (next.length === 0) {
        box.checked = true;
        return;
      }
      post({ type: 'changes.kinds', kinds: next });
    });
    label.append(box, document.createTextNode(` ${k}`));
    controls.appendChild(label);
  }
  if (unsent) return;
  const hide = el(document, 'label');
  const hideBox = el(document, 'input');
  hideBox.type = 'checkbox';
  hideBox.checked = hideUnchanged;
  hideBox.setAttribute('data-hide-unchanged', '');
  hideBox.addEventListener('change', () => post({ type: 'changes.hideUnchanged', on: hideBox.checked }));
  hide.append(hideBox, document.createTextNode(l10n.t(' hide unchanged columns')));
  controls.appendChild(hide);
  if (t.schemaChanged) {
    const s = el(document, 'button', undefined, l10n.t('Show schema diff'));
    s.type = 'button';
    s.setAttribute('data-action', 'schemaDiff');
    s.addEventListener('click', () => post({ type: 'changes.schemaDiff' }));
    controls.appendChild(s);
  }
  const patch = el(document, 'button', undefined, l10n.t('Export SQL patch…'));
  patch.type = 'button';
  patch.setAttribute('data-action', 'exportPatch');
  patch.title = l10n.t("Save the table's changes as SQL statements (DOLT_PATCH)");
  patch.addEventListener('click', () => post({ type: 'changes.exportPatch' }));
  controls.appendChild(patch);
  if (editAt) {
    const edit = el(document, 'button', undefined, l10n.t('Edit at {0}…', editAt));
    edit.type = 'button';
    edit.setAttribute('data-action', 'editAtHead');
    edit.title = l10n.t(
      "Open this table at {0} to edit it; Propose Changes… then commits the edits onto the pull's branch or opens a pull into it",
      editAt,
    );
    edit.addEventListener('click', () => post({ type: 'changes.editAtHead' }));
    controls.appendChild(edit);
  }
}

function onMessage(m: ChangesHostMessage | HostPagingMessage | { type: 'exported' | 'copied'; path?: string; rows?: number }): void {
  switch (m.type) {
    case 'changes.list':
      h1.textContent = m.title;
      sub.textContent = m.subtitle;
      banners.replaceChildren();
      if (m.error) banner(banners, m.error, true);
      if (m.partial) banner(banners, m.partial);
      tables = m.tables;
      renderList();
      if (!m.error && tables.length === 0) {
        grid?.dispose();
        grid = undefined;
      }
      return;
    case 'changes.table':
      selected = m.table;
      kinds = m.kinds;
      hideUnchanged = m.hideUnchanged;
      unsent = !!m.unsent;
      editAt = m.editAt;
      // Threads shown were read with the table before: Show Comments reads them again.
      renderThreadPane(document, threadPane, '', []);
      tableBanners.replaceChildren();
      if (m.note) banner(tableBanners, m.note);
      renderList();
      renderControls();
      return;
    case 'changes.partial':
      if (m.table === selected) banner(tableBanners, m.message);
      return;
    case 'changes.error':
      banner(tableBanners, m.message, true);
      return;
    case 'changes.busy':
      document.body.classList.toggle('busy', m.busy);
      return;
    case 'changes.thread':
      // Comments changed elsewhere (the pull view): a pane closed, or showing another row, stays so.
      if (m.refresh && (threadPane.hidden || threadPane.dataset.about !== m.about)) return;
      renderThreadPane(document, threadPane, m.about, m.threads, (rootId) => post({ type: 'changes.threadReply', rootId }));
      return;
    case 'paged.show':
      grid?.dispose();
      gridRoot.replaceChildren();
      grid = new ResultGrid(
        m.output,
        { copy: (text, format, rows) => post({ type: 'copy', text, format, rows }), export: () => undefined, post },
        gridRoot,
        { maxHeight: Math.max(200, window.innerHeight - 170), nonce },
      );
      return;
    case 'exported':
    case 'copied':
      return;
    default:
      grid?.receive(m);
  }
}

window.addEventListener('message', (event: MessageEvent) => onMessage(event.data as ChangesHostMessage | HostPagingMessage));
post({ type: 'ready' });
