// The per-column filter form of a paged source (the header's filter button): an operator and its
// value(s), applied on the server; and the filter in words for the summary and announcements.
import type { QueryColumn } from '../shared/wire';
import type { ColumnFilter, FilterOp } from '../shared/gridPaging';
import { el } from './dom';
import { select } from './gridChrome';
import * as l10n from '../shared/l10n';

/** Getters: each text is translated when read, not when this module loads. */
const OP_LABELS: Record<FilterOp, string> = {
  get contains() {
    return l10n.t('contains');
  },
  get equals() {
    return l10n.t('equals');
  },
  get range() {
    return l10n.t('between (inclusive)');
  },
  get isNull() {
    return l10n.t('is NULL');
  },
  get isNotNull() {
    return l10n.t('is not NULL');
  },
};

interface FilterFields {
  op: HTMLSelectElement;
  value: HTMLInputElement;
  min: HTMLInputElement;
  max: HTMLInputElement;
  error: HTMLElement;
}

function input(doc: Document, cls: string, label: string, placeholder?: string): HTMLInputElement {
  const i = el(doc, 'input', cls);
  i.setAttribute('aria-label', label);
  if (placeholder) i.placeholder = placeholder;
  return i;
}

/** The form's fields, filled from the filter in force; only the fields of the chosen operator show. */
function filterFields(doc: Document, current: ColumnFilter | undefined): FilterFields {
  const op = select(
    doc,
    'vdb-filter-op',
    'Condition',
    (Object.keys(OP_LABELS) as FilterOp[]).map((o) => ({ value: o, label: OP_LABELS[o] })),
  );
  op.value = current?.op ?? 'contains';
  const f: FilterFields = {
    op,
    value: input(doc, 'vdb-filter-value', 'Value'),
    min: input(doc, 'vdb-filter-min', 'From', 'from'),
    max: input(doc, 'vdb-filter-max', 'To', 'to'),
    error: el(doc, 'div', 'vdb-filter-error'),
  };
  if (current && (current.op === 'equals' || current.op === 'contains')) f.value.value = current.value;
  if (current?.op === 'range') {
    f.min.value = current.min ?? '';
    f.max.value = current.max ?? '';
  }
  f.error.setAttribute('role', 'alert');
  const showFields = (): void => {
    f.value.hidden = op.value !== 'equals' && op.value !== 'contains';
    f.min.hidden = f.max.hidden = op.value !== 'range';
  };
  op.addEventListener('change', showFields);
  showFields();
  return f;
}

/** The filter the fields describe, or a message saying what is missing. */
function filterOf(column: string, f: FilterFields): ColumnFilter | { error: string } {
  const o = f.op.value as FilterOp;
  if (o === 'equals' || o === 'contains') return { column, op: o, value: f.value.value };
  if (o !== 'range') return { column, op: o };
  if (f.min.value === '' && f.max.value === '') return { error: 'Give a lower bound, an upper bound or both.' };
  return {
    column,
    op: 'range',
    ...(f.min.value !== '' ? { min: f.min.value } : {}),
    ...(f.max.value !== '' ? { max: f.max.value } : {}),
  };
}

/**
 * The filter form of one column: an operator and its value(s). Calls `apply` with the new
 * filter, or undefined to clear it. Closes on Escape or a click outside.
 */
export function openFilterForm(
  doc: Document,
  root: HTMLElement,
  anchor: HTMLElement,
  column: QueryColumn,
  current: ColumnFilter | undefined,
  apply: (f: ColumnFilter | undefined) => void,
): () => void {
  const form = el(doc, 'form', 'vdb-filterform');
  form.setAttribute('role', 'dialog');
  form.setAttribute('aria-label', l10n.t('Filter {0}', column.name));
  form.appendChild(el(doc, 'div', 'vdb-filterform-title', l10n.t('Filter {0}', column.name)));
  const f = filterFields(doc, current);
  const ok = el(doc, 'button', 'vdb-filter-apply', l10n.t('Apply'));
  ok.type = 'submit';
  const clear = el(doc, 'button', 'vdb-filter-clear', l10n.t('Clear'));
  clear.type = 'button';
  form.append(f.op, f.value, f.min, f.max, f.error, ok, clear);
  const r = anchor.getBoundingClientRect();
  const base = root.getBoundingClientRect();
  form.style.left = `${Math.max(0, r.left - base.left - 120)}px`;
  form.style.top = `${r.bottom - base.top + 2}px`;
  // Focus comes back where it was (the grid) when the form closes, so a keyboard user goes on there.
  const before = doc.activeElement as HTMLElement | null;
  root.appendChild(form);
  (f.value.hidden ? f.op : f.value).focus();

  const close = (): void => {
    const hadFocus = form.contains(doc.activeElement);
    form.remove();
    doc.removeEventListener('mousedown', outside, true);
    if (hadFocus) before?.focus();
  };
  const outside = (e: Event): void => {
    if (!form.contains(e.target as Node)) close();
  };
  doc.addEventListener('mousedown', outside, true);
  form.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
    }
  });
  clear.addEventListener('click', () => {
    close();
    apply(undefined);
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const next = filterOf(column.name, f);
    if ('error' in next) {
      f.error.textContent = next.error;
      return;
    }
    close();
    apply(next);
  });
  return close;
}

export function describeFilter(f: ColumnFilter): string {
  switch (f.op) {
    case 'equals':
      return `${f.column} = ${JSON.stringify(f.value)}`;
    case 'contains':
      return `${f.column} contains ${JSON.stringify(f.value)}`;
    case 'range':
      return `${f.column} ${f.min !== undefined ? `≥ ${f.min}` : ''}${f.min !== undefined && f.max !== undefined ? ' and ' : ''}${f.max !== undefined ? `≤ ${f.max}` : ''}`;
    case 'isNull':
      return `${f.column} is NULL`;
    case 'isNotNull':
      return `${f.column} is not NULL`;
  }
}
