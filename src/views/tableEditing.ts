// The host side of editing one table in the table browser (issue #23): applies what the grid sends
// to the change set (src/core/changes/changeSet.ts), answers with the overlay the grid paints, asks
// the server at the base commit whether new keys are already taken, and keeps the change set in the
// store (./changeSetStore.ts), whose changes from elsewhere (Discard, a rebase) it shows.
import type * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { SqlRunner } from '../core/sql/sqlPort';
import type { GridEditMessage, HostEditMessage } from '../shared/editProtocol';
import { EditRefusedError, type ChangeSet, type ChangeSetOptions } from '../core/changes/changeSet';
import { scopeKey, type ChangeSetScope } from '../core/changes/changeSetScope';
import type { OverlayChange } from '../core/changes/changeOverlay';
import { findExistingKeys, type KeyColumn } from '../core/changes/existingKeys';
import { Rerun } from '../core/rerun';
import type { ChangeSetChange, ChangeSetStore } from './changeSetStore';

export interface TableEditingDeps {
  readonly store: ChangeSetStore;
  readonly log: Logger;
  /** SQL at the base commit. */
  readonly run: SqlRunner;
  /** Posts to the grid. */
  post(m: HostEditMessage): void;
  /** The change set moved to another base (a rebase): the browser reopens there. */
  rebased(scope: ChangeSetScope): void;
  /** The buttons of the grid's edit bar. */
  showChangeSet?(scope: ChangeSetScope): unknown;
  discardChanges?(scope: ChangeSetScope): unknown;
  proposeChanges?(scope: ChangeSetScope): unknown;
}

export class TableEditing implements vscode.Disposable {
  private cs: ChangeSet;
  private readonly abort = new AbortController();
  private readonly keyChecks = new Rerun(
    () => this.checkOnceOrSay(),
    () => this.abort.signal.aborted,
  );
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly deps: TableEditingDeps,
    private readonly options: ChangeSetOptions,
    private readonly sourceId: string,
  ) {
    this.cs = deps.store.open(options);
    this.sub = deps.store.onDidChange((e) => this.onStoreChange(e));
  }

  get changeSet(): ChangeSet {
    return this.cs;
  }

  get scope(): ChangeSetScope {
    return this.cs.scope;
  }

  /** Shows the whole change set in the grid (after `paged.show`) and checks keys left unchecked. */
  start(): void {
    this.postOverlay(this.cs.overlay());
    void this.checkKeys();
  }

  private postOverlay(o: OverlayChange): void {
    this.deps.post({ type: 'edit.overlay', sourceId: this.sourceId, ...o });
  }

  private refuse(message: string): void {
    this.deps.post({ type: 'edit.refused', sourceId: this.sourceId, message });
  }

  async handle(m: GridEditMessage): Promise<void> {
    if (m.type === 'edit.action') {
      const scope = this.cs.scope;
      if (m.action === 'review') await this.deps.showChangeSet?.(scope);
      else if (m.action === 'discard') await this.deps.discardChanges?.(scope);
      else await this.deps.proposeChanges?.(scope);
      return;
    }
    let change: OverlayChange;
    try {
      change = this.cs.apply(m.request);
    } catch (e) {
      if (!(e instanceof EditRefusedError)) throw e;
      this.refuse(e.message);
      return;
    }
    this.postOverlay(change);
    this.deps.store.changed(this.cs, this);
    void this.checkKeys();
  }

  /**
   * Asks the server which new keys the table already has, until none is left unasked: an edit
   * made during a check is checked by one more run after it (src/core/rerun.ts).
   */
  checkKeys(): Promise<void> {
    return this.keyChecks.run();
  }

  /** One check; a failure is said in the grid (the keys stay unchecked) and never thrown. */
  private async checkOnceOrSay(): Promise<void> {
    try {
      await this.checkOnce();
    } catch (e) {
      if (this.abort.signal.aborted) return;
      const message = e instanceof Error ? e.message : String(e);
      this.deps.log.warn(`could not check new keys of ${this.options.scope.table}: ${message}`);
      this.refuse(`Could not check whether the new keys are free (they stay unchecked, so the changes cannot be proposed yet): ${message}`);
    }
  }

  private async checkOnce(): Promise<void> {
    const cs = this.cs;
    const keys = cs.keysToCheck();
    if (keys.length === 0) return;
    const keyColumns: KeyColumn[] = cs.shape.keyColumns.map((k) => ({
      name: cs.shape.columns[k]?.name ?? '',
      type: cs.shape.columns[k]?.type ?? '',
    }));
    const existing = await findExistingKeys(this.deps.run, cs.scope.table, keyColumns, keys, this.abort.signal);
    if (this.abort.signal.aborted || cs !== this.cs) return;
    this.postOverlay(cs.recordExistingKeys(keys, existing));
    this.deps.store.changed(cs, this);
  }

  private onStoreChange(e: ChangeSetChange): void {
    if (e.origin === this) return;
    const mine = this.cs.scope;
    if (e.kind === 'rebased' && e.from && scopeKey(e.from) === scopeKey(mine)) {
      this.deps.rebased(e.scope);
      return;
    }
    if (scopeKey(e.scope) !== scopeKey(mine)) return;
    // Discarded (or proposed) elsewhere: start again with an empty change set at the same base.
    if (e.kind === 'deleted') this.cs = this.deps.store.open({ ...this.options, scope: mine });
    else this.cs = this.deps.store.get(mine) ?? this.cs;
    this.postOverlay(this.cs.overlay());
  }

  dispose(): void {
    this.abort.abort();
    this.sub.dispose();
  }
}
