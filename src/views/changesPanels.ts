// The open Changes views, one per request: showing a request again reveals its view (at the
// table asked for). The view itself is ./changesPanel.ts.
import type * as vscode from 'vscode';
import type { ChangesRequest } from '../core/review/requests';
import { scopeKey } from '../core/changes/changeSetScope';
import { ChangesPanel, type ChangesPanelsDeps } from './changesPanel';
import type { PullTarget } from '../core/targets';

/** A stable key per request: the same request reveals its open view. */
export function changesKey(r: ChangesRequest): string {
  const t = r.target;
  const base = `${t.hostId}\n${t.db.owner}/${t.db.name}`;
  switch (r.kind) {
    case 'commit':
      return `${base}\ncommit:${r.commit}`;
    case 'refs':
      return `${base}\nrefs:${r.from}${r.threeDot ? '...' : '..'}${r.to}`;
    case 'pull':
      return `${base}\npull:${r.target.pullNumber}`;
    case 'changeSet':
      return `${base}\nchangeSet:${scopeKey(r.scope)}`;
  }
}

export class ChangesPanels implements vscode.Disposable {
  private readonly panels = new Map<string, ChangesPanel>();

  constructor(private readonly deps: ChangesPanelsDeps) {}

  /** Opens (or reveals) the view of `request`, at `request.table` when given. */
  async show(request: ChangesRequest): Promise<ChangesPanel> {
    const key = changesKey(request);
    const open = this.panels.get(key);
    if (open) {
      open.reveal();
      if (request.table) await open.select(request.table);
      return open;
    }
    const panel = new ChangesPanel(request, this.deps, () => this.panels.delete(key));
    this.panels.set(key, panel);
    await panel.load();
    return panel;
  }

  /** A pull changed (a comment, an edit, a merge): its open Changes view shows its comments as they are now. */
  async pullChanged(t: PullTarget): Promise<void> {
    const open = this.panels.get(changesKey({ kind: 'pull', target: t }));
    await open?.commentsChanged();
  }

  /** For tests: the open view of a request. */
  panelFor(request: ChangesRequest): ChangesPanel | undefined {
    return this.panels.get(changesKey(request));
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.dispose();
    this.panels.clear();
  }
}
