// The pull request view's Changes section (issue #15): the pull's three-dot diff per table (rows
// added, modified, removed and a schema mark; cross-fork pulls read in the fork), each table
// opening the Changes view at that table, and a Viewed mark per table kept per pull in the
// workspace state. A mark remembers what the table's diff was (the merge base and the last commit
// on the head that changed the table, `tableDiffFingerprint`); when that moves, the mark is cleared
// and the section says the table changed since it was viewed.
import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { DbRef } from '../api/index';
import type { SqlPort } from '../core/sql/sqlPort';
import type { Pull } from '../shared/wire';
import { Commands } from '../shared/ids';
import { escapeHtml } from '../core/pullPage';
import type { PullTarget } from '../core/targets';
import type { ChangesRequest } from '../core/review/requests';
import { loadTableChanges, pinChanges, pinInputOfPull, tableDiffFingerprint } from '../core/review/changesPin';
import type { TableChange } from '../core/review/tableChanges';
import * as l10n from '../shared/l10n';

/** Where Viewed marks are kept (the extension's workspace state). */
export type ViewedMemento = Pick<vscode.Memento, 'get' | 'update'>;

export interface PullChangesDeps {
  sql: Pick<SqlPort, 'review'>;
  viewed: ViewedMemento;
  log: Logger;
}

/** The element the section's HTML replaces in the pull view. */
export const PULL_CHANGES_ID = 'pull-changes';

function viewedKey(t: PullTarget): string {
  return `versionedDb.viewed:${t.hostId}:${t.db.owner}/${t.db.name}#${t.pullNumber}`;
}

interface Loaded {
  tables: TableChange[];
  partial: boolean;
  fingerprints: Map<string, string>;
  /** Tables whose mark was cleared because their diff changed. */
  changedSince: Set<string>;
  readInFork: DbRef | undefined;
}

export class PullChangesSection {
  private last: Loaded | undefined;

  constructor(
    private readonly target: PullTarget,
    private readonly deps: PullChangesDeps,
  ) {}

  private marks(): Record<string, string> {
    const v = this.deps.viewed.get<Record<string, string>>(viewedKey(this.target));
    return v && typeof v === 'object' ? { ...v } : {};
  }

  /** Reads the pull's changes and renders the section (escaped HTML); never throws. */
  async render(pull: Pick<Pull, 'from_branch' | 'to_branch' | 'state'>): Promise<string> {
    if (pull.state === 'merged') {
      // After the merge the merge base is the head: a three-dot diff would say nothing changed.
      this.last = undefined;
      return `<h2>${l10n.tHtml('Changes')}</h2><p class="muted">${l10n.tHtml('Merged: these changes are part of {0} now.', escapeHtml(pull.to_branch.branch_name))}</p>`;
    }
    try {
      this.last = await this.load(pull);
      return this.html();
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.deps.log.warn(`pull changes ${this.target.db.owner}/${this.target.db.name}#${this.target.pullNumber}: ${message}`);
      return `<h2>${l10n.tHtml('Changes')}</h2><p class="error">${l10n.tHtml('Could not read the changes: {0}', escapeHtml(message))}</p>`;
    }
  }

  private async load(pull: Pick<Pull, 'from_branch' | 'to_branch'>): Promise<Loaded> {
    const { input, fork } = pinInputOfPull(pull, this.target.db);
    const targetRun = this.deps.sql.review(this.target.hostId, this.target.db);
    const forkRun = fork ? this.deps.sql.review(this.target.hostId, fork) : undefined;
    const pinned = await pinChanges(input, targetRun, forkRun);
    const run = pinned.readInFork && forkRun ? forkRun : targetRun;
    const summary = await loadTableChanges(pinned.pair, run);
    const fingerprints = new Map<string, string>();
    await Promise.all(
      summary.tables.map(async (t) => fingerprints.set(t.table, await tableDiffFingerprint(pinned.pair, t.toTable ?? t.table, run))),
    );
    // A mark whose diff moved on is cleared, and said so once.
    const marks = this.marks();
    const changedSince = new Set<string>();
    let dirty = false;
    for (const [table, fp] of Object.entries(marks)) {
      if (fingerprints.get(table) !== fp) {
        if (fingerprints.has(table)) changedSince.add(table);
        delete marks[table];
        dirty = true;
      }
    }
    if (dirty) await this.deps.viewed.update(viewedKey(this.target), marks);
    return {
      tables: summary.tables,
      partial: !summary.completeness.complete,
      fingerprints,
      changedSince,
      readInFork: pinned.readInFork ? fork : undefined,
    };
  }

