// The table browser: one table at one commit in a PagedGridPanel titled `products @ main`. Pages,
// sort, filters and counts come from a TableSource that reads at the commit the ref pointed at
// when it opened; when the ref moves on the view says so (checked when the panel gains focus or
// becomes visible, and every `pollMs` while visible) and Refresh reopens at the new head. Export
// streams every row in the current sort and filter to a file.
import type * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { SqlPort } from '../core/sql/sqlPort';
import type { StreamFormat } from '../shared/gridPaging';
import { WebviewTypes } from '../shared/ids';
import type { TableCatalogCache } from '../core/sql/tableCatalog';
import { EXPORT_PAGE_SIZE, type TableSource } from '../core/paging/tableSource';
import { openTableAt, tableTitle, type TableAt } from '../core/paging/tableOpening';
import type { PageView } from '../core/paging/pageServer';
import type { StreamedExport } from '../platform/streamedExport';
import { PagedGridPanel } from './pagedGridPanel';
import type { RowHistoryRequest } from '../core/review/requests';
import { rowHistoryRequestFromGrid } from '../core/review/rowHistoryView';

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
}

export class TableBrowser implements vscode.Disposable {
  readonly panel: PagedGridPanel;
  private at: TableAt;
  private source: TableSource | undefined;
  /** The head last reported as moved, so the banner is posted once per move. */
  private reportedHead: string | undefined;
  private checking: Promise<void> | undefined;
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

  private async show(at: TableAt): Promise<void> {
    const run = this.deps.sql.at({ hostId: at.target.hostId, db: { owner: at.target.owner, name: at.target.name }, ref: at.commit });
    const { output, source } = await openTableAt(at, this.deps.catalog, run);
    if (this.disposed) return;
    this.at = at;
    this.source = source;
    this.reportedHead = undefined;
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
      },
      output.title,
    );
  }

  /** Reopens at the ref's head now; a table gone there is said and the old view stays. */
  async refresh(): Promise<void> {
    const head = await this.deps.headOf(this.at);
    await this.show({ ...this.at, commit: head ?? this.at.commit });
  }

  /** Tells the grid when the ref has moved on from the commit it shows. */
  checkMoved(): Promise<void> {
    this.checking ??= (async () => {
      try {
        const head = await this.deps.headOf(this.at);
        if (this.disposed || !head || head === this.at.commit || head === this.reportedHead) return;
        this.reportedHead = head;
        this.panel.refMoved(this.at.target.ref, head);
      } catch (e) {
        this.deps.log.warn(`could not check whether ${this.at.target.ref} moved: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        this.checking = undefined;
      }
    })();
    return this.checking;
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
    for (const s of this.subs.splice(0)) s.dispose();
    this.panel.dispose();
  }
}
