// Where SQL runs, asked of the user: a database among the tree's (hosts that can answer now),
// then a branch, a tag, or a pasted ref or commit.
import type { PickItem } from '../platform/ui';
import type { DatabaseRef } from '../shared/wire';
import type { QueryTarget } from '../shared/queryResultOutput';
import { collectAll } from '../api/pagination';
import { shortHash } from '../core/commitHash';
import { validateRefInput } from '../core/sql/refs';
import { pickKnownDatabase } from '../tree/databaseTargets';
import type { NotebookCommandDeps } from './notebookCommandDeps';
import * as l10n from '../shared/l10n';

/** Branches, tags, or a typed ref/commit of a database; undefined when dismissed or invalid. */
export async function pickRef(deps: NotebookCommandDeps, hostId: string, db: DatabaseRef, current?: string): Promise<string | undefined> {
  const client = deps.clients.clientFor(hostId);
  const items: Promise<PickItem<string>[]> = Promise.all([
    collectAll((pageToken) => client.listBranches(db, { pageToken })),
    collectAll((pageToken) => client.listTags(db, { pageToken })),
  ]).then(([branches, tags]) => [
    ...branches.map((b) => ({
      // Plain names as labels: typing a name matches it exactly instead of offering a duplicate.
      label: b.name,
      description:
        b.name === current
          ? l10n.t('$(git-branch) branch · {0} · current', shortHash(b.head_commit_sha))
          : l10n.t('$(git-branch) branch · {0}', shortHash(b.head_commit_sha)),
      value: b.name,
    })),
    ...tags.map((t) => ({
      label: t.name,
      description:
        t.name === current
          ? l10n.t('$(tag) tag · {0} · current', shortHash(t.commit_sha))
          : l10n.t('$(tag) tag · {0}', shortHash(t.commit_sha)),
      ...(t.message ? { detail: t.message } : {}),
      value: t.name,
    })),
  ]);
  const picked = await deps.ui.pickOrType(items, {
    title: l10n.t('Run at which ref of {0}/{1}?', db.owner, db.name),
    placeholder: l10n.t('Pick a branch or tag, or paste a 32-character commit hash'),
  });
  if (!picked) return undefined;
  if ('value' in picked) return picked.value;
  const checked = validateRefInput(picked.typed);
  if ('error' in checked) {
    void deps.ui.info(checked.error);
    return undefined;
  }
  return checked.ref;
}

/** Database (from the tree's list, current first) then ref. */
export async function pickTarget(deps: NotebookCommandDeps, current?: QueryTarget): Promise<QueryTarget | undefined> {
  // Only hosts that can answer now: a stopped local hub keeps its databases in the tree, but
  // offering them here would end in "not running" after the pick.
  const available = new Set(deps.clients.hosts().map((h) => h.id));
  const currentTarget = current ? { hostId: current.hostId, db: { owner: current.owner, name: current.name } } : undefined;
  const chosen = await pickKnownDatabase(
    { ui: deps.ui, databases: deps.databases, labelOf: (hostId) => deps.clients.labelOf(hostId) },
    {
      title: l10n.t('Run at which database?'),
      emptyMessage: 'No database to run at yet. Add one in the Versioned DB view ("Add Database…"), then pick it here.',
      hostFilter: (hostId) => available.has(hostId),
      ...(currentTarget ? { current: currentTarget } : {}),
    },
  );
  if (!chosen) return undefined;
  const isCurrent =
    !!currentTarget &&
    chosen.hostId === currentTarget.hostId &&
    chosen.db.owner === currentTarget.db.owner &&
    chosen.db.name === currentTarget.db.name;
  const ref = await pickRef(deps, chosen.hostId, chosen.db, isCurrent ? current?.ref : undefined);
  if (!ref) return undefined;
  return { hostId: chosen.hostId, owner: chosen.db.owner, name: chosen.db.name, ref };
}
