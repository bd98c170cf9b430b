import * as vscode from 'vscode';
import { Disposable } from '../platform/disposable';
import type { Account, AccountStore } from './accountStore';

export const AUTH_PROVIDER_ID = 'versionedDb';
export const AUTH_PROVIDER_LABEL = 'Versioned DB';

/** Session scopes name the host: `host:<hostId>`. No scope means every host. */
export function hostScope(hostId: string): string {
  return `host:${hostId}`;
}

/**
 * Accounts in VS Code's Accounts menu. Sessions are the stored accounts; creating one runs the
 * sign-in flow, removing one signs out (deleting the secret).
 */
export class VersionedDbAuthenticationProvider extends Disposable implements vscode.AuthenticationProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>());
  readonly onDidChangeSessions = this.changed.event;
  private known: Map<string, Account>;

  constructor(
    private readonly accounts: AccountStore,
    private readonly hostLabel: (hostId: string) => string,
    private readonly runSignIn: (hostId: string | undefined) => Promise<Account | undefined>,
  ) {
    super();
    this.known = new Map(accounts.accounts().map((a) => [a.id, a]));
    this._register(accounts.onDidChange(() => this.diff()));
    this._register(
      vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, this, { supportsMultipleAccounts: true }),
    );
  }

  async getSessions(scopes?: readonly string[]): Promise<vscode.AuthenticationSession[]> {
    const hostIds = hostsOf(scopes);
    const sessions: vscode.AuthenticationSession[] = [];
    for (const a of this.accounts.accounts()) {
      if (hostIds.length && !hostIds.includes(a.hostId)) continue;
      const token = await this.accounts.token(a);
      if (token) sessions.push(this.session(a, token));
    }
    return sessions;
  }

  async createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const account = await this.runSignIn(hostsOf(scopes)[0]);
    const token = account ? await this.accounts.token(account) : undefined;
    if (!account || !token) throw new vscode.CancellationError();
    return this.session(account, token);
  }

  async removeSession(sessionId: string): Promise<void> {
    await this.accounts.remove(sessionId);
  }

  private session(a: Account, token: string): vscode.AuthenticationSession {
    return {
      id: a.id,
      accessToken: token,
      account: { id: a.id, label: `${a.username} (${this.hostLabel(a.hostId)})` },
      scopes: [hostScope(a.hostId)],
    };
  }

  /** Turns account store changes into the added/removed/changed event VS Code expects. */
  private diff(): void {
    const now = new Map(this.accounts.accounts().map((a) => [a.id, a]));
    const added: vscode.AuthenticationSession[] = [];
    const removed: vscode.AuthenticationSession[] = [];
    const changed: vscode.AuthenticationSession[] = [];
    // The event carries sessions for identification only; the token is never put in it.
    for (const [id, a] of now) {
      const before = this.known.get(id);
      if (!before) added.push(this.session(a, ''));
      else if (before.signedInAt !== a.signedInAt) changed.push(this.session(a, ''));
    }
    for (const [id, a] of this.known) if (!now.has(id)) removed.push(this.session(a, ''));
    this.known = now;
    if (added.length || removed.length || changed.length) this.changed.fire({ added, removed, changed });
  }
}

function hostsOf(scopes: readonly string[] | undefined): string[] {
  return (scopes ?? []).filter((s) => s.startsWith('host:')).map((s) => s.slice('host:'.length));
}
