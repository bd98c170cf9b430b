// A webview panel that shows one paged source in the result grid (the table browser, row history,
// a table's history): the grid asks for pages, a `PageServer` answers them from the source; the
// panel's owner answers what is not about rows (streamed export, Refresh, Show Row History).
// Messages from the webview are checked before anything acts on them.
import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { Cell } from '../shared/wire';
import { parseGridPagingMessage, type HostPagingMessage, type PagedOutput, type StreamFormat } from '../shared/gridPaging';
import { parseGridEditMessage, type GridEditMessage, type HostEditMessage } from '../shared/editProtocol';
import { parseGridMessage } from '../core/sql/gridMessages';
import { PageServer, type PageSource, type PageView } from '../core/paging/pageServer';
import { gridWebviewHtml, gridWebviewOptions } from '../platform/gridWebview';

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
  readonly panel: vscode.WebviewPanel;
  private server: PageServer | undefined;
  private output: PagedOutput | undefined;
  private handlers: PagedGridHandlers = {};
  private ready = false;
  private readonly queue: (HostPagingMessage | HostEditMessage)[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  constructor(
    extensionUri: vscode.Uri,
    private readonly log: Logger,
    opts: PagedGridPanelOptions,
  ) {
    this.panel = vscode.window.createWebviewPanel(
      opts.viewType,
      opts.title,
      opts.column ?? vscode.ViewColumn.Active,
      gridWebviewOptions(extensionUri),
    );
    this.panel.webview.html = gridWebviewHtml(this.panel.webview, extensionUri, 'resultPanel.js', opts.title);
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw)),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  get onDidDispose(): vscode.Event<void> {
    return this.panel.onDidDispose;
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
    this.panel.reveal();
  }

  /** Tells an editable grid about its change set (its overlay, an edit refused). */
  postEdit(m: HostEditMessage): void {
    this.post(m);
  }

  private post(m: HostPagingMessage | HostEditMessage): void {
    if (this.disposed) return;
    if (!this.ready) {
      // Before the script is up, keep only what it needs: the last show and what followed it.
      if (m.type === 'paged.show') this.queue.length = 0;
      this.queue.push(m);
      return;
    }
    void this.panel.webview.postMessage(m);
  }

  private async onMessage(raw: unknown): Promise<void> {
    if (raw && typeof raw === 'object' && (raw as { type?: unknown }).type === 'ready') {
      this.ready = true;
      for (const m of this.queue.splice(0)) void this.panel.webview.postMessage(m);
      return;
    }
    const m = parseGridPagingMessage(raw);
    const o = this.output;
    try {
      if (m) {
        if (this.server?.handle(m)) return;
        if (!o || ('sourceId' in m && m.sourceId !== o.sourceId)) return;
        if (m.type === 'export.stream') await this.handlers.export?.(m.format, this.view);
        else if (m.type === 'refresh') await this.handlers.refresh?.();
        else if (m.type === 'row.history') await this.handlers.rowHistory?.(m.key, m.column);
        return;
      }
      const edit = parseGridEditMessage(raw);
      if (edit) {
        if (o && edit.sourceId === o.sourceId) await this.handlers.edit?.(edit);
        return;
      }
      const g = parseGridMessage(raw);
      if (g?.type === 'copy') {
        if (this.handlers.copy) await this.handlers.copy(g.text, g.rows);
        else {
          await vscode.env.clipboard.writeText(g.text);
          vscode.window.setStatusBarMessage(`Copied ${g.rows} ${g.rows === 1 ? 'row' : 'rows'}`, 3000);
        }
        return;
      }
      this.log.warn('ignored a malformed message from the grid');
    } catch (e) {
      this.log.error(`grid action failed: ${e instanceof Error ? e.message : String(e)}`);
      void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.server?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}
