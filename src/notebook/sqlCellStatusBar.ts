import * as vscode from 'vscode';
import { Commands, Notebooks } from '../shared/ids';
import { branchMoved, targetLabel } from '../core/sql/refs';
import type { RefResolver } from './queryRunner';
import { cellTarget } from './sqlNotebookController';
import { OutputMeta, targetOf } from './sqlNotebookSerializer';

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
      target ? `$(database) ${targetLabel(target)}` : '$(database) Pick where this cell runs…',
      vscode.NotebookCellStatusBarAlignment.Left,
    );
    where.command = { command: Commands.pickCellTarget, title: 'Change where this cell runs', arguments: [cell] };
    where.tooltip = target
      ? `Runs at ${target.owner}/${target.name} @ ${target.ref} on ${this.labelOf(target.hostId)}${own ? ' (set for this cell)' : " (the notebook's target)"}.\nClick to pick another database, branch, tag or commit.`
      : 'This cell has no database yet. Click to pick one.';
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
          `$(warning) ${target.ref} moved since this ran`,
          vscode.NotebookCellStatusBarAlignment.Left,
        );
        moved.tooltip = `This output ran at commit ${short(ranAt)}; ${target.ref} now points at ${short(now.commit ?? '')}. Run the cell again to see the latest data.`;
        items.push(moved);
      } else {
        const at = new vscode.NotebookCellStatusBarItem(`$(git-commit) ${short(ranAt)}`, vscode.NotebookCellStatusBarAlignment.Left);
        at.tooltip = `This output ran at commit ${ranAt}.`;
        items.push(at);
      }
    }
    return items;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
