// The editor of one cell (issue #23), over the cell: a text box for most types (numbers get a
// numeric keyboard and are right-aligned), a larger box for JSON and long text, a list for booleans
// and enums. Enter and Tab commit (and move down or across), Escape cancels, a click elsewhere
// commits; Set NULL (for a nullable column) gives NULL, distinct from an empty box, which is the
// empty string. Under the box: what the column takes, and the cell's problem if it has one. What
// fits is checked by the host (src/core/changes/checkColumnValue.ts); the editor never changes
// what was typed.
import type { Cell, QueryColumn } from '../shared/wire';
import type { ColumnType } from '../shared/columnType';
import { el } from './dom';
import * as l10n from '../shared/l10n';

export type EditorMove = 'down' | 'up' | 'right' | 'left' | 'stay';

export interface CellEditorOptions {
  /** Where the editor is placed (positioned), and the cell's box in the viewport. */
  container: HTMLElement;
  cellBox: DOMRect;
  column: QueryColumn;
  type: ColumnType;
  nullable: boolean;
  value: Cell;
  /** A character typed on the grid: the editor opens with it instead of the value. */
  initial?: string;
  problem?: string;
  commit(value: Cell, move: EditorMove): void;
  cancel(): void;
}

const NULL_OPTION = '\u0000null';

/** What the column takes, in a few words. */
export function typeHint(t: ColumnType, column: QueryColumn): string {
  switch (t.kind) {
    case 'integer':
      return `Whole number (${column.type})`;
    case 'boolean':
      return '1 (true) or 0 (false)';
    case 'decimal':
      return t.precision !== undefined
        ? `Decimal, up to ${t.precision - (t.scale ?? 0)} digits before the point and ${t.scale ?? 0} after`
        : 'Decimal';
    case 'float':
      return 'Number';
    case 'date':
      return 'Date: YYYY-MM-DD';
    case 'datetime':
      return `Date and time: YYYY-MM-DD HH:MM:SS${t.fraction ? `[.${'f'.repeat(t.fraction)}]` : ''}`;
    case 'time':
      return `Time: HH:MM:SS${t.fraction ? `[.${'f'.repeat(t.fraction)}]` : ''}`;
    case 'year':
      return 'Year: YYYY';
    case 'json':
      return 'JSON';
    default:
      return t.maxChars !== undefined ? `Text, up to ${t.maxChars} characters` : `Text (${column.type || 'any'})`;
  }
}

function listControl(doc: Document, o: CellEditorOptions): HTMLSelectElement {
  const s = el(doc, 'select', 'vdb-editor-input');
  const values = o.type.kind === 'boolean' ? ['1', '0'] : (o.type.values ?? []);
  const labels: Record<string, string> = o.type.kind === 'boolean' ? { '1': '1 (true)', '0': '0 (false)' } : {};
  const all = o.value !== null && !values.includes(o.value) ? [o.value, ...values] : values;
  for (const v of all) {
    const opt = el(doc, 'option', undefined, labels[v] ?? v);
    opt.value = v;
    s.appendChild(opt);
  }
  if (o.nullable) {
    const opt = el(doc, 'option', undefined, l10n.t('NULL'));
    opt.value = NULL_OPTION;
    s.appendChild(opt);
  }
  s.value = o.value === null ? NULL_OPTION : o.value;
  const typed = o.initial?.toLowerCase();
  const match = typed ? [...s.options].find((opt) => opt.text.toLowerCase().startsWith(typed)) : undefined;
  if (match) s.value = match.value;
  return s;
}

function textControl(doc: Document, o: CellEditorOptions): HTMLInputElement | HTMLTextAreaElement {
  const long = o.type.long || (o.value !== null && /[\r\n]/.test(o.value));
  const c = long ? el(doc, 'textarea', 'vdb-editor-input long') : el(doc, 'input', 'vdb-editor-input');
  if (c instanceof HTMLTextAreaElement) c.rows = 6;
  else {
    c.type = 'text';
    if (['integer', 'decimal', 'float', 'boolean', 'year'].includes(o.type.kind)) {
      c.inputMode = o.type.kind === 'integer' || o.type.kind === 'year' ? 'numeric' : 'decimal';
      c.classList.add('num');
    }
  }
  c.value = o.initial ?? o.value ?? '';
  if (o.value === null && o.initial === undefined) c.placeholder = l10n.t('NULL');
  c.spellcheck = false;
  return c;
}

