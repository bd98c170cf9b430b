// The sign-in conversation: host, method, credential, validation with GET /user, storage.
// Written against the Ui interface so unit tests script it; no token is stored before GET /user
// accepts it, and no token is ever logged.
import type { User } from '../shared/wire';
import type { Logger } from '../core/logger';
import type { Ui } from '../platform/ui';
import type { Account, AccountStore, CredentialKind } from './accountStore';
import type { HostInfo } from './clientSource';
import { LOCAL_HUB_HOST_ID } from './localHubIds';
import { isOAuthDenied } from './oauthDeniedError';
import * as l10n from '../shared/l10n';

export interface SignInDeps {
  readonly ui: Ui;
  readonly accounts: Pick<AccountStore, 'add'>;
  hosts(): readonly HostInfo[];
  /** GET /user with exactly this token (not the stored one). */
  validate(siteUrl: string, token: string, signal: AbortSignal): Promise<User>;
  /** The browser round trip; resolves an access token. */
  oauth(siteUrl: string, signal: AbortSignal): Promise<string>;
  /** Starting/signing in to the built-in hub is its own flow (a token from its CLI). */
  signInToLocalHub(): Promise<Account | undefined>;
  readonly log: Logger;
}

type Method = 'token' | 'oauth' | 'localHub';

export async function signIn(deps: SignInDeps, hostId?: string): Promise<Account | undefined> {
  const host = await pickHost(deps, hostId);
  if (!host) return undefined;
  if (host === 'local' || host.isLocal) return deps.signInToLocalHub();
  const method = await deps.ui.pick<Method>(
    [
      { label: l10n.t('Personal access token'), description: l10n.t('create one at {0}/settings/tokens', host.siteUrl), value: 'token' },
      { label: l10n.t('Sign in with the browser'), description: l10n.t('OAuth 2.0'), value: 'oauth' },
    ],
    { title: l10n.t('Sign In to {0}', host.label), placeholder: l10n.t('How do you want to sign in?') },
  );
  if (!method) return undefined;
  const site = host;
  try {
    const { token, kind } = await askCredential(deps, site, method);
    if (!token) return undefined;
    const user = await deps.ui.withProgress(l10n.t('Checking the token with {0}…', site.label), (_p, signal) =>
      deps.validate(site.siteUrl, token, signal),
    );
    const account = await deps.accounts.add(
      { hostId: site.id, username: user.username, ...(user.display_name ? { displayName: user.display_name } : {}), kind },
      token,
    );
    deps.log.info(`signed in to ${site.label} as ${user.username} (${kind})`);
    void deps.ui.info(l10n.t('Signed in to {0} as {1}.', site.label, user.username));
    return account;
  } catch (e) {
    if (isOAuthDenied(e)) {
      deps.log.info(`sign-in to ${site.label} denied in the browser`);
      void deps.ui.info(l10n.t('Sign-in to {0} was denied in the browser; nothing was stored.', site.label));
      return undefined;
    }
    deps.ui.error(e, { action: l10n.t('sign in to {0}', site.label), hostId: site.id, hostLabel: site.label });
    return undefined;
  }
}

/** The host asked for, or the one the person picks (the local hub among them); undefined when they cancel. */
async function pickHost(deps: SignInDeps, hostId: string | undefined): Promise<HostInfo | 'local' | undefined> {
  const hosts = deps.hosts();
  const host = hostId ? hosts.find((h) => h.id === hostId) : undefined;
  if (hostId === LOCAL_HUB_HOST_ID && !host) return 'local';
  if (host) return host;
  const items = [
    ...hosts.filter((h) => !h.isLocal).map((h) => ({ label: h.label, description: h.siteUrl, value: h as HostInfo | 'local' })),
    { label: l10n.t('Local Hub'), description: l10n.t('built in, runs offline on this machine'), value: 'local' as const },
  ];
  return deps.ui.pick(items, { title: l10n.t('Sign In'), placeholder: l10n.t('Sign in to which host?') });
}

/** The credential by the chosen method: a pasted token, or the browser round trip's. */
async function askCredential(
  deps: SignInDeps,
  site: HostInfo,
  method: Method,
): Promise<{ token: string | undefined; kind: CredentialKind }> {
  if (method === 'oauth') {
    const token = await deps.ui.withProgress(l10n.t('Signing in to {0} in the browser…', site.label), (_p, signal) =>
      deps.oauth(site.siteUrl, signal),
    );
    return { token, kind: 'oauth' };
  }
  const pasted = await deps.ui.input({
    title: l10n.t('Sign In to {0}', site.label),
    prompt: l10n.t('Paste a personal access token from {0}/settings/tokens', site.siteUrl),
    password: true,
    validate: (v) => (v.trim() === '' ? 'Paste the token.' : /\s/.test(v.trim()) ? 'A token has no spaces.' : undefined),
  });
  return { token: pasted?.trim(), kind: 'token' };
}
