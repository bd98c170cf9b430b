import * as vscode from 'vscode';
import { Commands, Notebooks } from '../shared/ids';
import { branchMoved, targetLabel } from '../core/sql/refs';
import type { RefResolver } from './queryRunner';
import { cellTarget } from './sqlNotebookController';
import { OutputMeta, targetOf } from './sqlNotebookSerializer';
import * as l10n from '../shared/l10n';

const short = (h: string): string => h.slice(0, 8);

/**
 * A SQL cell's status bar: where it runs (click to change), and for an output of a branch
 * the commit it ran at — flagged when the branch has moved since.
 */
export class SqlCellStatusBar implements vscode.NotebookCellStatusBarItemProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCellStatusBarItems = this.changed.event;

  constructor(
    private readonly refs: RefResolver,
    private readonly labelOf: (hostId: string) => string,
  ) {}

  refresh(): void {
    this.changed.fire();
  }

  async provideCellStatusBarItems(cell: vscode.NotebookCell, token: vscode.CancellationToken): Promise<vscode.NotebookCellStatusBarItem[]> {
    if (cell.notebook.notebookType !== Notebooks.type || cell.kind !== vscode.NotebookCellKind.Code) return [];
    const target = cellTarget(cell);
    const own = !!targetOf(cell.metadata);
    const where = new vscode.NotebookCellStatusBarItem(
      target ? `$(database) ${targetLabel(target)}` : l10n.t('$(database) Pick where this cell runs…'),
      vscode.NotebookCellStatusBarAlignment.Left,
    );
    where.command = { command: Commands.pickCellTarget, title: l10n.t('Change where this cell runs'), arguments: [cell] };
    where.tooltip = target
      ? own
        ? l10n.t(
            'Runs at {0}/{1} @ {2} on {3} (set for this cell).\nClick to pick another database, branch, tag or commit.',
            target.owner,
            target.name,
            target.ref,
            this.labelOf(target.hostId),
          )
        : l10n.t(
            "Runs at {0}/{1} @ {2} on {3} (the notebook's target).\nClick to pick another database, branch, tag or commit.",
            target.owner,
            target.name,
            target.ref,
            this.labelOf(target.hostId),
          )
      : l10n.t('This cell has no database yet. Click to pick one.');
    const items = [where];
    const out = cell.outputs[0];
    const ranAt = out?.metadata?.[OutputMeta.commit];
    const ranRef = out?.metadata?.[OutputMeta.ref];
    if (target && typeof ranAt === 'string' && ranRef === target.ref && ranAt !== target.ref) {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      const now = await this.refs.resolve(target, { signal: abort.signal }).catch(() => undefined);
      sub.dispose();
      if (now?.kind === 'branch' && branchMoved(ranAt, now.commit)) {
        const moved = new vscode.NotebookCellStatusBarItem(
          l10n.t('$(warning) {0} moved since this ran', target.ref),
          vscode.NotebookCellStatusBarAlignment.Left,
        );
        moved.tooltip = l10n.t(
          'This output ran at commit {0}; {1} now points at {2}. Run the cell again to see the latest data.',
          short(ranAt),
          target.ref,
          short(now.commit ?? ''),
        );
        items.push(moved);
      } else {
        const at = new vscode.NotebookCellStatusBarItem(`$(git-commit) ${short(ranAt)}`, vscode.NotebookCellStatusBarAlignment.Left);
        at.tooltip = l10n.t('This output ran at commit {0}.', ranAt);
        items.push(at);
      }
    }
    return items;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
