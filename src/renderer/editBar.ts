// The edit bar of an editable table browser (issue #23), under the grid's toolbar: Add Row, Delete
// Rows, Set NULL, Undo, Redo, the change set's counts, Next Problem, Review Changes, Discard… and
// Propose Changes… (enabled once something changed and nothing is wrong), and a line that says how
// editing works here, new rows at the top included. Every button is a real button, so the bar is
// reached and used with the keyboard (Tab from the grid's toolbar).
import { canPropose, countsText, type EditCounts } from '../shared/editProtocol';
import { el } from './dom';
import * as l10n from '../shared/l10n';

export type EditCommand = 'add' | 'delete' | 'null' | 'undo' | 'redo' | 'problems' | 'review' | 'discard' | 'propose';

/** A function: the texts are translated when the bar is built, after the page installed its bundle. */
const BUTTONS = (): { id: EditCommand; label: string; title: string }[] => [
  { id: 'add', label: l10n.t('Add Row'), title: l10n.t('Add a new row at the top of the grid (Insert)') },
  { id: 'delete', label: l10n.t('Delete Rows'), title: l10n.t('Mark the selected rows for deletion; a new row is removed (Ctrl+Delete)') },
  { id: 'null', label: l10n.t('Set NULL'), title: l10n.t('Set the selected cells to NULL, which is not the empty string (Delete)') },
  { id: 'undo', label: l10n.t('Undo'), title: l10n.t('Undo the last edit (Ctrl+Z)') },
  { id: 'redo', label: l10n.t('Redo'), title: l10n.t('Redo the edit undone last (Ctrl+Shift+Z or Ctrl+Y)') },
  { id: 'problems', label: l10n.t('Next Problem'), title: l10n.t('Select the next cell whose value does not fit its column') },
  { id: 'review', label: l10n.t('Review Changes'), title: l10n.t('Show the changes as a diff against the rows they were made on') },
  { id: 'discard', label: l10n.t('Discard…'), title: l10n.t('Forget every unsent change to this table (asks first)') },
  { id: 'propose', label: l10n.t('Propose Changes…'), title: l10n.t('Send the changes as a pull request into the branch') },
];

export interface EditBar {
  el: HTMLElement;
  update(counts: EditCounts): void;
}

export function editBar(doc: Document, where: string, run: (c: EditCommand) => void): EditBar {
  const wrap = el(doc, 'div', 'vdb-editwrap');
  const bar = el(doc, 'div', 'vdb-editbar');
  bar.setAttribute('role', 'toolbar');
  bar.setAttribute('aria-label', l10n.t('Edit rows'));
  const buttons = new Map<EditCommand, HTMLButtonElement>();
  const counts = el(doc, 'span', 'vdb-editcounts', '');
  counts.setAttribute('data-counts', '');
  counts.setAttribute('aria-live', 'polite');
  for (const b of BUTTONS()) {
    if (b.id === 'problems') bar.appendChild(counts);
    const button = el(doc, 'button', b.id === 'propose' ? 'vdb-edit primary' : 'vdb-edit', b.label);
    button.type = 'button';
    button.title = b.title;
    button.setAttribute('data-edit', b.id);
    button.addEventListener('click', () => run(b.id));
    buttons.set(b.id, button);
    bar.appendChild(button);
  }
  const hint = el(
    doc,
    'div',
    'vdb-edithint',
    l10n.t('Editing {0}. New rows are listed at the top of the grid. Double-click, Enter, F2 or type to edit a cell; ', where) +
      l10n.t('Delete sets NULL; Insert adds a row; Ctrl+Delete deletes the selected rows; paste a block copied from a spreadsheet; ') +
      l10n.t('nothing is sent until you propose the changes.'),
  );
  wrap.append(bar, hint);
  const set = (id: EditCommand, enabled: boolean, title?: string): void => {
    const b = buttons.get(id);
    if (!b) return;
    b.disabled = !enabled;
    if (title) b.title = title;
  };
  return {
    el: wrap,
    update(c) {
      const any = c.updated + c.inserted + c.deleted > 0;
      counts.textContent = countsText(c);
      set('undo', c.canUndo);
      set('redo', c.canRedo);
      set('problems', c.problems + c.pending > 0);
      set('review', any);
      set('discard', any);
      const why = !any
        ? 'Nothing to propose yet'
        : c.problems
          ? 'Fix the cells marked as problems first'
          : c.pending
            ? 'Checking new keys against the table…'
            : 'Send the changes as a pull request into the branch';
      set('propose', canPropose(c), why);
    },
  };
}
