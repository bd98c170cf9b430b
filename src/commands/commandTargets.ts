// Resolving what a command acts on: the tree node it was invoked on, or a pick from the palette.
import type { DatabaseRef } from '../shared/wire';
import type { Account } from '../auth/accountStore';
import { databaseOf, isTreeNode } from '../tree/treeNodes';
import { databaseTargetOf, pickKnownDatabase } from '../tree/databaseTargets';
import type { DatabaseTarget } from '../core/targets';
import type { CommandDeps } from './commandDeps';
import * as l10n from '../shared/l10n';

/** The host a command runs against: the node's, the only one, or the user's pick. */
export async function resolveHost(deps: CommandDeps, node: unknown, title: string): Promise<string | undefined> {
  if (typeof node === 'string' && deps.clients.host(node)) return node;
  if (isTreeNode(node)) {
    if (node.kind === 'host') return node.hostId;
    const d = databaseOf(node);
    if (d) return d.hostId;
  }
  const hosts = deps.clients.hosts();
  if (hosts.length === 0) {
    void deps.ui.info(l10n.t('No host is configured. Add one to the versionedDb.hosts setting, or run "Versioned DB: Start Local Hub".'));
    return undefined;
  }
  if (hosts.length === 1) return hosts[0]!.id;
  return deps.ui.pick(
    hosts.map((h) => ({
      label: h.label,
      description: h.siteUrl,
      detail: deps.accounts.activeAccount(h.id)
        ? l10n.t('signed in as {0}', deps.accounts.activeAccount(h.id)!.username)
        : l10n.t('not signed in'),
      value: h.id,
    })),
    { title, placeholder: l10n.t('Pick a host') },
  );
}

/** The database a command acts on: what it was invoked on, or picked among the databases in the tree. */
export async function resolveDatabase(deps: CommandDeps, node: unknown, title: string): Promise<DatabaseTarget | undefined> {
  return (
    databaseTargetOf(node) ??
    pickKnownDatabase(
      { ui: deps.ui, databases: deps.databases, labelOf: (hostId) => deps.clients.labelOf(hostId) },
      { title, emptyMessage: 'No database in the tree yet. Run "Versioned DB: Add Database…" first.' },
    )
  );
}

/** The signed-in account on a host, offering to sign in when there is none. */
export async function requireAccount(deps: CommandDeps, hostId: string, why: string): Promise<Account | undefined> {
  const account = deps.accounts.activeAccount(hostId);
  if (account) return account;
  const signIn = l10n.t('Sign In');
  const choice = await deps.ui.info(l10n.t('{0} needs an account on {1}.', why, deps.clients.labelOf(hostId)), signIn);
  if (choice !== signIn) return undefined;
  return deps.signIn(hostId);
}

export function refName(db: DatabaseRef): string {
  return `${db.owner}/${db.name}`;
}
