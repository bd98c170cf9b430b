import type * as vscode from 'vscode';
import { Settings } from '../shared/ids';
import { DEFAULT_HISTORY_SIZE } from '../core/sql/history';

/** The SQL and notebook settings, read once per use and passed down. */
export interface SqlSettings {
  readonly rowLimit: number;
  readonly timeoutMs: number;
  readonly historySize: number;
  readonly saveOutputs: boolean;
}

function intIn(v: unknown, min: number, max: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.floor(v))) : fallback;
}

/** `configuration` is the root configuration (`workspace.getConfiguration()`). */
export function readSqlSettings(configuration: Pick<vscode.WorkspaceConfiguration, 'get'>): SqlSettings {
  return {
    rowLimit: intIn(configuration.get(Settings.sqlRowLimit), 1, 10_000_000, 1000),
    timeoutMs: intIn(configuration.get(Settings.sqlTimeoutMs), 1000, 60_000, 30_000),
    historySize: intIn(configuration.get(Settings.sqlHistorySize), 10, 5000, DEFAULT_HISTORY_SIZE),
    saveOutputs: configuration.get(Settings.notebooksSaveOutputs) === true,
  };
}
