// The pull request view's "Before merging" section (issue #15), as HTML from a merge preview:
// rows changed per table, whether the merge conflicts (never "clean" on a partial answer), and
// the first conflicting rows of each table with base, ours and theirs side by side, the cells
// where ours and theirs disagree marked. Pure: server text is escaped here, the view only
// inserts it (src/views/pullMergePreview.ts).
import type { Cell } from '../shared/wire';
import { escapeHtml } from './pullPage';
import type { ConflictPage } from './review/conflicts';
import { conflictText, rowCountsText, type MergePreview } from './review/mergePreview';
import * as l10n from '../shared/l10n';

export type MergePreviewState =
  | { kind: 'checking' }
  | { kind: 'failed'; message: string }
  | { kind: 'done'; preview: MergePreview; conflicts: { table: string; page: ConflictPage }[]; conflictRowsFailed?: string };

function cellHtml(v: Cell | undefined): string {
  if (v === undefined) return `<span class="absent" title="${l10n.tHtml('no such column on this side')}">—</span>`;
  if (v === null) return `<span class="null">${l10n.tHtml('NULL')}</span>`;
  return escapeHtml(v);
}

/** What a side did to the row: Dolt's diff_type words in the reader's language, anything else as sent. */
function changeHtml(change: string): string {
  if (change === 'added') return l10n.tHtml('added');
  if (change === 'modified') return l10n.tHtml('modified');
  if (change === 'removed') return l10n.tHtml('removed');
  return escapeHtml(change);
}

function conflictTable(table: string, page: ConflictPage, total: number | null): string {
  const head = `<tr><th scope="col">${l10n.tHtml('side')}</th>${page.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')}</tr>`;
  const rows = page.rows
    .map((r, i) => {
      const side = (label: string, cls: string, cells: (Cell | undefined)[], change: string | null): string =>
        `<tr class="${cls}"><th scope="row">${label}${change ? ` <span class="change">(${changeHtml(change)})</span>` : ''}</th>${cells
          .map((v, c) => `<td${cls !== 'base' && r.differs[c] ? ' class="differs"' : ''}>${cellHtml(v)}</td>`)
          .join('')}</tr>`;
      return `<tbody class="conflict-row" data-row="${i}">${side(l10n.tHtml('base'), 'base', r.base, null)}${side(l10n.tHtml('ours'), 'ours', r.ours, r.ourChange)}${side(l10n.tHtml('theirs'), 'theirs', r.theirs, r.theirChange)}</tbody>`;
    })
    .join('');
  const shown = page.rows.length;
  const more =
    page.hasMore || !page.completeness.complete ? `<p class="more">${moreText(shown, total, page.completeness.complete)}</p>` : '';
  return `<div class="conflict-table" data-table="${escapeHtml(table)}"><h4>${escapeHtml(table)}</h4><table><thead>${head}</thead>${rows}</table>${more}</div>`;
}

