import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { SqlPort } from '../core/sql/sqlPort';
import { Disposable } from '../platform/disposable';
import { affectsSettings, readSettings, type SettingsSnapshot } from '../platform/settings';
import type { Ui } from '../platform/ui';
import { Commands } from '../shared/ids';
import type { User } from '../shared/wire';
import { AccountClientSource, LOCAL_HUB_HOST_ID } from './accountClientSource';
import { AccountStore, type Account } from './accountStore';
import { VersionedDbAuthenticationProvider } from './authenticationProvider';
import { LocalHub } from './localHub';
import { OAuthFlow } from './oauthFlow';
import { signIn } from './signInFlow';

/**
 * Accounts, hosts and the local hub, wired together: the account store (SecretStorage +
 * globalState), the local hub process, the ClientSource every feature uses, OAuth, and the
 * AuthenticationProvider behind the Accounts menu.
 */
export class AccountServices extends Disposable {
  readonly accounts: AccountStore;
  readonly localHub: LocalHub;
  readonly clients: AccountClientSource;
  /** The one way every feature runs SQL at a target, with the SQL settings of the moment. */
  readonly sql: SqlPort;
  private settings: SettingsSnapshot;
  private readonly oauth: OAuthFlow;

  constructor(
    context: vscode.ExtensionContext,
    private readonly ui: Ui,
    private readonly log: Logger,
  ) {
    super();
    this.settings = readSettings(vscode.workspace.getConfiguration());
    for (const p of this.settings.hostProblems) log.warn(p);
    this.accounts = new AccountStore(context.globalState, context.secrets);
    this.localHub = this._register(
      new LocalHub({
        hubScript: context.asAbsolutePath(path.join('dist', 'hub.js')),
        execPath: process.execPath,
        dataDirectory: () => this.settings.localHub.dataDirectory ?? path.join(context.globalStorageUri.fsPath, 'hub-data'),
        configuredUser: () => this.settings.localHub.userName,
        osUserName: () => os.userInfo().username,
        log,
      }),
    );
    const version = (context.extension.packageJSON as { version?: string }).version ?? '0';
    this.clients = this._register(
      new AccountClientSource(this.settings, this.accounts, this.localHub, log, `versioned-db-vscode/${version}`),
    );
    this.sql = new SqlPort(
      (hostId) => this.clients.clientFor(hostId),
      () => this.settings.sql,
    );
    this.oauth = this._register(new OAuthFlow(log));
    this._register(
      new VersionedDbAuthenticationProvider(
        this.accounts,
        (id) => this.clients.labelOf(id),
        (hostId) => this.signIn(hostId),
      ),
    );
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!affectsSettings(e)) return;
        this.settings = readSettings(vscode.workspace.getConfiguration());
        for (const p of this.settings.hostProblems) log.warn(p);
        this.clients.updateSettings(this.settings);
      }),
    );
  }

  get currentSettings(): SettingsSnapshot {
    return this.settings;
  }

  /** GET /user with exactly this token, before anything is stored. */
  validate(siteUrl: string, token: string, signal: AbortSignal): Promise<User> {
    return this.clients.clientWithToken(siteUrl, token).getCurrentUser({ signal });
  }

  signIn(hostId?: string): Promise<Account | undefined> {
    return signIn(
      {
        ui: this.ui,
        accounts: this.accounts,
        hosts: () => this.clients.hosts(),
        validate: (site, token, signal) => this.validate(site, token, signal),
        oauth: (site, signal) => this.oauth.signIn(site, signal),
        signInToLocalHub: async () => vscode.commands.executeCommand<Account | undefined>(Commands.startLocalHub),
        log: this.log,
      },
      hostId,
    );
  }

  isSignedIn(hostId?: string): boolean {
    return hostId === undefined ? this.accounts.accounts().length > 0 : this.accounts.activeAccount(hostId) !== undefined;
  }

  static readonly localHubHostId = LOCAL_HUB_HOST_ID;
}