  private html(): string {
    const l = this.last;
    if (!l) return '';
    const marks = this.marks();
    const viewed = l.tables.filter((t) => marks[t.table] !== undefined).length;
    const count = (n: number | null | undefined): string => (n === null || n === undefined ? '?' : n.toLocaleString('en-US'));
    const rows = l.tables
      .map((t) => {
        const isViewed = marks[t.table] !== undefined;
        const name = escapeHtml(t.table);
        const schema = t.schemaChanged
          ? ` <span class="label" data-schema="changed" title="${l10n.tHtml('The schema changed')}">${l10n.tHtml('schema')}</span>`
          : '';
        const kind = t.kind !== 'modified' ? ` <span class="label">${escapeHtml(t.kind)}</span>` : '';
        const since = l.changedSince.has(t.table)
          ? ` <span class="muted" data-changed-since="">${l10n.tHtml('changed since you viewed it')}</span>`
          : '';
        return (
          `<tr data-table-row="${name}"><td><button type="button" class="link" data-changes-table="${name}" title="${l10n.tHtml('Show the changes of {0}', name)}">${name}</button>${kind}${schema}${since}</td>` +
          `<td class="added" data-count="added">+${count(t.rows?.added)}</td><td class="modified" data-count="modified">~${count(t.rows?.modified)}</td><td class="removed" data-count="removed">−${count(t.rows?.removed)}</td>` +
          `<td><label><input type="checkbox" data-viewed-table="${name}"${isViewed ? ' checked' : ''}> ${l10n.tHtml('Viewed')}</label></td></tr>`
        );
      })
      .join('');
    const partial = l.partial
      ? `<p class="warning" role="status">${l10n.tHtml('The server returned only part of the list: more tables may have changed.')}</p>`
      : '';
    const fork = l.readInFork
      ? `<p class="muted">${l10n.tHtml('Read in the fork {0}/{1}.', escapeHtml(l.readInFork.owner), escapeHtml(l.readInFork.name))}</p>`
      : '';
    const body = l.tables.length
      ? `<table class="changes-table"><thead><tr><th>${l10n.tHtml('Table')}</th><th>${l10n.tHtml('Added')}</th><th>${l10n.tHtml('Modified')}</th><th>${l10n.tHtml('Removed')}</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
      : `<p class="muted">${l10n.tHtml('No table changed.')}</p>`;
    return (
      `<h2>${l10n.tHtml('Changes')} <span class="muted" data-viewed-count="">${l10n.tHtml('{0} of {1} viewed', viewed, l.tables.length)}</span></h2>${partial}${fork}${body}` +
      `<div class="actions"><button type="button" data-changes-table="">${l10n.tHtml('Open All Changes')}</button></div>`
    );
  }

  /** Marks a table viewed (with its diff's fingerprint) or not; answers the section's new HTML. */
  async setViewed(table: string, on: boolean): Promise<string> {
    const marks = this.marks();
    const fp = this.last?.fingerprints.get(table);
    if (on && fp) marks[table] = fp;
    else delete marks[table];
    this.last?.changedSince.delete(table);
    await this.deps.viewed.update(viewedKey(this.target), marks);
    return this.html();
  }

  /** Every changed table is marked Viewed (issue #25: that counts as a review of the head). */
  allViewed(): boolean {
    const marks = this.marks();
    return !!this.last && this.last.tables.length > 0 && this.last.tables.every((t) => marks[t.table] !== undefined);
  }

  /** Opens the Changes view of the pull, at `table` when given. */
  async open(table: string | undefined): Promise<void> {
    const request: ChangesRequest = { kind: 'pull', target: this.target, ...(table ? { table } : {}) };
    await vscode.commands.executeCommand(Commands.showChanges, request);
  }
}