/** The section's inner HTML for the current state of the preview. */
export function renderMergePreviewSection(state: MergePreviewState): string {
  const title = `<h2>${l10n.tHtml('Before merging')}</h2>`;
  if (state.kind === 'checking')
    return `<section class="merge-preview" data-state="checking">${title}<p class="empty">${l10n.tHtml('Checking what the merge would change and whether it conflicts…')}</p></section>`;
  if (state.kind === 'failed') {
    return `<section class="merge-preview" data-state="failed">${title}<p class="error">${l10n.tHtml('The merge could not be previewed: {0}', escapeHtml(state.message))}</p><p class="empty">${l10n.tHtml('How many rows it changes and whether it conflicts are not known.')}</p></section>`;
  }
  const p = state.preview;
  if (p.kind === 'unavailable')
    return `<section class="merge-preview" data-state="unavailable">${title}<p class="warning">${escapeHtml(p.reason)}</p></section>`;
  const { impact, completeness } = p;
  const verdict = impact.willConflict === true ? 'conflicts' : impact.willConflict === 'unknown' ? 'unknown' : 'clean';
  const tables = impact.tables.length
    ? `<table class="merge-tables"><thead><tr><th scope="col">${l10n.tHtml('table')}</th><th scope="col">${l10n.tHtml('rows')}</th></tr></thead><tbody>${impact.tables
        .map(
          (t) =>
            `<tr data-table="${escapeHtml(t.table)}"><td>${escapeHtml(t.table)}${t.schemaChanged ? ` <span class="mark">${l10n.tHtml('schema changed')}</span>` : ''}</td><td>${escapeHtml(rowCountsText(t.rows))}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : `<p class="empty">${l10n.tHtml('The merge changes no tables.')}</p>`;
  const total = `<p class="merge-total">${completeness.complete ? l10n.tHtml('{0} in {1}.', rowsChange(impact.rowsChanged), tablesText(impact.tables.length)) : l10n.tHtml('At least {0} in {1}.', rowsChange(impact.rowsChanged), tablesText(impact.tables.length))}</p>`;
  const conflictRows = state.conflicts
    .map((c) => conflictTable(c.table, c.page, impact.conflictingTables.find((t) => t.table === c.table)?.dataConflicts ?? null))
    .join('');
  const rowsFailed = state.conflictRowsFailed
    ? `<p class="error">${l10n.tHtml('The conflicting rows could not be read: {0}', escapeHtml(state.conflictRowsFailed))}</p>`
    : '';
  return [
    `<section class="merge-preview" data-state="${verdict}">`,
    title,
    `<p class="verdict verdict-${verdict}">${escapeHtml(conflictText(p))}</p>`,
    total,
    tables,
    // A conflicting merge would fail: settling the conflicts is the way forward, so it is the
    // primary button, and the style below makes the view's Merge button a secondary one.
    verdict === 'conflicts'
      ? `<div class="actions"><button type="button" data-action="settleConflicts">${l10n.tHtml('Settle Conflicts…')}</button></div>`
      : '',
    conflictRows ? `<h3>${l10n.tHtml('Conflicting rows')}</h3>${conflictRows}` : '',
    rowsFailed,
    `</section>`,
  ].join('');
}

/** Styles for the section (added to the pull view's nonce'd style sheet). */
export const MERGE_PREVIEW_STYLE = `
.merge-preview table { border-collapse: collapse; margin: 6px 0; font-family: var(--vscode-editor-font-family); }
.merge-preview th, .merge-preview td { border: 1px solid var(--vscode-panel-border, #8884); padding: 2px 8px; text-align: left; }
.merge-preview thead th { background: var(--vscode-sideBarSectionHeader-background, #8881); }
.merge-preview .verdict { font-weight: 600; }
.merge-preview .verdict-conflicts, .merge-preview .warning { color: var(--vscode-editorWarning-foreground, #c80); }
.merge-preview .verdict-clean { color: var(--vscode-charts-green, #388a34); }
.merge-preview td.differs { background: var(--vscode-diffEditor-insertedTextBackground, #8c84); font-weight: 600; }
.merge-preview tr.base td { color: var(--vscode-descriptionForeground); }
.merge-preview tbody.conflict-row { border-top: 2px solid var(--vscode-panel-border, #8884); }
#content:has(.merge-preview[data-state="conflicts"]) button[data-action="merge"] { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
.merge-preview .null, .merge-preview .absent, .merge-preview .change, .merge-preview .more, .merge-preview .mark { color: var(--vscode-descriptionForeground); font-style: italic; }
`;

function rowsChange(n: number): string {
  return n === 1 ? l10n.tHtml('1 row changes') : l10n.tHtml('{0} rows change', n);
}

function tablesText(n: number): string {
  return n === 1 ? l10n.tHtml('1 table') : l10n.tHtml('{0} tables', n);
}

/** "Showing the first 2 conflicting rows of 9 (the server sent only part of them)." */
function moreText(shown: number, total: number | null, complete: boolean): string {
  const first =
    shown === 1 ? l10n.tHtml('Showing the first 1 conflicting row') : l10n.tHtml('Showing the first {0} conflicting rows', shown);
  const of = total !== null ? l10n.tHtml('{0} of {1}', first, total) : first;
  return complete ? l10n.tHtml('{0}.', of) : l10n.tHtml('{0} (the server sent only part of them).', of);
}
