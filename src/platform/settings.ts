import type * as vscode from 'vscode';
import { NumericSettings, Settings } from '../shared/ids';
import { parseHostsSetting, type HostSetting } from '../core/hostUrl';
import type { ProxySettings } from '../api/proxy';

/** VS Code's own network settings, which this extension follows for every API request and upload. */
export const HttpSettings = {
  proxy: 'http.proxy',
  proxyStrictSSL: 'http.proxyStrictSSL',
  noProxy: 'http.noProxy',
  proxyAuthorization: 'http.proxyAuthorization',
  proxySupport: 'http.proxySupport',
} as const;

/** The SQL and notebook settings. */
export interface SqlSettings {
  readonly rowLimit: number;
  readonly timeoutMs: number;
  readonly historySize: number;
  readonly saveOutputs: boolean;
}

/** A numeric setting clamped to its bounds (shared/ids.ts `NumericSettings`); its default when unset or not a number. */
function numberSetting(configuration: Pick<vscode.WorkspaceConfiguration, 'get'>, key: keyof typeof NumericSettings): number {
  const bounds = NumericSettings[key];
  const v = configuration.get<unknown>(key);
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(bounds.maximum, Math.max(bounds.minimum, Math.floor(v))) : bounds.default;
}

/** `configuration` is the root configuration (`workspace.getConfiguration()`). */
export function readSqlSettings(configuration: Pick<vscode.WorkspaceConfiguration, 'get'>): SqlSettings {
  return {
    rowLimit: numberSetting(configuration, Settings.sqlRowLimit),
    timeoutMs: numberSetting(configuration, Settings.sqlTimeoutMs),
    historySize: numberSetting(configuration, Settings.sqlHistorySize),
    saveOutputs: configuration.get(Settings.notebooksSaveOutputs) === true,
  };
}

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
  /** Where API requests and uploads go (proxy or direct); the local hub is always direct. */
  readonly proxy: ProxySettings;
  /** How SQL runs (the one port, src/core/sql/sqlPort.ts) and notebooks keep results. */
  readonly sql: SqlSettings;
}

/** `configuration` is the root configuration (`workspace.getConfiguration()`): keys are full ids. */
export function readSettings(
  configuration: Pick<vscode.WorkspaceConfiguration, 'get'>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): SettingsSnapshot {
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
    proxy: readProxySettings(configuration, env),
    sql: readSqlSettings(configuration),
  };
}

/**
 * `http.proxy` for every target, else HTTPS_PROXY (falling back to HTTP_PROXY) for https targets
 * and HTTP_PROXY for http targets, as VS Code resolves them; `http.noProxy` and NO_PROXY both
 * exclude hosts. `http.proxySupport: off` means no proxy at all.
 */
export function readProxySettings(
  configuration: Pick<vscode.WorkspaceConfiguration, 'get'>,
  env: Readonly<Record<string, string | undefined>>,
): ProxySettings {
  const text = (key: string): string | undefined => {
    const v = configuration.get<unknown>(key);
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  const envValue = (name: string): string | undefined => (env[name.toLowerCase()] ?? env[name.toUpperCase()])?.trim() || undefined;
  const configuredNoProxy = configuration.get<unknown>(HttpSettings.noProxy);
  const noProxy = [
    ...(Array.isArray(configuredNoProxy) ? configuredNoProxy.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : []),
    ...(envValue('no_proxy') ?? '').split(/[,\s]+/).filter(Boolean),
  ].map((s) => s.trim());
  const strictSSL = configuration.get<unknown>(HttpSettings.proxyStrictSSL) !== false;
  const authorization = text(HttpSettings.proxyAuthorization);
  if (configuration.get<unknown>(HttpSettings.proxySupport) === 'off') {
    return { httpsProxy: undefined, httpProxy: undefined, noProxy: [], strictSSL, authorization: undefined };
  }
  const configured = text(HttpSettings.proxy);
  const httpProxy = configured ?? envValue('http_proxy');
  const httpsProxy = configured ?? envValue('https_proxy') ?? httpProxy;
  return { httpsProxy, httpProxy, noProxy, strictSSL, authorization };
}

export function affectsSettings(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(Settings.section) || Object.values(HttpSettings).some((key) => e.affectsConfiguration(key));
}
