import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { WebviewTypes } from '../shared/ids';
import type { HostToGridMessage, QueryOutput, QueryTarget } from '../shared/queryResultOutput';
import { targetLabel } from '../core/sql/refs';
import { gridWebviewHtml, gridWebviewOptions } from '../platform/gridWebview';
import { parseGridPagingMessage, type HostPagingMessage } from '../shared/gridPaging';
import { LoadAllSession, loadAllFields, type LoadAllDeps } from './loadAllSession';

/**
 * The result grid in a webview panel, for queries run from a plain .sql editor. One panel,
 * reused; strict CSP (nonce'd script and style, nothing else), messages answered by
 * `onMessage` (copy / export, the same as the notebook renderer's). Load All Rows on the result
 * shown pages it in the same grid (a LoadAllSession), until the next run or the panel closes.
 */
export class SqlResultPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private pending: HostToGridMessage | undefined;
  private current: QueryOutput | undefined;
  private session: LoadAllSession | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (raw: unknown) => Promise<HostToGridMessage | undefined>,
    private readonly log: Logger,
    private readonly loadAllDeps?: LoadAllDeps,
  ) {}

  /** The Load All Rows session serving the panel's grid, if any (for integration tests). */
  get loadAllSession(): LoadAllSession | undefined {
    return this.session;
  }

  showRunning(sql: string, target: QueryTarget): void {
    this.endSession();
    this.current = undefined;
    this.post({ type: 'running', sql, target });
  }

  show(output: QueryOutput): void {
    this.endSession();
    const shown: QueryOutput = this.loadAllDeps ? { ...output, ...loadAllFields(output) } : output;
    this.current = shown;
    this.post({ type: 'show', output: shown });
  }

  private endSession(): void {
    this.session?.dispose();
    this.session = undefined;
  }

  /** Load All Rows and the paged grid's messages; false when `raw` is not a paging message. */
  private handlePaging(raw: unknown, panel: vscode.WebviewPanel): boolean {
    const m = parseGridPagingMessage(raw);
    if (!m) return false;
    const post = (msg: HostPagingMessage): void => {
      if (this.panel === panel) void panel.webview.postMessage(msg);
    };
    if (m.type === 'loadAll') {
      const deps = this.loadAllDeps;
      if (!deps || !this.current) {
        post({ type: 'loadAll.refused', message: 'This result is no longer shown here. Run the query again, then Load All Rows.' });
        return true;
      }
      this.endSession();
      const started = LoadAllSession.start(this.current, post, deps);
      if ('refused' in started) {
        post({ type: 'loadAll.refused', message: started.refused });
        return true;
      }
      this.session = started;
      post({ type: 'paged.show', output: started.output });
      started.begin();
      return true;
    }
    if (m.type === 'paged.closed') {
      if (this.session?.sourceId === m.sourceId) this.endSession();
      return true;
    }
    this.session?.handle(m);
    return true;
  }

  private post(m: HostToGridMessage): void {
    const panel = this.ensurePanel();
    if ('target' in m && m.target) panel.title = `SQL: ${targetLabel(m.target)}`;
    if (m.type === 'show') panel.title = `SQL: ${targetLabel(m.output.target)}`;
    if (this.ready) void panel.webview.postMessage(m);
    else this.pending = m;
  }

  private ensurePanel(): vscode.WebviewPanel {
    if (this.panel) {
      if (!this.panel.visible) this.panel.reveal(vscode.ViewColumn.Beside, true);
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      WebviewTypes.sqlResult,
      'SQL Result',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      gridWebviewOptions(this.extensionUri),
    );
    this.ready = false;
    panel.webview.html = gridWebviewHtml(panel.webview, this.extensionUri, 'resultPanel.js', 'SQL Result');
    panel.webview.onDidReceiveMessage(async (raw: unknown) => {
      if (typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'ready') {
        this.ready = true;
        if (this.pending) void panel.webview.postMessage(this.pending);
        this.pending = undefined;
        return;
      }
      try {
        if (this.handlePaging(raw, panel)) return;
        const reply = await this.onMessage(raw);
        if (reply) void panel.webview.postMessage(reply);
      } catch (e) {
        this.log.error(`result panel action failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
    panel.onDidDispose(() => {
      this.endSession();
      this.current = undefined;
      this.panel = undefined;
      this.ready = false;
    });
    this.panel = panel;
    return panel;
  }

  dispose(): void {
    this.endSession();
    this.panel?.dispose();
  }
}
