// The table browser: one table at one commit in a PagedGridPanel titled `products @ main`. Pages,
// sort, filters and counts come from a TableSource that reads at the commit the ref pointed at
// when it opened; when the ref moves on the view says so (checked when the panel gains focus or
// becomes visible, and every `pollMs` while visible) and Refresh reopens at the new head. Export
// streams every row in the current sort and filter to a file. At a branch the rows can be edited
// (issue #23, ./tableEditing.ts): the change set is pinned to the commit the browser reads at, so
// a browser opened on a table with a change set kept opens at that change set's base.
import type * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { SqlPort, SqlRunner } from '../core/sql/sqlPort';
import type { PagedOutput, StreamFormat } from '../shared/gridPaging';
import { WebviewTypes } from '../shared/ids';
import type { TableCatalogCache } from '../core/sql/tableCatalog';
import { EXPORT_PAGE_SIZE, type TableSource } from '../core/paging/tableSource';
import { openTableAt, tableTitle, type TableAt } from '../core/paging/tableOpening';
import type { PageView } from '../core/paging/pageServer';
import type { StreamedExport } from '../platform/streamedExport';
import { PagedGridPanel } from './pagedGridPanel';
import type { RowHistoryRequest } from '../core/review/requests';
import { rowHistoryRequestFromGrid } from '../core/review/rowHistoryView';
import type { TableColumnInfo } from '../core/sql/tableQuery';
import type { ChangeSet } from '../core/changes/changeSet';
import type { ChangeSetScope } from '../core/changes/changeSetScope';
import { tableEditability, type RefKind } from '../core/changes/tableEditability';
import type { ChangeSetStore } from './changeSetStore';
import { TableEditing } from './tableEditing';
import { Rerun } from '../core/rerun';

export interface TableBrowserDeps {
  readonly extensionUri: vscode.Uri;
  readonly log: Logger;
  readonly catalog: Pick<TableCatalogCache, 'tables' | 'columns'>;
  /** SQL at a commit of the target's database (the one SQL port). */
  readonly sql: Pick<SqlPort, 'at'>;
  /** The commit the target's ref points at now (undefined when it cannot tell, e.g. a commit hash). */
  headOf(at: TableAt, signal?: AbortSignal): Promise<string | undefined>;
  /** Streams an export (src/platform/streamedExport.ts `exportStreamed`). */
  exportStreamed(e: StreamedExport): Promise<string | undefined>;
  /** How often a visible browser checks whether its ref moved. */
  readonly pollMs?: number;
  /** Show Row History on a grid row (issue #15: `versionedDb.showRowHistory`). */
  showRowHistory?(req: RowHistoryRequest): unknown;
  /** The change sets (issue #23); without them the grid never edits. */
  readonly changeSets?: ChangeSetStore;
  /** What the target's ref is now: only a branch is edited. */
  refKind?(at: TableAt, signal?: AbortSignal): Promise<RefKind>;
  /** Show Changes of a change set in the Changes view (the edit bar's Review Changes). */
  showChangeSet?(scope: ChangeSetScope): unknown;
  /** Discard Changes… (asks first). */
  discardChanges?(scope: ChangeSetScope): unknown;
  /** Propose Changes…: the edit bar's button, enabled when the change set is not empty and has no problem. */
  proposeChanges?(scope: ChangeSetScope): unknown;
}

export class TableBrowser implements vscode.Disposable {
  readonly panel: PagedGridPanel;
  private at: TableAt;
  private source: TableSource | undefined;
  /** The head last reported as moved, so the banner is posted once per move. */
  private reportedHead: string | undefined;
  private readonly checks = new Rerun(
    () => this.checkMovedOnce(),
    () => this.disposed,
  );
  private editing: TableEditing | undefined;
  private refKindNow: RefKind | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly subs: vscode.Disposable[] = [];
  private disposed = false;

