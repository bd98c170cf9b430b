import type * as vscode from 'vscode';
import { Settings } from '../shared/ids';
import { parseHostsSetting, type HostSetting } from '../core/hostUrl';

/** Every setting this extension reads, read once and passed down (formatters never read settings). */
export interface SettingsSnapshot {
  readonly hosts: readonly HostSetting[];
  /** Problems found in `versionedDb.hosts`, to log once; bad entries are skipped, not fatal. */
  readonly hostProblems: readonly string[];
  readonly localHub: {
    /** Overrides the data folder in global storage (the demo points it at a seeded folder). */
    readonly dataDirectory: string | undefined;
    readonly startOnActivation: boolean;
    /** The local user to sign in as; empty means the seeded sample user or the OS user. */
    readonly userName: string | undefined;
  };
}

/** `configuration` is the root configuration (`workspace.getConfiguration()`): keys are full ids. */
export function readSettings(configuration: Pick<vscode.WorkspaceConfiguration, 'get'>): SettingsSnapshot {
  const hosts = parseHostsSetting(configuration.get<unknown>(Settings.hosts));
  const dataDirectory = configuration.get<string>(Settings.localHubDataDirectory)?.trim();
  const userName = configuration.get<string>(Settings.localHubUserName)?.trim();
  return {
    hosts: hosts.hosts,
    hostProblems: hosts.problems,
    localHub: {
      dataDirectory: dataDirectory ? dataDirectory : undefined,
      startOnActivation: configuration.get<boolean>(Settings.localHubStartOnActivation) === true,
      userName: userName ? userName : undefined,
    },
  };
}

export function affectsSettings(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(Settings.section);
}
