import * as vscode from 'vscode';
import type { HubClient, ProxyDispatcher } from '../api/index';
import type { Logger } from '../core/logger';
import { Disposable } from '../platform/disposable';
import type { SettingsSnapshot } from '../platform/settings';
import type { AccountStore } from './accountStore';
import type { ClientSource, HostInfo } from './clientSource';

import { LOCAL_HUB_HOST_ID, LOCAL_HUB_LABEL } from './localHubIds';

export { LOCAL_HUB_HOST_ID, LOCAL_HUB_LABEL } from './localHubIds';

/** What the client source needs to know about the local hub process. */
export interface LocalHubLocation {
  /** The site URL while the hub runs, else undefined. */
  url(): string | undefined;
  readonly onDidChange: vscode.Event<void>;
}

/**
 * ClientSource over the configured hosts, the local hub and the account store. Each client reads
 * the active account's token from SecretStorage per request, so sign-out takes effect at once.
 */
export class AccountClientSource extends Disposable implements ClientSource {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly clients = new Map<string, HubClient>();
  /** Routes every client's requests to the proxy or direct; rebuilt when the proxy settings change. */
  private network: ProxyDispatcher | undefined;

  constructor(
    private settings: SettingsSnapshot,
    private readonly accounts: AccountStore,
    private readonly localHub: LocalHubLocation,
    private readonly log: Logger,
    private readonly userAgent: string,
  ) {
    super();
    this._register(accounts.onDidChange(() => this.changed.fire()));
    this._register(localHub.onDidChange(() => this.changed.fire()));
  }

  updateSettings(settings: SettingsSnapshot): void {
    if (JSON.stringify(settings.proxy) !== JSON.stringify(this.settings.proxy)) {
      // Clients are rebuilt on a new dispatcher. The old one is not closed: a client someone
      // still holds (one polling an operation, say) keeps working; its idle connections time out.
      this.network = undefined;
      this.clients.clear();
    }
    this.settings = settings;
    this.changed.fire();
  }

  hosts(): readonly HostInfo[] {
    const hosts: HostInfo[] = this.settings.hosts.map((h) => ({ id: h.url, label: h.name, siteUrl: h.url, isLocal: false }));
    const localUrl = this.localHub.url();
    if (localUrl) hosts.push({ id: LOCAL_HUB_HOST_ID, label: LOCAL_HUB_LABEL(), siteUrl: localUrl, isLocal: true });
    return hosts;
  }

  host(hostId: string): HostInfo | undefined {
    return this.hosts().find((h) => h.id === hostId);
  }

  /** A label for a host id even when the host is gone from settings or the hub is stopped. */
  labelOf(hostId: string): string {
    if (hostId === LOCAL_HUB_HOST_ID) return LOCAL_HUB_LABEL();
    return this.host(hostId)?.label ?? hostId;
  }

  clientFor(hostId: string): HubClient {
    const host = this.host(hostId);
    if (!host) {
      throw new Error(
        hostId === LOCAL_HUB_HOST_ID
          ? 'The local hub is not running. Run "Versioned DB: Start Local Hub".'
          : `The host ${hostId} is not in the versionedDb.hosts setting any more.`,
      );
    }
    const key = `${host.id} ${host.siteUrl}`;
    let client = this.clients.get(key);
    if (!client) {
      client = new (apiModule().HubClient)({
        baseUrl: host.siteUrl,
        token: () => this.accounts.activeToken(host.id),
        userAgent: this.userAgent,
        logger: this.log,
        dispatcher: this.dispatcher(),
      });
      this.clients.set(key, client);
    }
    return client;
  }

  /** A client with an explicit token, for validating a token before it is stored. */
  clientWithToken(siteUrl: string, token: string): HubClient {
    return new (apiModule().HubClient)({
      baseUrl: siteUrl,
      token,
      userAgent: this.userAgent,
      logger: this.log,
      dispatcher: this.dispatcher(),
    });
  }

  /** The dispatcher for the current proxy settings (made on first use, dropped when they change). */
  private dispatcher(): ProxyDispatcher {
    return (this.network ??= new (apiModule().ProxyDispatcher)(this.settings.proxy, { logger: this.log }));
  }
}

/**
 * The API client module, loaded on first use: it pulls in undici, which would otherwise be
 * evaluated during activation (the budget is 50 ms). esbuild keeps the required module lazy.
 */
function apiModule(): typeof import('../api/index') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../api/index') as typeof import('../api/index');
}
