// A webview panel that shows one paged source in the result grid (the table browser, row history,
// a table's history): the grid asks for pages, a `PageServer` answers them from the source; the
// panel's owner answers what is not about rows (streamed export, Refresh, Show Row History).
// Messages from the webview are checked before anything acts on them.
import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { Cell } from '../shared/wire';
import {
  parseGridPagingMessage,
  type GridPagingMessage,
  type HostPagingMessage,
  type PagedOutput,
  type StreamFormat,
} from '../shared/gridPaging';
import { parseGridEditMessage, type GridEditMessage, type HostEditMessage } from '../shared/editProtocol';
import { parseGridMessage } from '../core/sql/gridMessages';
import { PageServer, type PageSource, type PageView } from '../core/paging/pageServer';
import { WebviewHost } from '../platform/webviewHost';
import type { GridToHostMessage } from '../shared/queryResultOutput';
import * as l10n from '../shared/l10n';

/** What the panel's owner does for the grid. */
export interface PagedGridHandlers {
  /** Export every row in the current view (the owner streams it, src/platform/streamedExport.ts). */
  export?(format: StreamFormat, view: PageView): void | Promise<void>;
  /** Reopen at the ref's new head (after `refMoved`). */
  refresh?(): void | Promise<void>;
  /** Show Row History on a row of `PagedOutput.rowsOf`. */
  rowHistory?(key: Cell[], column: string | undefined): void | Promise<void>;
  /** Copy (text the grid formatted from loaded rows). */
  copy?(text: string, rows: number): void | Promise<void>;
  /** What the user did to an editable grid (src/shared/editProtocol.ts), already checked. */
  edit?(m: GridEditMessage): void | Promise<void>;
}

export interface PagedGridPanelOptions {
  viewType: string;
  title: string;
  column?: vscode.ViewColumn;
}

export class PagedGridPanel implements vscode.Disposable {
  private readonly host: WebviewHost<GridPagingMessage | GridEditMessage | GridToHostMessage, HostPagingMessage | HostEditMessage>;
  private server: PageServer | undefined;
  private output: PagedOutput | undefined;
  private handlers: PagedGridHandlers = {};
  private disposed = false;
  private readonly focused = new vscode.EventEmitter<void>();
  /** Fires when the panel gets the focus (the user came back to it, from the side bar too). */
  readonly onDidFocus = this.focused.event;

  constructor(
    extensionUri: vscode.Uri,
    private readonly log: Logger,
    opts: PagedGridPanelOptions,
  ) {
    this.host = new WebviewHost(
      {
        viewType: opts.viewType,
        title: opts.title,
        extensionUri,
        script: 'resultPanel.js',
        ...(opts.column !== undefined ? { column: opts.column } : {}),
        parse: (raw) => parseGridPagingMessage(raw) ?? parseGridEditMessage(raw) ?? parseGridMessage(raw),
        log,
      },
      (m) => this.onMessage(m),
    );
    this.host.onDidDispose(() => this.dispose());
  }

  get panel(): vscode.WebviewPanel {
    return this.host.panel;
  }

  get onDidDispose(): vscode.Event<void> {
    return this.host.onDidDispose;
  }

  /** The sort and filters the grid shows now. */
  get view(): PageView {
    return this.server?.view ?? { sort: [], filters: [] };
  }

  get currentOutput(): PagedOutput | undefined {
    return this.output;
  }

  /** Shows `output`, its rows read from `source`; replaces whatever the panel showed. */
  show(output: PagedOutput, source: PageSource, handlers: PagedGridHandlers = {}, title?: string): void {
    if (this.disposed) return;
    this.server?.dispose();
    this.output = output;
    this.handlers = handlers;
    if (title) this.panel.title = title;
    this.server = new PageServer({
      sourceId: output.sourceId,
      source,
      post: (m) => this.post(m),
      view: { sort: output.sort ?? [], filters: output.filters ?? [] },
      onError: (e) => this.log.warn(`${output.title}: ${e instanceof Error ? e.message : String(e)}`),
    });
    this.post({ type: 'paged.show', output });
    this.server.start();
  }

  /** Tells the grid its ref has moved on from the commit it shows. */
  refMoved(ref: string, movedTo: string): void {
    const o = this.output;
    if (o) this.post({ type: 'ref.moved', sourceId: o.sourceId, ref, commit: o.commit, movedTo });
  }

  reveal(): void {
    this.host.reveal();
  }

  /** Tells an editable grid about its change set (its overlay, an edit refused). */
  postEdit(m: HostEditMessage): void {
    this.host.post(m);
  }

  private post(m: HostPagingMessage): void {
    // Before the script is up, a new show makes everything queued before it useless.
    this.host.post(m, m.type === 'paged.show' ? () => true : undefined);
  }

  private async onMessage(m: GridPagingMessage | GridEditMessage | GridToHostMessage): Promise<void> {
    try {
      if (m.type === 'copy') return await this.copy(m.text, m.rows);
      if (m.type === 'focused') return this.focused.fire();
      if (m.type === 'export' || m.type === 'ready') return;
      if (m.type === 'edit.apply' || m.type === 'edit.action') {
        if (m.sourceId === this.output?.sourceId) await this.handlers.edit?.(m);
        return;
      }
      if (this.server?.handle(m)) return;
      const o = this.output;
      if (!o || ('sourceId' in m && m.sourceId !== o.sourceId)) return;
      if (m.type === 'export.stream') await this.handlers.export?.(m.format, this.view);
      else if (m.type === 'refresh') await this.handlers.refresh?.();
      else if (m.type === 'row.history') await this.handlers.rowHistory?.(m.key, m.column);
    } catch (e) {
      this.log.error(`grid action failed: ${e instanceof Error ? e.message : String(e)}`);
      void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
    }
  }

  private async copy(text: string, rows: number): Promise<void> {
    if (this.handlers.copy) return void (await this.handlers.copy(text, rows));
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(rows === 1 ? l10n.t('Copied 1 row') : l10n.t('Copied {0} rows', rows), 3000);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.server?.dispose();
    this.focused.dispose();
    this.host.dispose();
  }
}
