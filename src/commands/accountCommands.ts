// Sign out, and the local hub: start (seed if new, local user, token, sign in, sample databases), stop.
import type { Account, AccountStore } from '../auth/accountStore';
import { LOCAL_HUB_HOST_ID, LOCAL_HUB_LABEL } from '../auth/localHubIds';
import type { LocalHubStart } from '../auth/localHub';
import type { User } from '../shared/wire';
import type { CommandDeps } from './commandDeps';
import { isTreeNode } from './commandTargets';

export interface AccountCommandDeps extends CommandDeps {
  readonly accountStore: Pick<AccountStore, 'accounts' | 'accountsFor' | 'remove' | 'add'>;
  readonly localHub: {
    start(signal?: AbortSignal): Promise<LocalHubStart>;
    stop(): Promise<void>;
    isRunning(): boolean;
  };
  /** GET /user with exactly this token against the freshly started hub. */
  validate(siteUrl: string, token: string, signal: AbortSignal): Promise<User>;
}

/** Signs out: forgets the account and deletes its token from SecretStorage. */
export async function signOut(deps: AccountCommandDeps, node?: unknown): Promise<Account | undefined> {
  const hostId = isTreeNode(node) && node.kind === 'host' ? node.hostId : typeof node === 'string' ? node : undefined;
  const candidates = hostId ? deps.accountStore.accountsFor(hostId) : deps.accountStore.accounts();
  if (candidates.length === 0) {
    void deps.ui.info('No account is signed in.');
    return undefined;
  }
  const account =
    candidates.length === 1
      ? candidates[0]
      : await deps.ui.pick(
          // Labelled as in VS Code's Accounts menu: the same user may be signed in on several hosts.
          candidates.map((a) => ({ label: `${a.username} (${deps.clients.labelOf(a.hostId)})`, value: a })),
          { title: 'Sign Out', placeholder: 'Which account?' },
        );
  if (!account) return undefined;
  await deps.accountStore.remove(account.id);
  void deps.ui.info(`Signed out ${account.username} from ${deps.clients.labelOf(account.hostId)}; its token was deleted.`);
  return account;
}

/**
 * Starts the built-in hub and signs in to it as the local user; when the folder was just seeded
 * (or the tree has none of its databases yet) the sample databases are added to the tree.
 */
export async function startLocalHub(deps: AccountCommandDeps, opts: { quiet?: boolean } = {}): Promise<Account | undefined> {
  try {
    return await deps.ui.withProgress('Starting the local hub…', async (progress, signal) => {
      const started = await deps.localHub.start(signal);
      progress.report(`Signing in as ${started.userName}…`);
      const user = await deps.validate(started.url, started.token, signal);
      const account = await deps.accountStore.add({ hostId: LOCAL_HUB_HOST_ID, username: user.username, kind: 'localHub' }, started.token);
      if (started.seeded || deps.databases.list(LOCAL_HUB_HOST_ID).length === 0) {
        for (const db of started.sampleDatabases) await deps.databases.add(LOCAL_HUB_HOST_ID, db);
      }
      deps.tree.refresh();
      if (!opts.quiet) {
        void deps.ui.info(
          `${LOCAL_HUB_LABEL} is running at ${started.url}; signed in as ${user.username}.${started.seeded ? ' Sample databases were added.' : ''}`,
        );
      }
      return account;
    });
  } catch (e) {
    deps.ui.error(e, { action: 'start the local hub', hostId: LOCAL_HUB_HOST_ID, hostLabel: LOCAL_HUB_LABEL });
    return undefined;
  }
}

export async function stopLocalHub(deps: AccountCommandDeps): Promise<void> {
  if (!deps.localHub.isRunning()) {
    void deps.ui.info('The local hub is not running.');
    return;
  }
  await deps.localHub.stop();
  deps.tree.refresh();
  void deps.ui.info('The local hub stopped. Its databases stay in the tree for the next start.');
}
