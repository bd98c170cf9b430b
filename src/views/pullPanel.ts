import { WebviewTypes } from '../shared/ids';
import type * as vscode from 'vscode';
import { WebviewHost } from '../platform/webviewHost';
import type { Logger } from '../core/logger';
import type { MarkdownRenderer } from '../core/markdown';
import type { RemoteImages } from '../core/remoteImages';
import { escapeHtml, renderPullContent, renderPullDocument } from '../core/pullPage';
import { parsePullWebviewMessage, type PullHostMessage, type PullWebviewMessage } from '../shared/pullProtocol';
import { Disposable } from '../platform/disposable';
import type { HubClient } from '../api/hubClient';
import type { PullTarget } from '../core/targets';
import { PULL_CHANGES_ID, PullChangesSection, type PullChangesDeps } from './pullChanges';
import type { SqlPort } from '../core/sql/sqlPort';
import { MERGE_PREVIEW_ID, PullMergePreview } from './pullMergePreview';
import { MERGE_PREVIEW_STYLE } from '../core/pullMergePreviewPage';
import { PULL_COMMITS_ID, PULL_HEAD_MOVED_ID, PullCommitsSection, type PullCommitsDeps } from './pullCommits';
import { PULL_COMMITS_STYLE } from '../core/pullCommitsPage';
import { PULL_THREADS_ID, PullThreadsSection, type PullThreadsDeps } from './pullThreads';
import { PULL_THREADS_STYLE } from '../core/pullThreadsPage';
import { PullChecksSection, type PullChecksDeps } from './pullChecks';
import { CHECKS_ID, CHECKS_STYLE } from '../core/pullChecksPage';
import * as l10n from '../shared/l10n';
import { Rerun } from '../core/rerun';

/** What the view's buttons do: the same command logic the palette uses (src/commands/pullActions.ts). */
export interface PullViewActions {
  merge(target: PullTarget): Promise<unknown>;
  setState(target: PullTarget, state: 'open' | 'closed'): Promise<unknown>;
  /** Resolves true when the comment was posted. */
  comment(target: PullTarget, body: string): Promise<boolean>;
  /** Resolves true when the edit was saved (or there was nothing to change). */
  edit(target: PullTarget, title: string, description: string): Promise<boolean>;
  openOnWeb(target: PullTarget): Promise<void>;
  /** The conflict path, the primary button when the merge preview conflicts. */
  settleConflicts?(target: PullTarget): Promise<unknown>;
}

export interface PullPanelsDeps {
  extensionUri: vscode.Uri;
  clientFor(hostId: string): Pick<HubClient, 'getPull' | 'listPullComments'>;
  /** The web page of the pull, when the host has one. */
  webUrl(target: PullTarget): string | undefined;
  actions: PullViewActions;
  log: Logger;
  /** The Changes section (./pullChanges.ts); without it the view has none. */
  changes?: PullChangesDeps;
  /** Read-only SQL for the "Before merging" section (./pullMergePreview.ts); without it the view has none. */
  sql?: Pick<SqlPort, 'review'>;
  /** The Commits section and the watch on the pull's head (./pullCommits.ts); without it the view has neither. */
  commits?: PullCommitsDeps;
  /** Row and cell comments as threads (./pullThreads.ts); needs `commits` for the head they are checked at. */
  threads?: PullThreadsDeps;
  /** The Checks section (./pullChecks.ts, issue #24); without it the view has none. */
  checks?: PullChecksDeps;
}

function keyOf(t: PullTarget): string {
  return `${t.hostId}\n${t.db.owner}/${t.db.name}#${t.pullNumber}`;
}

/** One webview per pull request: showing an open pull again reveals its panel. */
export class PullPanels extends Disposable {
  private readonly panels = new Map<string, PullPanel>();
  // Built on the first view, not at activation: activation must stay fast.
  private mdRenderer: MarkdownRenderer | undefined;

  constructor(private readonly deps: PullPanelsDeps) {
    super();
  }

