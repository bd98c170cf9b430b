// The Resolve view's page (issue #24): per table, each conflicting row with base, ours (the
// target) and theirs (the pull) per cell, the differing cells marked, and per cell a pick of ours,
// theirs or a typed value (checked as the grid checks it); per row and table a side for all; what
// Apply will do, said before it does. Pure: every server value is escaped here.
import type { Cell } from '../shared/wire';
import { escapeHtml } from './pullPage';
import { webviewCsp } from './webviewCsp';
import type { CellChoice, ConflictCell, RowConflict } from './review/conflictResolution';
import * as l10n from '../shared/l10n';

export interface ResolvePageTable {
  readonly table: string;
  readonly columns: readonly string[];
  readonly refusal?: string;
  readonly cells: readonly ConflictCell[];
  readonly rows: readonly RowConflict[];
}

export interface ResolvePageState {
  readonly title: string;
  readonly tables: readonly ResolvePageTable[];
  readonly choice: (table: string, row: string, column: string) => CellChoice | undefined;
  readonly rowSide: (table: string, row: string) => 'ours' | 'theirs' | undefined;
  /** A typed value's problem, by `table row column`. */
  readonly problems: ReadonlyMap<string, string>;
  /** What Apply will do (or why it cannot yet). */
  readonly plan: string;
  readonly canApply: boolean;
  /** The outcome of the last Apply (the merge previewed again). */
  readonly outcome?: { readonly ok: boolean; readonly text: string };
}

const val = (v: Cell | undefined): string =>
  v === undefined ? '<span class="muted">—</span>' : v === null ? `<span class="null">${l10n.tHtml('NULL')}</span>` : escapeHtml(v);
const attr = (s: string): string => escapeHtml(s);
/** A row's key as a reader says it: its key values, NULL as NULL. */
const keyText = (values: readonly Cell[]): string => values.map((v) => val(v)).join(', ');

function cellEditor(s: ResolvePageState, t: string, c: ConflictCell): string {
  const ch = s.choice(t, c.key, c.column);
  const data = `data-table="${attr(t)}" data-row="${attr(c.key)}" data-column="${attr(c.column)}"`;
  const pick = (side: 'ours' | 'theirs', v: Cell): string =>
    `<button type="button" class="pick${ch?.kind === side ? ' chosen' : ''}" data-pick="${side}" ${data}>${side}: ${val(v)}</button>`;
  const typed = ch?.kind === 'value' ? (ch.value ?? '') : '';
  const problem = s.problems.get(`${t} ${c.key} ${c.column}`);
  return `<tr class="cell" ${data}><th scope="row">${escapeHtml(c.column)}</th><td class="base">${val(c.base)}</td><td>${pick('ours', c.ours)}</td><td>${pick('theirs', c.theirs)}</td><td><input type="text" class="typed${ch?.kind === 'value' ? ' chosen' : ''}" ${data} value="${attr(typed)}" placeholder="${l10n.tHtml('type a value')}" aria-label="${l10n.tHtml('value for {0}', attr(c.column))}">${problem ? `<div class="problem">${escapeHtml(problem)}</div>` : ''}</td></tr>`;
}

function tableHtml(s: ResolvePageState, t: ResolvePageTable): string {
  const head = `<h2>${escapeHtml(t.table)}</h2>`;
  if (t.refusal)
    return `<section class="table refused" data-table="${attr(t.table)}">${head}<p class="warning">${l10n.tHtml('Cannot be settled cell by cell: {0}', escapeHtml(t.refusal))}</p></section>`;
  if (t.cells.length === 0 && t.rows.length === 0) return '';
  const sideButtons = (row?: string): string =>
    (['ours', 'theirs'] as const)
      .map(
        (side) =>
          `<button type="button" data-side="${side}" data-table="${attr(t.table)}"${row ? ` data-row="${attr(row)}"` : ''}>${l10n.tHtml('All {0}', side)}</button>`,
      )
      .join(' ');
  const byRow = new Map<string, ConflictCell[]>();
  for (const c of t.cells) byRow.set(c.key, [...(byRow.get(c.key) ?? []), c]);
  const rows = [...byRow]
    .map(
      ([key, cells]) =>
        `<div class="row" data-row="${attr(key)}"><h3>${l10n.tHtml('row {0} {1}', keyText(cells[0]?.keyValues ?? []), sideButtons(key))}</h3><table><thead><tr><th scope="col">${l10n.tHtml('column')}</th><th scope="col">${l10n.tHtml('base')}</th><th scope="col">${l10n.tHtml('ours (target)')}</th><th scope="col">${l10n.tHtml('theirs (pull)')}</th><th scope="col">${l10n.tHtml('typed')}</th></tr></thead><tbody>${cells.map((c) => cellEditor(s, t.table, c)).join('')}</tbody></table></div>`,
    )
    .join('');
  const deleted = t.rows
    .map((r) => {
      const chosen = s.rowSide(t.table, r.key);
      return `<div class="row deleted" data-row="${attr(r.key)}"><h3>${r.ours ? l10n.tHtml('row {0}: the pull deleted it, the target changed it', keyText(r.keyValues)) : l10n.tHtml('row {0}: the target deleted it, the pull changed it', keyText(r.keyValues))}${chosen ? ` (${chosen})` : ''}</h3><p class="muted">${l10n.tHtml('One side deleted this row: pick a side for the whole row.')}</p>${sideButtons(r.key)}</div>`;
    })
    .join('');
  return `<section class="table" data-table="${attr(t.table)}">${head}<p>${sideButtons()}</p>${rows}${deleted}</section>`;
}

export function renderResolveContent(s: ResolvePageState): string {
  const outcome = s.outcome ? `<p class="outcome ${s.outcome.ok ? 'ok' : 'warning'}">${escapeHtml(s.outcome.text)}</p>` : '';
  return `<h1>${escapeHtml(s.title)}</h1>${outcome}${s.tables.map((t) => tableHtml(s, t)).join('')}<section class="apply"><p class="plan">${escapeHtml(s.plan)}</p><button type="button" data-action="apply"${s.canApply ? '' : ' disabled'}>${l10n.tHtml('Apply')}</button></section>`;
}

export function renderResolveDocument(env: {
  nonce: string;
  cspSource: string;
  scriptUri: string;
  title: string;
  contentHtml: string;
}): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="${escapeHtml(webviewCsp(env.cspSource, env.nonce))}"><title>${escapeHtml(env.title)}</title><style nonce="${env.nonce}">${RESOLVE_STYLE}</style></head><body><main id="content">${env.contentHtml}</main><script nonce="${env.nonce}" src="${escapeHtml(env.scriptUri)}"></script></body></html>`;
}

const RESOLVE_STYLE = `
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 16px; }
table { border-collapse: collapse; margin: 4px 0 12px; }
th, td { border: 1px solid var(--vscode-panel-border, #8884); padding: 2px 6px; text-align: left; }
button { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); border: 1px solid transparent; padding: 2px 8px; cursor: pointer; }
button.chosen, input.chosen { outline: 2px solid var(--vscode-focusBorder); font-weight: 600; }
button[data-action="apply"] { color: var(--vscode-button-foreground); background: var(--vscode-button-background); padding: 4px 14px; }
td.base, .muted { color: var(--vscode-descriptionForeground); }
.null { font-style: italic; color: var(--vscode-descriptionForeground); }
.problem, .warning { color: var(--vscode-editorWarning-foreground, #c80); }
.ok { color: var(--vscode-charts-green, #388a34); }
body.busy { opacity: 0.6; }
`;
