import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { Notebooks } from '../shared/ids';
import type { HostToGridMessage, QueryOutput, QueryTarget } from '../shared/queryResultOutput';
import { targetLabel } from '../core/sql/refs';
import { gridWebviewHtml, gridWebviewOptions } from '../platform/gridWebview';

/**
 * The result grid in a webview panel, for queries run from a plain .sql editor. One panel,
 * reused; strict CSP (nonce'd script and style, nothing else), messages answered by
 * `onMessage` (copy / export, the same as the notebook renderer's).
 */
export class SqlResultPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private pending: HostToGridMessage | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (raw: unknown) => Promise<HostToGridMessage | undefined>,
    private readonly log: Logger,
  ) {}

  showRunning(sql: string, target: QueryTarget): void {
    this.post({ type: 'running', sql, target });
  }

  show(output: QueryOutput): void {
    this.post({ type: 'show', output });
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
      Notebooks.resultPanel,
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
        const reply = await this.onMessage(raw);
        if (reply) void panel.webview.postMessage(reply);
      } catch (e) {
        this.log.error(`result panel action failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
    });
    this.panel = panel;
    return panel;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