/** Where a key in the editor moves the selection once it commits (undefined: the key is the editor's). */
function moveFor(e: KeyboardEvent, multiline: boolean): EditorMove | undefined {
  if (e.key === 'Tab') return e.shiftKey ? 'left' : 'right';
  if (e.key !== 'Enter') return undefined;
  // In a larger box Shift+Enter and Alt+Enter are a line break.
  if (multiline && (e.shiftKey || e.altKey)) return undefined;
  return e.shiftKey ? 'up' : 'down';
}

/** The editor's box over the cell: the control, what the column takes, Set NULL, the cell's problem. */
function editorBox(
  doc: Document,
  o: CellEditorOptions,
  control: HTMLElement,
  list: boolean,
): { box: HTMLElement; nullButton?: HTMLButtonElement } {
  const box = el(doc, 'div', 'vdb-editor');
  box.setAttribute('role', 'dialog');
  box.setAttribute('aria-label', l10n.t('Edit {0}', o.column.name));
  control.setAttribute('aria-label', `${o.column.name} (${o.column.type})`);
  box.appendChild(control);
  const foot = el(doc, 'div', 'vdb-editor-foot');
  foot.appendChild(el(doc, 'div', 'vdb-editor-hint', l10n.t('{0} · Enter saves · Esc cancels', typeHint(o.type, o.column))));
  const nullButton = o.nullable && !list ? el(doc, 'button', 'vdb-editor-null', l10n.t('Set NULL')) : undefined;
  if (nullButton) {
    nullButton.type = 'button';
    nullButton.title = l10n.t('Save NULL (no value), which is not the empty string');
    foot.appendChild(nullButton);
  }
  box.appendChild(foot);
  if (o.problem) {
    const p = el(doc, 'div', 'vdb-editor-problem', o.problem);
    p.setAttribute('role', 'alert');
    box.appendChild(p);
  }
  const base = o.container.getBoundingClientRect();
  box.style.left = `${Math.max(0, o.cellBox.left - base.left)}px`;
  box.style.top = `${Math.max(0, o.cellBox.top - base.top)}px`;
  box.style.minWidth = `${Math.max(o.cellBox.width, control instanceof HTMLTextAreaElement ? 360 : 160)}px`;
  return nullButton ? { box, nullButton } : { box };
}

/** Opens the editor over the cell; returns a function that closes it without committing. */
export function openCellEditor(doc: Document, o: CellEditorOptions): () => void {
  const list = o.type.kind === 'boolean' || o.type.kind === 'enum';
  const control = list ? listControl(doc, o) : textControl(doc, o);
  const { box, nullButton } = editorBox(doc, o, control, list);
  o.container.appendChild(box);

  let done = false;
  let dirty = o.initial !== undefined;
  const close = (): void => {
    done = true;
    box.remove();
  };
  const finish = (value: Cell | undefined, move: EditorMove): void => {
    if (done) return;
    close();
    // An untouched box keeps the value as it was (NULL stays NULL, not the empty string).
    if (value === undefined) o.cancel();
    else o.commit(value, move);
  };
  const current = (): Cell => {
    if (control instanceof HTMLSelectElement) return control.value === NULL_OPTION ? null : control.value;
    return dirty ? control.value : o.value;
  };
  control.addEventListener('input', () => (dirty = true));
  control.addEventListener('keydown', (event) => {
    const e = event as KeyboardEvent;
    // The editor's keys are its own: neither the grid nor VS Code acts on them.
    e.stopPropagation();
    if (e.key === 'Escape') {
      e.preventDefault();
      finish(undefined, 'stay');
      return;
    }
    const move = moveFor(e, control instanceof HTMLTextAreaElement);
    if (!move) return;
    e.preventDefault();
    finish(current(), move);
  });
  control.addEventListener('blur', () => setTimeout(() => finish(current(), 'stay'), 0));
  nullButton?.addEventListener('mousedown', (e) => e.preventDefault());
  nullButton?.addEventListener('click', () => finish(null, 'stay'));
  control.focus();
  if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) {
    const end = control.value.length;
    control.setSelectionRange(end, end);
  }
  return close;
}
