// One webview panel's plumbing, the same for every panel (the table browser and other grid panels,
// the Changes view, the pull request view, the SQL result panel), in the way of GitHub Pull
// Requests' src/common/webview.ts:
//
// - the page: a fresh nonce per render, a strict CSP (nothing but the nonce'd script and style, the
//   webview's own fonts, no remote images unless the view asks), one script from dist/, scripts
//   allowed to read only dist/;
// - the message bridge, typed both ways: what the page sends is checked by the panel's `parse`
//   before anything acts on it (a malformed message is logged and dropped), and what the host
//   sends before the page's script has said `ready` waits in a queue (a message may supersede the
//   queued ones it replaces);
// - dispose: once, with the panel, releasing what the panel registered.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { webviewCsp } from '../core/webviewCsp';
import { Disposable } from './disposable';
import { webviewBundleJson } from './l10n';

/** What a page's HTML is built with. */
export interface PageEnv {
  readonly nonce: string;
  readonly cspSource: string;
  /** The page's script, as the webview can load it. */
  readonly scriptUri: string;
  /** The l10n bundle as JSON, HTML-escaped for an attribute: the page puts `data-l10n="${l10n}"` on <body>. */
  readonly l10n: string;
}

export interface WebviewHostOptions<In> {
  readonly viewType: string;
  readonly title: string;
  readonly extensionUri: vscode.Uri;
  /** The page's script, a path under dist/ (`resultPanel.js`, `webview/pull.js`). */
  readonly script: string;
  readonly column?: vscode.ViewColumn | { readonly viewColumn: vscode.ViewColumn; readonly preserveFocus?: boolean };
  /** Keep the page alive while its tab is hidden (the grids: scroll position and loaded pages). */
  readonly retainContextWhenHidden?: boolean;
  /** The page's HTML; default the grid page (`gridPage`). */
  readonly html?: (env: PageEnv) => string;
  /** Checks a message from the page; undefined when it is not one this view understands. */
  readonly parse: (raw: unknown) => In | undefined;
  readonly log: Logger;
}

/** The page of every grid view: one root element the script mounts the grid in. */
export function gridPage(env: PageEnv, title: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${webviewCsp(env.cspSource, env.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title></head>
<body data-l10n="${env.l10n}"><div id="root"></div><script nonce="${env.nonce}" src="${escapeHtml(env.scriptUri)}"></script></body></html>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function isReady(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'ready';
}

export class WebviewHost<In, Out> extends Disposable {
  readonly panel: vscode.WebviewPanel;
  private ready = false;
  private readonly queue: Out[] = [];
  private readonly onDisposeEmitter = this._register(new vscode.EventEmitter<void>());
  /** Fires once, when the panel closes or is disposed. */
  readonly onDidDispose = this.onDisposeEmitter.event;

  constructor(
    private readonly opts: WebviewHostOptions<In>,
    private readonly onMessage: (message: In) => void | Promise<void>,
  ) {
    super();
    this.panel = vscode.window.createWebviewPanel(opts.viewType, opts.title, opts.column ?? vscode.ViewColumn.Active, {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(opts.extensionUri, 'dist')],
      retainContextWhenHidden: opts.retainContextWhenHidden ?? true,
    });
    this._register(this.panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
    this._register(this.panel.onDidDispose(() => this.dispose()));
    this.render();
  }

  /** (Re)writes the page: its script starts again, says `ready` again, and gets what was queued since. */
  render(): void {
    if (this.isDisposed) return;
    this.ready = false;
    const webview = this.panel.webview;
    const env: PageEnv = {
      nonce: randomBytes(16).toString('base64'),
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.opts.extensionUri, 'dist', ...this.opts.script.split('/'))).toString(),
      l10n: escapeHtml(webviewBundleJson()),
    };
    webview.html = this.opts.html ? this.opts.html(env) : gridPage(env, this.opts.title);
  }

  /**
   * Sends a message to the page, or queues it until the page is ready. `supersedes` drops the
   * queued messages this one makes useless (a new `show` replaces what the old one would have drawn).
   */
  post(message: Out, supersedes?: (queued: Out) => boolean): void {
    if (this.isDisposed) return;
    if (this.ready) {
      void this.panel.webview.postMessage(message);
      return;
    }
    if (supersedes) for (let i = this.queue.length - 1; i >= 0; i--) if (supersedes(this.queue[i]!)) this.queue.splice(i, 1);
    this.queue.push(message);
  }

  reveal(column?: vscode.ViewColumn, preserveFocus?: boolean): void {
    this.panel.reveal(column, preserveFocus);
  }

  private async receive(raw: unknown): Promise<void> {
    if (isReady(raw)) {
      this.ready = true;
      for (const m of this.queue.splice(0)) void this.panel.webview.postMessage(m);
    }
    const message = this.opts.parse(raw);
    if (message === undefined) {
      if (!isReady(raw)) this.opts.log.warn(`${this.opts.viewType}: ignored a malformed message from the view`);
      return;
    }
    try {
      await this.onMessage(message);
    } catch (e) {
      this.opts.log.error(`${this.opts.viewType}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.onDisposeEmitter.fire();
    super.dispose();
    this.panel.dispose();
  }
}
