// The host's change sets (issue #23), one per table of a branch at a base commit, kept in the
// workspace's storage (`context.workspaceState`) so they survive closing the table browser and
// reloading the window, and are never lost by a failed send: only Discard (or a sent proposal, by
// its owner) deletes one. Each is stored under its own key (`versionedDb.changeSet:<scope>`) as
// `ChangeSet.toJSON()`, written as soon as it changes: at most one write per change set is on its
// way, and edits made meanwhile are written right after it (so a reload straight after an edit
// keeps it, and a burst of edits costs two writes, not one each). An empty change set is not
// stored. Listeners hear of every change, with who made it, so the view that made an edit does not
// repaint for it.
import type * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { ChangeSet, type ChangeSetOptions } from '../core/changes/changeSet';
import { sameTable, scopeKey, type ChangeSetScope } from '../core/changes/changeSetScope';
import type { RebaseResult } from '../core/changes/changeRebase';
import type { Cell } from '../shared/wire';

const PREFIX = 'versionedDb.changeSet:';

export interface ChangeSetChange {
  scope: ChangeSetScope;
  /** `rebased`: the change set moved from `from` to `scope`'s base. */
  kind: 'changed' | 'deleted' | 'rebased';
  from?: ChangeSetScope;
  /** Whoever made the change (a table browser), as it passed it. */
  origin?: unknown;
}

type Listener = (e: ChangeSetChange) => unknown;

export class ChangeSetStore implements vscode.Disposable {
  private readonly live = new Map<string, ChangeSet>();
  /** Writes on their way, and the change sets edited since theirs started. */
  private readonly writing = new Map<string, Promise<void>>();
  private readonly dirty = new Set<string>();
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly memento: vscode.Memento,
    private readonly log: Logger,
  ) {}

  /** Fires whenever a change set changes, is deleted or rebased. */
  readonly onDidChange = (listener: Listener, thisArgs?: unknown, disposables?: vscode.Disposable[]): vscode.Disposable => {
    const l: Listener = (e) => listener.call(thisArgs, e);
    this.listeners.add(l);
    const d = { dispose: () => void this.listeners.delete(l) };
    disposables?.push(d);
    return d;
  };

  private fire(e: ChangeSetChange): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch (err) {
        this.log.error(`a change set listener failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** The scopes of every change set kept (stored or being edited), none empty. */
  list(): ChangeSetScope[] {
    const out = new Map<string, ChangeSetScope>();
    for (const key of this.memento.keys()) {
      if (!key.startsWith(PREFIX)) continue;
      const cs = this.get(key.slice(PREFIX.length));
      if (cs && !cs.isEmpty) out.set(scopeKey(cs.scope), cs.scope);
    }
    for (const cs of this.live.values()) if (!cs.isEmpty) out.set(scopeKey(cs.scope), cs.scope);
    return [...out.values()];
  }

  /** The change set of `scope` (or of its key), loaded from storage once; undefined when there is none. */
  get(scope: ChangeSetScope | string): ChangeSet | undefined {
    const key = typeof scope === 'string' ? scope : scopeKey(scope);
    const open = this.live.get(key);
    if (open) return open;
    const raw = this.memento.get<unknown>(PREFIX + key);
    if (raw === undefined) return undefined;
    try {
      const cs = ChangeSet.fromJSON(raw);
      this.live.set(key, cs);
      return cs;
    } catch (e) {
      this.log.error(`could not read a stored change set (${key}): ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  /** The change set kept for this table of this branch, at whatever base (at most one is kept per table). */
  find(table: Omit<ChangeSetScope, 'baseCommit'>): ChangeSetScope | undefined {
    return this.list().find((s) => sameTable(s, table));
  }

  /** The change set of `options.scope`, made empty when there is none yet (stored only once it holds something). */
  open(options: ChangeSetOptions): ChangeSet {
    const existing = this.get(options.scope);
    if (existing) return existing;
    const cs = new ChangeSet(options);
    this.live.set(scopeKey(options.scope), cs);
    return cs;
  }

  /** Says `cs` changed (an edit, a key check): it is written soon and listeners hear of it. */
  changed(cs: ChangeSet, origin?: unknown): void {
    this.schedule(scopeKey(cs.scope));
    this.fire({ scope: cs.scope, kind: 'changed', origin });
  }

  /**
   * Moves a change set onto `newBase` with the rows read there (`ChangeSet.rebase`), and keeps it
   * under its new scope; open browsers reopen at the new base.
   */
  async rebase(
    scope: ChangeSetScope,
    newBase: string,
    rowsAtNewBase: readonly Cell[][],
    origin?: unknown,
  ): Promise<RebaseResult | undefined> {
    const cs = this.get(scope);
    if (!cs) return undefined;
    const from = cs.scope;
    const result = cs.rebase(newBase, rowsAtNewBase);
    this.live.delete(scopeKey(from));
    this.live.set(scopeKey(cs.scope), cs);
    this.schedule(scopeKey(cs.scope));
    await this.flush();
    await this.remove(scopeKey(from));
    this.fire({ scope: cs.scope, kind: 'rebased', from, origin });
    return result;
  }

  /** Forgets a change set (Discard, or once it was proposed). */
  async delete(scope: ChangeSetScope, origin?: unknown): Promise<void> {
    const key = scopeKey(scope);
    this.live.delete(key);
    await this.remove(key);
    this.fire({ scope, kind: 'deleted', origin });
  }

  /** Writes the change set now, or right after the write on its way. */
  private schedule(key: string): void {
    if (this.writing.has(key)) {
      this.dirty.add(key);
      return;
    }
    const w = this.write(key).finally(() => {
      this.writing.delete(key);
      if (this.dirty.delete(key)) this.schedule(key);
    });
    this.writing.set(key, w);
  }

  private async remove(key: string): Promise<void> {
    this.dirty.delete(key);
    await this.writing.get(key);
    await this.memento.update(PREFIX + key, undefined);
  }

  private async write(key: string): Promise<void> {
    const cs = this.live.get(key);
    if (!cs) return;
    try {
      await this.memento.update(PREFIX + key, cs.isEmpty ? undefined : cs.toJSON());
    } catch (e) {
      this.log.error(`could not store the change set of ${cs.scope.table}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Resolves once every write on its way (and any it owes) is done. */
  async flush(): Promise<void> {
    while (this.writing.size > 0) await Promise.all([...this.writing.values()]);
  }

  dispose(): void {
    void this.flush();
    this.listeners.clear();
  }
}
