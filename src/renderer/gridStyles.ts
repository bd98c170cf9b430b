// The grid's CSS, built from VS Code's theme variables so it follows light, dark and
// high-contrast themes. Injected once per document as a <style> element (with the page's
// CSP nonce in the SQL result panel).

export const ROW_HEIGHT = 22;
export const HEADER_HEIGHT = 26;
/** The row-number column: seven digits (row 1,000,000) at VS Code's editor font sizes up to 15 px, plus its padding. */
export const GUTTER_WIDTH = 72;
export const MAX_GRID_HEIGHT = 440;
/** Where the motion canvas starts (gridMotion.ts): below the sticky header and its 1 px bottom border. */
export const MOTION_TOP = HEADER_HEIGHT + 1;

const CSS = `
.vdb-result { font-family: var(--vscode-font-family, sans-serif); font-size: var(--vscode-font-size, 13px);
  color: var(--vscode-foreground); position: relative; }
.vdb-toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 4px 0; }
.vdb-summary { color: var(--vscode-descriptionForeground); margin-right: auto; }
.vdb-toolbar input, .vdb-toolbar select { background: var(--vscode-input-background); color: var(--vscode-input-foreground);
  border: 1px solid var(--vscode-input-border, var(--vscode-widget-border, transparent)); padding: 2px 4px; font: inherit; }
.vdb-toolbar input:focus, .vdb-toolbar select:focus, .vdb-toolbar button:focus, .vdb-grid:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
.vdb-toolbar button { background: var(--vscode-button-secondaryBackground, var(--vscode-button-background));
  color: var(--vscode-button-secondaryForeground, var(--vscode-button-foreground)); border: none; padding: 3px 8px; cursor: pointer; font: inherit; }
.vdb-toolbar button:hover { background: var(--vscode-button-secondaryHoverBackground, var(--vscode-button-hoverBackground)); }
.vdb-banner { border-left: 4px solid; padding: 6px 10px; margin: 4px 0; background: var(--vscode-editorWidget-background); }
.vdb-banner.warning { border-color: var(--vscode-editorWarning-foreground, #cca700); }
.vdb-banner.error { border-color: var(--vscode-editorError-foreground, #f14c4c); }
.vdb-banner.info { border-color: var(--vscode-editorInfo-foreground, #3794ff); }
.vdb-banner-title { font-weight: 600; }
.vdb-banner-message { font-family: var(--vscode-editor-font-family, monospace); white-space: pre-wrap; margin: 4px 0; }
.vdb-banner-advice { color: var(--vscode-descriptionForeground); }
.vdb-grid { position: relative; overflow: auto; border: 1px solid var(--vscode-editorWidget-border, var(--vscode-widget-border, #8884));
  background: var(--vscode-editor-background); font-family: var(--vscode-editor-font-family, monospace);
  font-size: var(--vscode-editor-font-size, 12px); contain: strict; }
.vdb-canvas { position: relative; }
.vdb-header { position: sticky; top: 0; z-index: 2; height: ${HEADER_HEIGHT}px;
  background: var(--vscode-editorGroupHeader-tabsBackground, var(--vscode-editor-background));
  border-bottom: 1px solid var(--vscode-editorWidget-border, #8884); }
.vdb-corner { position: sticky; left: 0; z-index: 3; width: ${GUTTER_WIDTH}px; height: ${HEADER_HEIGHT}px; display: inline-block;
  background: inherit; border-right: 1px solid var(--vscode-editorWidget-border, #8884); box-sizing: border-box; }
.vdb-hcell { position: absolute; top: 0; height: ${HEADER_HEIGHT}px; line-height: ${HEADER_HEIGHT}px; padding: 0 18px 0 6px; box-sizing: border-box;
  font-weight: 600; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; cursor: pointer; user-select: none;
  border-right: 1px solid var(--vscode-editorWidget-border, #8884); }
.vdb-hcell.pk .vdb-hname::after { content: 'PK'; font-size: 9px; margin-left: 4px; vertical-align: super; color: var(--vscode-descriptionForeground); }
.vdb-sort { position: absolute; right: 8px; top: 0; color: var(--vscode-descriptionForeground); }
.vdb-resizer { position: absolute; right: -3px; top: 0; width: 7px; height: 100%; cursor: col-resize; z-index: 1; }
.vdb-resizer:hover, .vdb-resizer.active { background: var(--vscode-sash-hoverBorder, var(--vscode-focusBorder)); }
.vdb-row { position: absolute; left: 0; top: 0; height: ${ROW_HEIGHT}px; white-space: nowrap; }
.vdb-row.odd .vdb-cell { background: var(--vscode-list-hoverBackground, transparent); }
/* The row number and the frozen cells sit in one sticky element a row, placed inside it: measured
   (bench/gridRowFloor.mjs), a second sticky element a row cost the renderer 35–45% more a screen of new rows. */
.vdb-rowhead { position: sticky; left: 0; z-index: 1; display: inline-block; vertical-align: top; height: ${ROW_HEIGHT}px; }
.vdb-rownum { position: absolute; left: 0; top: 0; width: ${GUTTER_WIDTH}px; height: ${ROW_HEIGHT}px; line-height: ${ROW_HEIGHT}px;
  box-sizing: border-box; padding-right: 6px; text-align: right; color: var(--vscode-editorLineNumber-foreground, var(--vscode-descriptionForeground));
  background: var(--vscode-editor-background); box-shadow: inset -1px 0 0 var(--vscode-editorWidget-border, #8884); cursor: pointer; user-select: none; }
/* Grid lines as inset shadows, not borders: measured (bench/.out profiling) borders on these
   clipped, absolutely placed cells cost ~4x the layout time of a scroll step. */
.vdb-cell { position: absolute; top: 0; height: ${ROW_HEIGHT}px; line-height: ${ROW_HEIGHT}px; padding: 0 6px; box-sizing: border-box;
  overflow: hidden; white-space: nowrap; text-overflow: ellipsis; box-shadow: inset -1px -1px 0 var(--vscode-editorWidget-border, #8883);
  user-select: none; cursor: cell; }
.vdb-cell.num { text-align: right; font-variant-numeric: tabular-nums; }
.vdb-cell.null, .vdb-cell.binary { color: var(--vscode-descriptionForeground, #717171); font-style: italic; }
.vdb-cell.binary { font-style: normal; }
.vdb-cell.long::after { content: '⤢'; position: absolute; right: 2px; color: var(--vscode-textLink-foreground); font-size: 10px; }
.vdb-row .vdb-cell.selected { background: var(--vscode-list-inactiveSelectionBackground, #264f7840);
  color: var(--vscode-list-inactiveSelectionForeground, inherit); }
.vdb-grid:focus .vdb-row .vdb-cell.selected { background: var(--vscode-list-activeSelectionBackground, #264f78);
  color: var(--vscode-list-activeSelectionForeground, #ffffff); }
.vdb-cell.active { outline: 1px solid var(--vscode-list-focusOutline, var(--vscode-focusBorder, #0078d4)); outline-offset: -1px; }
.vdb-empty { padding: 8px; color: var(--vscode-descriptionForeground); }
.vdb-detail { border: 1px solid var(--vscode-editorWidget-border, #8884); background: var(--vscode-editorWidget-background); margin-top: 4px; }
.vdb-detail-head { display: flex; gap: 6px; align-items: center; padding: 2px 6px; border-bottom: 1px solid var(--vscode-editorWidget-border, #8884); }
.vdb-detail-head span { margin-right: auto; color: var(--vscode-descriptionForeground); }
.vdb-detail-head button { background: none; border: none; color: var(--vscode-textLink-foreground); cursor: pointer; font: inherit; }
.vdb-detail pre { margin: 0; padding: 6px; max-height: 240px; overflow: auto; white-space: pre-wrap; word-break: break-all;
  font-family: var(--vscode-editor-font-family, monospace); }
/* Some parts set their own display; the hidden attribute must still hide them. */
.vdb-result [hidden] { display: none !important; }
/* Frozen leading columns (e.g. the primary key), opaque so the scrolled cells pass beneath them:
   in a row, placed in its sticky head after the row number; in the header, in its flow right
   after the sticky corner, sticky at their own offset. */
.vdb-cell.frozen { background-color: var(--vscode-editor-background); }
.vdb-hcell.frozen { position: sticky; display: inline-block; vertical-align: top; z-index: 1;
  background-color: var(--vscode-editor-background); }
.vdb-hcell.frozen { z-index: 3; background-color: var(--vscode-editorGroupHeader-tabsBackground, var(--vscode-editor-background)); }
.vdb-row.odd .vdb-cell.frozen { background-image: linear-gradient(var(--vscode-list-hoverBackground, transparent), var(--vscode-list-hoverBackground, transparent)); }
/* The rows drawn on one canvas while the scroll leaps (gridMotion.ts): in view below the header,
   over the rows, never a target for the pointer. */
.vdb-motion { position: sticky; top: ${MOTION_TOP}px; left: 0; width: 0; height: 0; z-index: 2; pointer-events: none; }
.vdb-motion[hidden] { display: none; }
.vdb-motion > canvas { position: absolute; left: 0; top: 0; display: block; }
/* Rows not loaded yet, and rows of a page that failed. */
.vdb-cell.placeholder { background-image: linear-gradient(90deg, transparent 8px, var(--vscode-editorWidget-border, #8882) 8px,
  var(--vscode-editorWidget-border, #8882) 60%, transparent 60%); background-size: 100% 6px; background-repeat: no-repeat; background-position: 0 50%; }
/* A failed row: its number stays in the gutter, the error bar sits beside it in the same line
   (rows never wrap), where the columns start, and stays there on horizontal scroll. */
.vdb-rowerror { position: sticky; left: ${GUTTER_WIDTH}px; display: inline-flex; vertical-align: top; height: ${ROW_HEIGHT}px; line-height: ${ROW_HEIGHT}px;
  padding: 0 6px; box-sizing: border-box; overflow: hidden; white-space: nowrap;
  color: var(--vscode-errorForeground, #f14c4c); background: var(--vscode-inputValidation-errorBackground, transparent); }
/* A long server message is cut short, never Retry: it stays in view at the row's end. */
.vdb-rowerror > span { flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.vdb-rowerror .vdb-retry { flex: none; margin-left: 8px; background: none; border: none; color: var(--vscode-textLink-foreground); cursor: pointer; font: inherit; text-decoration: underline; }
/* Diff rows (issue #15): added, removed, modified with the changed cells marked. */
.vdb-row.added .vdb-cell { background-color: var(--vscode-diffEditor-insertedLineBackground, #9bb95533); }
.vdb-row.removed .vdb-cell { background-color: var(--vscode-diffEditor-removedLineBackground, #ff000033); text-decoration: line-through; }
.vdb-cell.changed { background-color: var(--vscode-diffEditor-insertedTextBackground, #9ccc2c33); }
/* On a diff's colored rows the dimmed NULL and <binary> would fall below 4.5:1: they keep the text color (still italic). */
.vdb-row.added .vdb-cell.null, .vdb-row.removed .vdb-cell.null, .vdb-cell.changed.null,
.vdb-row.added .vdb-cell.binary, .vdb-row.removed .vdb-cell.binary, .vdb-cell.changed.binary { color: inherit; }
/* A frozen cell stays opaque over the cells scrolled beneath it, whatever tints its row or itself:
   the editor background as its color, a tint (mostly translucent in themes) as an image over it. */
.vdb-row .vdb-cell.frozen { background-color: var(--vscode-editor-background); }
.vdb-row.added .vdb-cell.frozen { background-color: var(--vscode-editor-background);
  background-image: linear-gradient(var(--vscode-diffEditor-insertedLineBackground, #9bb95533), var(--vscode-diffEditor-insertedLineBackground, #9bb95533)); }
.vdb-row.removed .vdb-cell.frozen { background-color: var(--vscode-editor-background);
  background-image: linear-gradient(var(--vscode-diffEditor-removedLineBackground, #ff000033), var(--vscode-diffEditor-removedLineBackground, #ff000033)); }
.vdb-row .vdb-cell.changed.frozen { background-color: var(--vscode-editor-background);
  background-image: linear-gradient(var(--vscode-diffEditor-insertedTextBackground, #9ccc2c33), var(--vscode-diffEditor-insertedTextBackground, #9ccc2c33)); }
.vdb-row .vdb-cell.selected.frozen { background-color: var(--vscode-editor-background);
  background-image: linear-gradient(var(--vscode-list-inactiveSelectionBackground, #264f7840), var(--vscode-list-inactiveSelectionBackground, #264f7840)); }
.vdb-grid:focus .vdb-row .vdb-cell.selected.frozen { background-color: var(--vscode-editor-background);
  background-image: linear-gradient(var(--vscode-list-activeSelectionBackground, #264f78), var(--vscode-list-activeSelectionBackground, #264f78)); }
/* Rows and cells with comments in the pull request (issue #25): a bar and the count at the right. */
.vdb-cell.commented { box-shadow: inset -3px 0 0 var(--vscode-editorInfo-foreground, #3794ff); padding-right: 22px; }
.vdb-cell.commented::after { content: attr(data-comments); position: absolute; right: 5px; font-size: 0.8em; color: var(--vscode-editorInfo-foreground, #3794ff); }
.vdb-hfilter { position: absolute; right: 6px; top: 4px; height: 16px; line-height: 14px; padding: 0 2px; font-size: 10px;
  background: none; border: none; color: var(--vscode-descriptionForeground); cursor: pointer; opacity: .6; }
.vdb-hcell:hover .vdb-hfilter, .vdb-hfilter.on { opacity: 1; }
.vdb-hfilter.on { color: var(--vscode-textLink-foreground); }
.vdb-hcell:has(.vdb-hfilter) .vdb-sort { right: 22px; }
.vdb-filterform { position: absolute; z-index: 10; display: flex; flex-direction: column; gap: 4px; padding: 8px; min-width: 220px;
  background: var(--vscode-editorWidget-background); border: 1px solid var(--vscode-editorWidget-border, #8884); box-shadow: 0 2px 8px var(--vscode-widget-shadow, #0005); }
.vdb-filterform input, .vdb-filterform select { background: var(--vscode-input-background); color: var(--vscode-input-foreground);
  border: 1px solid var(--vscode-input-border, transparent); padding: 2px 4px; font: inherit; }
.vdb-filterform-title { font-weight: 600; }
.vdb-filter-error { color: var(--vscode-errorForeground, #f14c4c); }
.vdb-filter-error:empty { display: none; }
.vdb-banner-actions { margin-top: 4px; display: flex; gap: 6px; }
.vdb-banner-actions button, .vdb-filterform button { background: var(--vscode-button-background); color: var(--vscode-button-foreground);
  border: none; padding: 3px 8px; cursor: pointer; font: inherit; }
.vdb-banner-actions button:disabled { opacity: .6; cursor: default; }
.vdb-menu { position: fixed; z-index: 20; min-width: 180px; padding: 4px 0; background: var(--vscode-menu-background, var(--vscode-editorWidget-background));
  color: var(--vscode-menu-foreground, inherit); border: 1px solid var(--vscode-menu-border, var(--vscode-editorWidget-border, #8884)); box-shadow: 0 2px 8px var(--vscode-widget-shadow, #0005); }
.vdb-menu button { display: block; width: 100%; text-align: left; background: none; border: none; color: inherit; padding: 4px 12px; font: inherit; cursor: pointer; }
.vdb-menu button:hover, .vdb-menu button:focus { background: var(--vscode-menu-selectionBackground, var(--vscode-list-activeSelectionBackground)); color: var(--vscode-menu-selectionForeground, inherit); outline: none; }
.vdb-menu button:disabled { opacity: .6; cursor: default; }
/* Editing (issue #23): the edit bar, the cell editor, problems at the cell. */
.vdb-editbar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 2px 0 4px; }
.vdb-editbar button { background: var(--vscode-button-secondaryBackground, var(--vscode-button-background));
  color: var(--vscode-button-secondaryForeground, var(--vscode-button-foreground)); border: none; padding: 3px 8px; cursor: pointer; font: inherit; }
.vdb-editbar button.primary { background: var(--vscode-button-background); color: var(--vscode-button-foreground); }
.vdb-editbar button:hover:not(:disabled) { background: var(--vscode-button-secondaryHoverBackground, var(--vscode-button-hoverBackground)); }
.vdb-editbar button.primary:hover:not(:disabled) { background: var(--vscode-button-hoverBackground); }
.vdb-editbar button:disabled { opacity: .5; cursor: default; }
.vdb-editbar button:focus-visible, .vdb-editor button:focus-visible, .vdb-editor-input:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
.vdb-editcounts { color: var(--vscode-descriptionForeground); margin: 0 6px; }
.vdb-edithint { color: var(--vscode-descriptionForeground); font-size: 0.92em; padding-bottom: 4px; }
.vdb-editor { position: absolute; z-index: 15; display: flex; flex-direction: column; gap: 2px; padding: 2px;
  background: var(--vscode-editorWidget-background); border: 1px solid var(--vscode-focusBorder); box-shadow: 0 2px 8px var(--vscode-widget-shadow, transparent); }
.vdb-editor-input { background: var(--vscode-input-background); color: var(--vscode-input-foreground); border: 1px solid var(--vscode-input-border, transparent);
  font-family: var(--vscode-editor-font-family, monospace); font-size: var(--vscode-editor-font-size, 12px); padding: 2px 4px; box-sizing: border-box; width: 100%; }
.vdb-editor-input.num { text-align: right; }
.vdb-editor-input.long { min-height: 110px; resize: both; }
.vdb-editor-input::placeholder { color: var(--vscode-input-placeholderForeground); font-style: italic; }
.vdb-editor-foot { display: flex; align-items: center; gap: 6px; }
.vdb-editor-hint { color: var(--vscode-descriptionForeground); font-size: 0.9em; margin-right: auto; }
.vdb-editor-null { background: none; border: none; color: var(--vscode-textLink-foreground); cursor: pointer; font: inherit; font-size: 0.9em; }
.vdb-editor-problem { color: var(--vscode-errorForeground); font-size: 0.9em; max-width: 420px; white-space: normal; }
.vdb-row .vdb-cell.invalid { box-shadow: inset 0 0 0 1px var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground));
  background-color: var(--vscode-inputValidation-errorBackground, var(--vscode-editor-background));
  /* A corner mark, as spreadsheets have: it stays visible when the cell is selected. */
  background-image: linear-gradient(225deg, var(--vscode-errorForeground) 7px, transparent 7px); }
.vdb-row .vdb-cell.pending { box-shadow: inset 0 0 0 1px var(--vscode-inputValidation-warningBorder, var(--vscode-editorWarning-foreground)); }
.vdb-rownum.invalid { color: var(--vscode-errorForeground); font-weight: 600; }
.vdb-row.added .vdb-rownum { color: var(--vscode-gitDecoration-addedResourceForeground, var(--vscode-descriptionForeground)); }
/* The empty string, in an editable grid: a faint pair of quotes, so it never reads as NULL. */
.vdb-cell.empty::before { content: "''"; color: var(--vscode-descriptionForeground, #717171); }
.vdb-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

const STYLE_ID = 'vdb-grid-styles';

/**
 * The average width of one character in the grid's font, as laid out in `scroller` (0 when it is
 * not laid out, e.g. in an output that is not shown): what column widths are counted in.
 */
export function measureCharWidth(scroller: HTMLElement): number {
  const sample = '0123456789abcdefghijklmnopqrstuvwxyz'; // measured, never shown: not translated
  // The grid's font measured on a canvas: reading the computed font recalculates style only, where a
  // DOM probe forced a layout of the whole page before the first frame (11 ms at 100,000 × 20).
  const view = scroller.ownerDocument.defaultView;
  const ctx = scroller.ownerDocument.createElement('canvas').getContext('2d');
  if (view && ctx) {
    const st = view.getComputedStyle(scroller);
    ctx.font = `${st.fontStyle} ${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
    const width = ctx.measureText(sample).width;
    if (width > 0) return width / sample.length;
  }
  const probe = scroller.ownerDocument.createElement('span');
  probe.append(sample);
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;left:0;top:0';
  scroller.appendChild(probe);
  const width = probe.getBoundingClientRect().width;
  probe.remove();
  return width / sample.length;
}

export function injectStyles(doc: Document, nonce?: string): void {
  if (doc.getElementById(STYLE_ID)) return;
  const style = doc.createElement('style');
  style.id = STYLE_ID;
  if (nonce) style.nonce = nonce;
  style.textContent = CSS;
  (doc.head ?? doc.documentElement).appendChild(style);
}
