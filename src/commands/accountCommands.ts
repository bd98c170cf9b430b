// Sign out, switch the account a host uses, and the local hub: start (seed if new, local user,
// token, sign in, sample databases), stop.
import type { Account, AccountStore } from '../auth/accountStore';
import { LOCAL_HUB_HOST_ID, LOCAL_HUB_LABEL } from '../auth/localHubIds';
import type { LocalHubStart } from '../auth/localHub';
import type { User } from '../shared/wire';
import type { CommandDeps } from './commandDeps';
import { isTreeNode } from '../tree/treeNodes';
import * as l10n from '../shared/l10n';

export interface AccountCommandDeps extends CommandDeps {
  readonly accountStore: Pick<AccountStore, 'accounts' | 'accountsFor' | 'remove' | 'add' | 'activeAccount' | 'setActive'>;
  readonly localHub: {
    start(signal?: AbortSignal): Promise<LocalHubStart>;
    stop(): Promise<void>;
    isRunning(): boolean;
  };
  /** GET /user with exactly this token against the freshly started hub. */
  validate(siteUrl: string, token: string, signal: AbortSignal): Promise<User>;
}

/** The host a command was invoked on: a host row of the tree, or a host id passed by another command. */
function hostIdOf(node: unknown): string | undefined {
  return isTreeNode(node) && node.kind === 'host' ? node.hostId : typeof node === 'string' ? node : undefined;
}

const KIND_TEXT: Record<Account['kind'], string> = {
  token: 'personal access token',
  oauth: 'signed in with the browser (OAuth)',
  localHub: 'local hub user',
};

/**
 * Makes another signed-in account the one a host's requests use. Lists the accounts of the host
 * it was invoked on (every host's from the palette), marks the active one, and offers signing in
 * another account. The tree, notebooks and commands read the active account's token per request
 * (AccountClientSource), so the switch applies to the next request without a reload.
 */
export async function switchAccount(deps: AccountCommandDeps, node?: unknown): Promise<Account | undefined> {
  const hostId = hostIdOf(node);
  const candidates = hostId ? deps.accountStore.accountsFor(hostId) : deps.accountStore.accounts();
  const where = hostId ? l10n.t(' to {0}', deps.clients.labelOf(hostId)) : '';
  if (candidates.length === 0) {
    const signIn = l10n.t('Sign In');
    const none = hostId ? l10n.t('No account is signed in to {0}.', deps.clients.labelOf(hostId)) : l10n.t('No account is signed in.');
    if ((await deps.ui.info(none, signIn)) === signIn) await deps.signIn(hostId);
    return undefined;
  }
  const isActive = (a: Account): boolean => deps.accountStore.activeAccount(a.hostId)?.id === a.id;
  const sorted = [...candidates].sort(
    (a, b) => deps.clients.labelOf(a.hostId).localeCompare(deps.clients.labelOf(b.hostId)) || a.username.localeCompare(b.username),
  );
  const picked = await deps.ui.pick<Account | 'signIn'>(
    [
      ...sorted.map((a) => ({
        label: isActive(a) ? `$(check) ${a.username}` : a.username,
        description: `${deps.clients.labelOf(a.hostId)}${isActive(a) ? ' · active' : ''}`,
        detail: `${a.displayName ? `${a.displayName}, ` : ''}${KIND_TEXT[a.kind]}`,
        value: a as Account | 'signIn',
      })),
      { label: l10n.t('$(add) Sign in with another account…'), value: 'signIn' as const },
    ],
    { title: l10n.t('Switch Account{0}', where), placeholder: l10n.t('Which account should requests use?') },
  );
  if (!picked) return undefined;
  if (picked === 'signIn') return deps.signIn(hostId);
  const host = deps.clients.labelOf(picked.hostId);
  if (isActive(picked)) {
    void deps.ui.info(l10n.t('{0} already uses {1}.', host, picked.username));
    return picked;
  }
  await deps.accountStore.setActive(picked);
  deps.log.info(`${host} now uses ${picked.username}`);
  void deps.ui.info(l10n.t('{0} now uses {1}.', host, picked.username));
  return picked;
}

/** Signs out: forgets the account and deletes its token from SecretStorage. */
export async function signOut(deps: AccountCommandDeps, node?: unknown): Promise<Account | undefined> {
  const hostId = hostIdOf(node);
  const candidates = hostId ? deps.accountStore.accountsFor(hostId) : deps.accountStore.accounts();
  if (candidates.length === 0) {
    void deps.ui.info(l10n.t('No account is signed in.'));
    return undefined;
  }
  const account =
    candidates.length === 1
      ? candidates[0]
      : await deps.ui.pick(
          // Labelled as in VS Code's Accounts menu: the same user may be signed in on several hosts.
          candidates.map((a) => ({ label: `${a.username} (${deps.clients.labelOf(a.hostId)})`, value: a })),
          { title: l10n.t('Sign Out'), placeholder: l10n.t('Which account?') },
        );
  if (!account) return undefined;
  await deps.accountStore.remove(account.id);
  void deps.ui.info(l10n.t('Signed out {0} from {1}; its token was deleted.', account.username, deps.clients.labelOf(account.hostId)));
  return account;
}

/**
 * Starts the built-in hub and signs in to it as the local user; when the folder was just seeded
 * (or the tree has none of its databases yet) the sample databases are added to the tree.
 */
export async function startLocalHub(deps: AccountCommandDeps, opts: { quiet?: boolean } = {}): Promise<Account | undefined> {
  try {
    return await deps.ui.withProgress(l10n.t('Starting the local hub…'), async (progress, signal) => {
      const started = await deps.localHub.start(signal);
      progress.report(l10n.t('Signing in as {0}…', started.userName));
      const user = await deps.validate(started.url, started.token, signal);
      const account = await deps.accountStore.add({ hostId: LOCAL_HUB_HOST_ID, username: user.username, kind: 'localHub' }, started.token);
      if (started.seeded || deps.databases.list(LOCAL_HUB_HOST_ID).length === 0) {
        for (const db of started.sampleDatabases) await deps.databases.add(LOCAL_HUB_HOST_ID, db);
      }
      deps.tree.refresh();
      if (!opts.quiet) {
        void deps.ui.info(
          started.seeded
            ? l10n.t('{0} is running at {1}; signed in as {2}. Sample databases were added.', LOCAL_HUB_LABEL(), started.url, user.username)
            : l10n.t('{0} is running at {1}; signed in as {2}.', LOCAL_HUB_LABEL(), started.url, user.username),
        );
      }
      return account;
    });
  } catch (e) {
    deps.ui.error(e, { action: l10n.t('start the local hub'), hostId: LOCAL_HUB_HOST_ID, hostLabel: LOCAL_HUB_LABEL() });
    return undefined;
  }
}

export async function stopLocalHub(deps: AccountCommandDeps): Promise<void> {
  if (!deps.localHub.isRunning()) {
    void deps.ui.info(l10n.t('The local hub is not running.'));
    return;
  }
  await deps.localHub.stop();
  deps.tree.refresh();
  void deps.ui.info(l10n.t('The local hub stopped. Its databases stay in the tree for the next start.'));
}