  async show(target: PullTarget): Promise<void> {
    const key = keyOf(target);
    const existing = this.panels.get(key);
    if (existing) {
      existing.reveal();
      await existing.reload();
      return;
    }
    // markdown-it is loaded when the first pull request view opens, not during activation;
    // esbuild keeps this require a run-time load of dist/markdown.js (see esbuild.mjs).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.mdRenderer ??= (require('../core/markdown') as typeof import('../core/markdown')).createMarkdownRenderer();
    const panel = new PullPanel(target, this.deps, this.mdRenderer, () => this.panels.delete(key));
    this.panels.set(key, panel);
    this._register(panel);
    await panel.reload();
  }

  /** After any change to the pull (from the view, the palette or the tree): re-read and re-render. */
  refresh(target: PullTarget): void {
    void this.panels.get(keyOf(target))?.reload();
  }

  /** For tests: the panel of a pull, if open. */
  panelFor(target: PullTarget): PullPanel | undefined {
    return this.panels.get(keyOf(target));
  }

  override dispose(): void {
    this.panels.clear();
    super.dispose();
  }
}

/** The messages of the Commits and Row comments sections (issue #25). */
type SectionMessage = Extract<
  PullWebviewMessage,
  { type: 'threads.reply' | 'threads.apply' | 'commits.open' | 'review.mark' | 'review.since' }
>;
const SECTION_TYPES: ReadonlySet<string> = new Set<SectionMessage['type']>([
  'threads.reply',
  'threads.apply',
  'commits.open',
  'review.mark',
  'review.since',
]);
const isSectionMessage = (m: PullWebviewMessage): m is SectionMessage => SECTION_TYPES.has(m.type);
export class PullPanel extends Disposable {
  private readonly host: WebviewHost<PullWebviewMessage, PullHostMessage>;
  private content = `<p>${l10n.tHtml('Loading…')}</p>`;
  private disposed = false;
  private readonly reloads = new Rerun(
    () => this.loadOnce(),
    () => this.disposed,
  );
  /** Remote images stay placeholders until the user presses "Load images" in this view. */
  private images: RemoteImages = 'blocked';
  /** The last HTML sent, for tests and for the script's `ready`. */
  lastContent = '';
  private readonly changes: PullChangesSection | undefined;
  /** "Before merging": what an open pull's merge changes and whether it conflicts (issue #15). */
  readonly mergePreview: PullMergePreview | undefined;
  /** Checks: the tests at the merge base and head, the branch's CI runs (issue #24). */
  readonly checks: PullChecksSection | undefined;
  /** The Changes section's HTML, kept apart from the pull's so either re-renders alone. */
  changesHtml = '';
  /** The pull's commits and the watch on its head (issue #25). */
  readonly commits: PullCommitsSection | undefined;
  commitsHtml = '';
  /** Threads of row and cell comments (issue #25). */
  readonly threads: PullThreadsSection | undefined;
  /** The "branch moved" notice, '' while the view shows the branch's head. */
  movedHtml = '';

  constructor(
    readonly target: PullTarget,
    private readonly deps: PullPanelsDeps,
    private readonly md: MarkdownRenderer,
    onDispose: () => void,
  ) {
    super();
    const title = l10n.t('Pull #{0} · {1}', target.pullNumber, target.db.name);
    this.host = this._register(
      new WebviewHost(
        {
          viewType: WebviewTypes.pull,
          title,
          extensionUri: deps.extensionUri,
          script: 'webview/pull.js',
          retainContextWhenHidden: false,
          html: (env) =>
            renderPullDocument({
              ...env,
              title: this.host?.panel.title ?? title,
              contentHtml: this.content,
              images: this.images,
              extraStyle: MERGE_PREVIEW_STYLE + PULL_COMMITS_STYLE + PULL_THREADS_STYLE + CHECKS_STYLE,
            }),
          parse: parsePullWebviewMessage,
          log: deps.log,
        },
        (m) => this.handle(m),
      ),
    );
    this._register(
      this.host.onDidDispose(() => {
        this.disposed = true;
        onDispose();
        this.dispose();
      }),
    );
    this.changes = deps.changes ? new PullChangesSection(target, deps.changes) : undefined;
    this.threads = deps.threads ? new PullThreadsSection(target, deps.threads, md) : undefined;
    this.commits = deps.commits ? this.watchHead(new PullCommitsSection(target, deps.commits), deps.commits.pollMs ?? 30_000) : undefined;
    if (deps.sql) {
      const preview = (this.mergePreview = new PullMergePreview(target, deps.sql, () =>
        this.post({ type: 'section', id: MERGE_PREVIEW_ID, html: preview.html() }),
      ));
      this._register({ dispose: () => preview.dispose() });
    }
    if (deps.checks) {
      const checks = (this.checks = new PullChecksSection(target, deps.checks, () =>
        this.post({ type: 'section', id: CHECKS_ID, html: checks.html() }),
      ));
      this._register({ dispose: () => checks.dispose() });
    }
  }

