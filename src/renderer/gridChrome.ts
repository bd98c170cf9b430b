// The parts around the grid: banners (status, ref moved, Load All Rows), the toolbar (summary,
// quick filter, copy, export); the full-value box is detailBox.ts, the per-column filter form of a
// paged source filterForm.ts. Built from server text with textContent only.
import { statusBanner, type QueryOutput, type StatusBanner } from '../shared/queryResultOutput';
import type { GridPagingMessage, HostPagingMessage, PagedOutput } from '../shared/gridPaging';
import { COPY_FORMATS, FORMAT_LABELS, type CopyFormat } from '../shared/queryResultFormat';
import { el } from './dom';
import * as l10n from '../shared/l10n';

export function shortHash(h: string): string {
  return h.length > 8 ? h.slice(0, 8) : h;
}

export interface BannerAction {
  label: string;
  run: (button: HTMLButtonElement) => void;
  cls?: string;
}

export function banner(doc: Document, b: StatusBanner, dataBanner?: string, actions: BannerAction[] = []): HTMLElement {
  const box = el(doc, 'div', `vdb-banner ${b.severity}`);
  box.setAttribute('role', b.severity === 'error' ? 'alert' : 'status');
  if (dataBanner) box.setAttribute('data-banner', dataBanner);
  box.appendChild(el(doc, 'div', 'vdb-banner-title', b.title));
  if (b.message) box.appendChild(el(doc, 'div', 'vdb-banner-message', b.message));
  if (b.advice) box.appendChild(el(doc, 'div', 'vdb-banner-advice', b.advice));
  if (actions.length) {
    const row = el(doc, 'div', 'vdb-banner-actions');
    for (const a of actions) {
      const btn = el(doc, 'button', a.cls ?? 'vdb-banner-action', a.label);
      btn.addEventListener('click', () => a.run(btn));
      row.appendChild(btn);
    }
    box.appendChild(row);
  }
  return box;
}

export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

export function select<T extends string>(
  doc: Document,
  cls: string,
  label: string,
  options: readonly SelectOption<T>[],
): HTMLSelectElement {
  const s = el(doc, 'select', cls);
  s.setAttribute('aria-label', label);
  for (const o of options) {
    const opt = el(doc, 'option', undefined, o.label);
    opt.value = o.value;
    s.appendChild(opt);
  }
  return s;
}

export function button(doc: Document, cls: string, text: string, title: string, run: () => void): HTMLButtonElement {
  const b = el(doc, 'button', cls, text);
  b.title = title;
  b.addEventListener('click', run);
  return b;
}

export function copyFormatOptions(formats: readonly CopyFormat[]): SelectOption<CopyFormat>[] {
  return formats.map((f) => ({ value: f, label: FORMAT_LABELS[f] }));
}

export interface ToolbarOptions {
  summary: string;
  /** The quick filter over every cell (whole results only). */
  quickFilter?: { apply: (text: string) => void; delayMs: number };
  copyFormat: (f: CopyFormat) => void;
  copy: () => void;
  export: { formats: SelectOption<string>[]; title: string; run: (format: string) => void };
}

/** Summary, quick filter, copy format + Copy, export format + Export. */
export function toolbar(d: Document, o: ToolbarOptions): { el: HTMLElement; summary: HTMLElement; dispose: () => void } {
  const bar = el(d, 'div', 'vdb-toolbar');
  bar.setAttribute('role', 'toolbar');
  const summary = el(d, 'span', 'vdb-summary', o.summary);
  bar.appendChild(summary);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const qf = o.quickFilter;
  if (qf) {
    const filter = el(d, 'input', 'vdb-filter');
    filter.type = 'search';
    filter.placeholder = l10n.t('Filter rows');
    filter.setAttribute('aria-label', l10n.t('Filter rows (matches any cell)'));
    filter.addEventListener('input', () => {
      if (timer) clearTimeout(timer);
      // Debounced so typing stays responsive on 100k rows.
      timer = setTimeout(() => qf.apply(filter.value), qf.delayMs);
    });
    filter.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        if (timer) clearTimeout(timer);
        qf.apply(filter.value);
      }
    });
    bar.appendChild(filter);
  }
  const fmt = select(d, 'vdb-copy-format', 'Copy format', copyFormatOptions(COPY_FORMATS));
  fmt.addEventListener('change', () => o.copyFormat(fmt.value as CopyFormat));
  bar.appendChild(fmt);
  bar.appendChild(
    button(d, 'vdb-copy', l10n.t('Copy'), l10n.t('Copy the selected cells (or every row shown) in the chosen format'), o.copy),
  );
  const exp = select(d, 'vdb-export-format', 'Export format', o.export.formats);
  bar.appendChild(exp);
  bar.appendChild(button(d, 'vdb-export', l10n.t('Export…'), o.export.title, () => o.export.run(exp.value)));
  return { el: bar, summary, dispose: () => timer && clearTimeout(timer) };
}

/** The banners of a whole result: the ref having moved, the status, and Load All Rows past the cap. */
export function resultBanners(d: Document, c: QueryOutput, post: ((m: GridPagingMessage) => void) | undefined): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (c.movedTo && c.commit) {
    out.push(
      banner(d, {
        severity: 'info',
        title: l10n.t('{0} has moved since this ran', c.target.ref),
        message: '',
        advice: `Ran at ${shortHash(c.commit)}; the branch is now at ${shortHash(c.movedTo)}. Run the cell again to see the latest data.`,
      }),
    );
  }
  let b = statusBanner(c.result, c.limit);
  if (!b) return out;
  const actions: BannerAction[] = [];
  if (c.result.status === 'row_limit' && c.canLoadAll && post) {
    b = { ...b, advice: `${b.advice} Or load every row: Load All Rows reads the same query again at the same commit, a page at a time.` };
    actions.push({
      label: l10n.t('Load All Rows'),
      cls: 'vdb-loadall',
      run: (btn) => {
        btn.disabled = true;
        btn.textContent = l10n.t('Loading all rows…');
        post(c.key ? { type: 'loadAll', key: c.key } : { type: 'loadAll' });
      },
    });
  } else if (c.result.status === 'row_limit' && c.loadAllUnavailable) {
    b = { ...b, advice: `${b.advice} Load All Rows is not available: ${c.loadAllUnavailable}` };
  }
  out.push(banner(d, b, String(c.result.status), actions));
  return out;
}

export function pagedBanners(d: Document, c: PagedOutput): HTMLElement[] {
  const out = c.note ? [banner(d, { severity: 'info', title: c.note, message: '', advice: '' }, 'note')] : [];
  // Why a table browser's rows cannot be edited here (a tag, a commit, no primary key ...).
  if (c.edit?.readOnly) out.push(banner(d, { severity: 'info', title: c.edit.readOnly, message: '', advice: '' }, 'readonly'));
  return out;
}

export function refMovedBanner(
  d: Document,
  m: Extract<HostPagingMessage, { type: 'ref.moved' }>,
  refresh: () => void,
  editing = false,
): HTMLElement {
  const advice = editing
    ? `Your changes are made on the rows at ${shortHash(m.commit)}, where every page is read; the branch is now at ${shortHash(m.movedTo)}. ` +
      'Refresh reads the new head once you have proposed or discarded them.'
    : `Every page is read at ${shortHash(m.commit)}, so they stay consistent; the branch is now at ${shortHash(m.movedTo)}.`;
  return banner(d, { severity: 'info', title: l10n.t('{0} has moved since this opened', m.ref), message: '', advice }, 'moved', [
    { label: l10n.t('Refresh'), cls: 'vdb-refresh', run: refresh },
  ]);
}
