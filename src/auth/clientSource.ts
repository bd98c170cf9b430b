import type * as vscode from 'vscode';
import type { HubClient } from '../api/index';

/** A host the user can talk to: a configured site (name + URL) or the built-in local hub. */
export interface HostInfo {
  /** Stable id: the normalized site URL (origin + path, no trailing slash). */
  readonly id: string;
  readonly label: string;
  /** The site root; the client appends `/api/v2`. */
  readonly siteUrl: string;
  readonly isLocal: boolean;
}

/**
 * The one way every feature (tree, notebooks, imports, pull requests) obtains an API client.
 * Implemented by the auth layer, which knows which account is signed in on which host and
 * reads its token from SecretStorage on each request (so sign-out takes effect at once).
 */
export interface ClientSource {
  hosts(): readonly HostInfo[];
  /** The client for a host, carrying the signed-in account's token, or none for public reads. */
  clientFor(hostId: string): HubClient;
  /** Fires when hosts, accounts or sessions change. */
  readonly onDidChange: vscode.Event<void>;
}

/** The hosts and their clients, as every feature's commands reach them (AccountServices implements it). */
export interface HostClients {
  hosts(): readonly HostInfo[];
  host(hostId: string): HostInfo | undefined;
  labelOf(hostId: string): string;
  clientFor(hostId: string): HubClient;
}