  private get panel(): vscode.WebviewPanel {
    return this.host.panel;
  }

  reveal(): void {
    this.host.reveal();
  }

  private post(message: PullHostMessage): void {
    if (!this.disposed) this.host.post(message);
  }

  /** Re-reads the pull and its comments; concurrent calls collapse into one more read. */
  reload(): Promise<void> {
    return this.reloads.run();
  }

  private async loadOnce(): Promise<void> {
    const { hostId, db, pullNumber } = this.target;
    const client = this.deps.clientFor(hostId);
    try {
      const [pull, comments] = await Promise.all([client.getPull(db, pullNumber), client.listPullComments(db, pullNumber)]);
      const webUrl = this.deps.webUrl(this.target);
      this.content = renderPullContent(
        {
          db,
          pull,
          comments: this.threads ? this.threads.split(comments) : comments,
          now: new Date(),
          images: this.images,
          ...(webUrl ? { webUrl } : {}),
        },
        this.md,
      );
      this.panel.title = `#${pull.pull_number} ${pull.title}`;
      if (this.changes) void this.loadChanges(pull);
      if (this.commits) void this.loadCommits(this.commits, pull);
      this.mergePreview?.update(pull);
      this.checks?.update(pull);
    } catch (err) {
      this.mergePreview?.clear();
      this.checks?.clear();
      // Shown in the view with a retry, never as a toast: the view may refresh in the background.
      this.deps.log.warn(`pull view ${db.owner}/${db.name}#${pullNumber}: ${String(err)}`);
      const message = err instanceof Error ? err.message : String(err);
      this.content =
        `<p class="error">Could not load pull request #${pullNumber} of ${escapeHtml(db.owner)}/${escapeHtml(db.name)}: ` +
        `${escapeHtml(message)}</p><div class="actions"><button type="button" data-action="refresh">${l10n.tHtml('Retry')}</button></div>`;
    }
    this.lastContent = this.content;
    this.post({ type: 'update', html: this.withChanges() });
  }

  /** The pull's HTML with the Changes section's element (filled once its answer comes). */
  private withChanges(): string {
    // "Before merging" (its own element, replaced alone when the preview answers) after Changes.
    const preview = this.mergePreview?.html();
    const checks = this.checks?.html();
    const merge =
      (preview ? `<div id="${MERGE_PREVIEW_ID}">${preview}</div>` : '') + (checks ? `<div id="${CHECKS_ID}">${checks}</div>` : '');
    const threads = this.threads ? `<section id="${PULL_THREADS_ID}" class="threads">${this.threads.html()}</section>` : '';
    const moved = this.commits ? `<div id="${PULL_HEAD_MOVED_ID}">${this.movedHtml}</div>` : '';
    const commits = this.commits
      ? `<section id="${PULL_COMMITS_ID}" class="commits">${this.commitsHtml || `<h2>${l10n.tHtml('Commits')}</h2><p class="muted">${l10n.tHtml('Reading the commits…')}</p>`}</section>`
      : '';
    if (!this.changes) return moved + this.content + threads + commits + merge;
    const inner = this.changesHtml || `<h2>${l10n.tHtml('Changes')}</h2><p class="muted">${l10n.tHtml('Reading the changes…')}</p>`;
    return `${moved}${this.content}${threads}${commits}<section id="${PULL_CHANGES_ID}" class="changes">${inner}</section>${merge}`;
  }

  private async loadChanges(pull: Parameters<PullChangesSection['render']>[0]): Promise<void> {
    if (!this.changes) return;
    this.changesHtml = await this.changes.render(pull);
    this.post({ type: 'section', id: PULL_CHANGES_ID, html: this.changesHtml });
  }