  private constructor(
    private readonly deps: TableBrowserDeps,
    at: TableAt,
  ) {
    this.at = at;
    this.panel = new PagedGridPanel(deps.extensionUri, deps.log, {
      viewType: WebviewTypes.tableBrowser,
      title: tableTitle(at.table, at.target.ref),
    });
    this.subs.push(
      this.panel.panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.visible) void this.checkMoved();
      }),
      // Back from the side bar or a panel, the browser stays the active editor: no view state change.
      this.panel.onDidFocus(() => void this.checkMoved()),
      this.panel.onDidDispose(() => this.dispose()),
    );
    const poll = deps.pollMs ?? 30_000;
    if (poll > 0) {
      this.timer = setInterval(() => {
        if (this.panel.panel.visible) void this.checkMoved();
      }, poll);
    }
  }

  /** Opens a browser on `at`; rejects (closing the panel) when the table cannot be opened there. */
  static async open(deps: TableBrowserDeps, at: TableAt): Promise<TableBrowser> {
    const b = new TableBrowser(deps, at);
    try {
      await b.show(at);
    } catch (e) {
      b.dispose();
      throw e;
    }
    void b.checkMoved();
    return b;
  }

  /** Where the browser reads now. */
  get current(): TableAt {
    return this.at;
  }

  get onDidDispose(): vscode.Event<void> {
    return this.panel.onDidDispose;
  }

  reveal(): void {
    this.panel.reveal();
  }

  private async show(requested: TableAt): Promise<void> {
    const refKind = await this.refKind(requested);
    const at = this.atChangeSetBase(requested, refKind);
    const run = this.runAt(at);
    const opened = await openTableAt(at, this.deps.catalog, run);
    if (this.disposed) return;
    const { output, source } = opened;
    this.at = at;
    this.source = source;
    this.reportedHead = undefined;
    const edit = this.deps.changeSets
      ? tableEditability({ ref: at.target.ref, refKind, table: at.table, tableKind: opened.kind, columns: source.columns })
      : undefined;
    if (edit) output.edit = edit;
    this.editing?.dispose();
    this.editing = edit && !edit.readOnly ? this.startEditing(at, output, source.columns) : undefined;
    this.panel.show(
      output,
      source,
      {
        export: (format, view) => this.export(format, view),
        refresh: () => this.refresh(),
        rowHistory: async (key, column) => {
          const req = rowHistoryRequestFromGrid(output, key, column);
          if (req) await this.deps.showRowHistory?.(req);
        },
        edit: (m) => this.editing?.handle(m),
      },
      output.title,
    );
    this.editing?.start();
  }

  /** SQL at the commit the browser reads at. */
  private runAt(at: TableAt): SqlRunner {
    return this.deps.sql.at({ hostId: at.target.hostId, db: { owner: at.target.owner, name: at.target.name }, ref: at.commit });
  }

  private async refKind(at: TableAt): Promise<RefKind> {
    if (!this.deps.changeSets || !this.deps.refKind) return 'unknown';
    try {
      this.refKindNow ??= await this.deps.refKind(at);
    } catch (e) {
      this.deps.log.warn(`could not tell whether ${at.target.ref} is a branch: ${e instanceof Error ? e.message : String(e)}`);
      return 'unknown';
    }
    return this.refKindNow;
  }

  /** A change set kept for this table of this branch pins the browser to its base commit. */
  private atChangeSetBase(at: TableAt, refKind: RefKind): TableAt {
    const store = this.deps.changeSets;
    if (!store || refKind !== 'branch') return at;
    const kept = store.find({ ...this.tableOf(at), branch: at.target.ref });
    return kept && kept.baseCommit !== at.commit ? { ...at, commit: kept.baseCommit } : at;
  }

  private tableOf(at: TableAt): { hostId: string; owner: string; name: string; table: string } {
    return { hostId: at.target.hostId, owner: at.target.owner, name: at.target.name, table: at.table };
  }

  private startEditing(at: TableAt, output: PagedOutput, columns: readonly TableColumnInfo[]): TableEditing {
    const store = this.deps.changeSets as ChangeSetStore;
    const scope: ChangeSetScope = { ...this.tableOf(at), branch: at.target.ref, baseCommit: at.commit };
    return new TableEditing(
      {
        store,
        log: this.deps.log,
        run: this.runAt(at),
        post: (m) => this.panel.postEdit(m),
        rebased: (s) => void this.show({ ...this.at, commit: s.baseCommit }),
        showChangeSet: (s) => this.deps.showChangeSet?.(s),
        discardChanges: (s) => this.deps.discardChanges?.(s),
        proposeChanges: (s) => this.deps.proposeChanges?.(s),
      },
      { scope, columns: output.columns, keyColumns: output.edit?.keyColumns ?? [], nullable: columns.map((c) => c.nullable !== false) },
      output.sourceId,
    );
  }

  /** The change set being edited here, if any. */
  get changeSet(): ChangeSet | undefined {
    return this.editing?.changeSet;
  }

  /** Reopens at the ref's head now; a table gone there is said and the old view stays. */
  async refresh(): Promise<void> {
    const cs = this.editing?.changeSet;
    if (cs && !cs.isEmpty) {
      // The edits were made on the rows at this commit: moving would apply them to other rows.
      this.panel.postEdit({
        type: 'edit.refused',
        sourceId: this.panel.currentOutput?.sourceId ?? '',
        message: 'Refresh would leave the rows your changes were made on. Propose or discard the changes first.',
      });
      return;
    }
    const head = await this.deps.headOf(this.at);
    await this.show({ ...this.at, commit: head ?? this.at.commit });
  }

  /**
   * Tells the grid when the ref has moved on from the commit it shows. A call while a check runs
   * (which may have read the head before the move) looks once more after it.
   */
  checkMoved(): Promise<void> {
    return this.checks.run();
  }

  private async checkMovedOnce(): Promise<void> {
    try {
      const head = await this.deps.headOf(this.at);
      if (this.disposed || !head || head === this.at.commit || head === this.reportedHead) return;
      this.reportedHead = head;
      this.panel.refMoved(this.at.target.ref, head);
    } catch (e) {
      this.deps.log.warn(`could not check whether ${this.at.target.ref} moved: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async export(format: StreamFormat, view: PageView): Promise<void> {
    const at = this.at;
    if (!this.source) return;
    const columns = this.panel.currentOutput?.columns ?? [];
    // The shown table's source reads at the commit it opened at; the export gets its own pages.
    const source = this.source.withPageSize(EXPORT_PAGE_SIZE);
    const abort = new AbortController();
    const totalRows = await source.count(view, abort.signal).catch(() => undefined);
    await this.deps.exportStreamed({
      columns,
      format,
      suggestedName: `${at.table}@${at.target.ref}`,
      tableName: at.table,
      source,
      view,
      pageSize: EXPORT_PAGE_SIZE,
      ...(totalRows !== undefined ? { totalRows } : {}),
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.editing?.dispose();
    for (const s of this.subs.splice(0)) s.dispose();
    this.panel.dispose();
  }
}
