import type * as vscode from 'vscode';
import { addHistoryEntry, readHistory, searchHistory, type HistoryEntry } from '../core/sql/history';

const KEY = 'versionedDb.queryHistory';

/** Query history kept in globalState, so it survives restarts and is shared across windows. */
export class QueryHistoryStore {
  constructor(
    private readonly state: vscode.Memento,
    private readonly maxEntries: () => number,
  ) {}

  all(): HistoryEntry[] {
    return readHistory(this.state.get<unknown>(KEY));
  }

  search(query: string): HistoryEntry[] {
    return searchHistory(this.all(), query);
  }

  async add(entry: HistoryEntry): Promise<void> {
    await this.state.update(KEY, addHistoryEntry(this.all(), entry, this.maxEntries()));
  }

  async clear(): Promise<void> {
    await this.state.update(KEY, []);
  }
}