  private async loadCommits(section: PullCommitsSection, pull: Parameters<PullCommitsSection['render']>[0]): Promise<void> {
    this.commitsHtml = await section.render(pull);
    this.movedHtml = '';
    this.post({ type: 'section', id: PULL_COMMITS_ID, html: this.commitsHtml });
    this.post({ type: 'section', id: PULL_HEAD_MOVED_ID, html: '' });
    const at = section.pinnedAt;
    const threads = this.threads;
    if (at && threads) await threads.check(at, () => this.post({ type: 'section', id: PULL_THREADS_ID, html: threads.html() }));
  }

  /** Checks the pull's head when the view gains focus or becomes visible, and every `pollMs` while visible. */
  private watchHead(section: PullCommitsSection, pollMs: number): PullCommitsSection {
    this._register(this.panel.onDidChangeViewState((e) => e.webviewPanel.visible && void this.checkMoved()));
    if (pollMs > 0) {
      const timer = setInterval(() => this.panel.visible && void this.checkMoved(), pollMs);
      this._register({ dispose: () => clearInterval(timer) });
    }
    return section;
  }

  /** Says so in the view when the pull's branch moved on from the head it shows. */
  async checkMoved(): Promise<void> {
    const notice = await this.commits?.checkMoved();
    if (notice === undefined || this.disposed) return;
    this.movedHtml = notice;
    this.post({ type: 'section', id: PULL_HEAD_MOVED_ID, html: notice });
  }

  /** The Commits and Row comments sections' own actions (issue #25): no busy state, no reload. */
  private async handleSection(msg: SectionMessage): Promise<void> {
    if (msg.type === 'threads.reply') await this.threads?.reply(msg.rootId);
    else if (msg.type === 'threads.apply') await this.threads?.apply(msg.commentId);
    else if (msg.type === 'commits.open') await this.commits?.open(msg.commit);
    else if (msg.type === 'review.since') await this.commits?.showSinceReview();
    else await this.markReviewed();
  }

  /** Remembers the head the view shows as reviewed (Mark as Reviewed, or every table Viewed). */
  private async markReviewed(): Promise<void> {
    if (!this.commits) return;
    this.commitsHtml = await this.commits.markReviewed();
    this.post({ type: 'section', id: PULL_COMMITS_ID, html: this.commitsHtml });
  }

  /** Runs one message from the view; exposed for integration tests that play the user's clicks. */
  async handle(msg: PullWebviewMessage): Promise<void> {
    if (msg.type === 'ready') {
      this.post({ type: 'update', html: this.withChanges() });
      return;
    }
    if (msg.type === 'focused') return this.checkMoved();
    // The Changes section's own actions: no busy state, no reload of the pull.
    if (msg.type === 'changes.open') {
      await this.changes?.open(msg.table || undefined);
      return;
    }
    if (isSectionMessage(msg)) return this.handleSection(msg);
    if (msg.type === 'changes.viewed') {
      if (!this.changes) return;
      this.changesHtml = await this.changes.setViewed(msg.table, msg.viewed);
      this.post({ type: 'section', id: PULL_CHANGES_ID, html: this.changesHtml });
      if (msg.viewed && this.changes.allViewed()) await this.markReviewed();
      return;
    }
    const { actions } = this.deps;
    this.post({ type: 'busy', busy: true });
    try {
      switch (msg.type) {
        case 'action':
          switch (msg.action) {
            case 'merge':
              await actions.merge(this.target);
              break;
            case 'close':
              await actions.setState(this.target, 'closed');
              break;
            case 'reopen':
              await actions.setState(this.target, 'open');
              break;
            case 'openOnWeb':
              await actions.openOnWeb(this.target);
              break;
            case 'settleConflicts':
              await actions.settleConflicts?.(this.target);
              break;
            case 'refresh':
              break;
            case 'loadImages':
              // The CSP is part of the document: it is replaced with one that allows https images.
              this.images = 'loaded';
              this.host.render();
              break;
          }
          break;
        case 'comment':
          if (await actions.comment(this.target, msg.body)) this.post({ type: 'commented' });
          break;
        case 'edit':
          if (await actions.edit(this.target, msg.title, msg.description)) this.post({ type: 'edited' });
          break;
      }
      // Every action ends with the view showing the server's state.
      await this.reload();
    } finally {
      this.post({ type: 'busy', busy: false });
    }
  }
}
