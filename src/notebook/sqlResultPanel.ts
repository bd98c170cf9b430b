import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { WebviewTypes } from '../shared/ids';
import type { GridToHostMessage, HostToGridMessage, QueryOutput, QueryTarget } from '../shared/queryResultOutput';
import { targetLabel } from '../core/sql/refs';
import { WebviewHost } from '../platform/webviewHost';
import { parseGridMessage } from '../core/sql/gridMessages';
import { isGridPagingMessage, parseGridPagingMessage, type GridPagingMessage, type HostPagingMessage } from '../shared/gridPaging';

type ResultHost = WebviewHost<GridPagingMessage | GridToHostMessage, HostToGridMessage | HostPagingMessage>;
import { LoadAllSession, loadAllFields, type LoadAllDeps } from './loadAllSession';
import * as l10n from '../shared/l10n';

/**
 * The result grid in a webview panel, for queries run from a plain .sql editor. One panel,
 * reused; strict CSP (nonce'd script and style, nothing else), messages answered by
 * `onMessage` (copy / export, the same as the notebook renderer's). Load All Rows on the result
 * shown pages it in the same grid (a LoadAllSession), until the next run or the panel closes.
 */
export class SqlResultPanel implements vscode.Disposable {
  private host: ResultHost | undefined;
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
  private handlePaging(m: GridPagingMessage, host: ResultHost): boolean {
    const post = (msg: HostPagingMessage): void => {
      if (this.host === host) host.post(msg);
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
    const host = this.ensureHost();
    if ('target' in m && m.target) host.panel.title = l10n.t('SQL: {0}', targetLabel(m.target));
    if (m.type === 'show') host.panel.title = l10n.t('SQL: {0}', targetLabel(m.output.target));
    // Until the page is up only the newest message matters: it replaces what it would have drawn.
    host.post(m, () => true);
  }

  private ensureHost(): ResultHost {
    if (this.host) {
      if (!this.host.panel.visible) this.host.reveal(vscode.ViewColumn.Beside, true);
      return this.host;
    }
    const host: ResultHost = new WebviewHost(
      {
        viewType: WebviewTypes.sqlResult,
        title: l10n.t('SQL Result'),
        extensionUri: this.extensionUri,
        script: 'resultPanel.js',
        column: { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        parse: (raw) => parseGridPagingMessage(raw) ?? parseGridMessage(raw),
        log: this.log,
      },
      (m) => this.receive(host, m),
    );
    host.onDidDispose(() => {
      this.endSession();
      this.current = undefined;
      this.host = undefined;
    });
    this.host = host;
    return host;
  }

  private async receive(host: ResultHost, m: GridPagingMessage | GridToHostMessage): Promise<void> {
    if (m.type === 'ready' || m.type === 'focused') return;
    if (isGridPagingMessage(m)) {
      this.handlePaging(m, host);
      return;
    }
    const reply = await this.onMessage(m);
    if (reply) host.post(reply);
  }

  dispose(): void {
    this.endSession();
    this.host?.dispose();
  }
}
