// The full value of one cell under the grid (Enter or a double-click on a read-only grid), with
// Copy value and Close. Server text is set as text only.
import type { Cell } from '../shared/wire';
import { el } from './dom';
import { button } from './gridChrome';
import * as l10n from '../shared/l10n';

export class DetailBox {
  readonly el: HTMLElement;

  constructor(
    private readonly doc: Document,
    /** Where the focus goes back when the box closes. */
    private readonly focusBack: () => void,
  ) {
    this.el = el(doc, 'div', 'vdb-detail');
    this.el.hidden = true;
    this.el.setAttribute('role', 'region');
    this.el.setAttribute('aria-label', l10n.t('Full cell value'));
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  show(heading: string, value: Cell, copy: () => void): void {
    const d = this.doc;
    const head = el(d, 'div', 'vdb-detail-head');
    head.appendChild(el(d, 'span', undefined, heading));
    head.appendChild(button(d, '', l10n.t('Copy value'), l10n.t('Copy the full value'), copy));
    const close = button(d, '', l10n.t('Close'), l10n.t('Close the full value'), () => this.hide());
    close.setAttribute('aria-label', l10n.t('Close the full value'));
    head.appendChild(close);
    const pre = el(d, 'pre', value === null ? 'null' : undefined, value === null ? l10n.t('NULL') : value);
    this.el.replaceChildren(head, pre);
    this.el.hidden = false;
  }

  /** Closes the box; returns whether it was open. */
  hide(): boolean {
    if (this.el.hidden) return false;
    this.el.hidden = true;
    this.el.replaceChildren();
    this.focusBack();
    return true;
  }
}
