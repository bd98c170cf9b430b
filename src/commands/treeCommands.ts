// Refresh, "Load more" and the client-side pull request state filter.
import type { PullState } from '../shared/wire';
import type { CommandDeps } from './commandDeps';
import { resolveDatabase } from './commandTargets';
import { isTreeNode } from '../tree/treeNodes';
import * as l10n from '../shared/l10n';

export function refreshNode(deps: CommandDeps, node?: unknown): void {
  deps.tree.refresh(isTreeNode(node) ? node : undefined);
}

export async function loadMore(deps: CommandDeps, node?: unknown): Promise<void> {
  if (!isTreeNode(node) || (node.kind !== 'loadMore' && node.kind !== 'category' && node.kind !== 'commits')) return;
  await deps.tree.loadMore(node);
}

const PULL_STATES: readonly PullState[] = ['open', 'closed', 'merged'];

/** Which pull request states the tree shows for a database (open by default); none picked = all. */
export async function filterPulls(deps: CommandDeps, node?: unknown): Promise<readonly PullState[] | undefined> {
  const t = await resolveDatabase(deps, node, 'Filter Pull Requests');
  if (!t) return undefined;
  const current = deps.tree.pullStateFilter(t.hostId, t.db);
  const picked = await deps.ui.pickMany(
    PULL_STATES.map((s) => ({ label: s, picked: current.length === 0 || current.includes(s), value: s })),
    { title: l10n.t('Pull requests of {0}/{1}', t.db.owner, t.db.name), placeholder: l10n.t('States to show (none = all)') },
  );
  if (!picked) return undefined;
  deps.tree.setPullStateFilter(t.hostId, t.db, picked.length === PULL_STATES.length ? [] : picked);
  return picked;
}
