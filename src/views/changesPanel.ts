// The Changes view: one webview editor per ChangesRequest. It pins the pair of revisions to two
// commit hashes once (src/core/review/changesPin.ts), lists the changed tables with their counts,
// and shows the selected table's row diff in the shared paged grid (a DiffPageSource answered by a
// PageServer). Schema diffs open VS Code's diff editor; exports stream to a file
// (./changesExports.ts). Messages from the webview are checked before anything acts on them.
import * as vscode from 'vscode';
import type { RowCommentRequest } from '../core/review/commentAnchor';
import { ChangesRowComments, type ChangesRowCommentsDeps, type CommentView } from './changesRowComments';
import type { Logger } from '../core/logger';
import type { Cell } from '../shared/wire';
import type { DbRef, HubClient } from '../api/index';
import {
  parseGridPagingMessage,
  isGridPagingMessage,
  DEFAULT_PAGE_SIZE,
  type GridPagingMessage,
  type HostPagingMessage,
  type PagedOutput,
} from '../shared/gridPaging';
import { parseGridMessage } from '../core/sql/gridMessages';
import { PageServer } from '../core/paging/pageServer';
import { WebviewHost } from '../platform/webviewHost';
import type { GridToHostMessage } from '../shared/queryResultOutput';
import {
  DIFF_KINDS,
  parseChangesViewMessage,
  type ChangedTableItem,
  type ChangesHostMessage,
  type ChangesViewMessage,
  type DiffKind,
} from '../shared/changesProtocol';
import { changesTitle, type ChangesRequest } from '../core/review/requests';
import { loadDiffTableSpec, loadTableChanges, pinChanges, type PinInput, type PinnedChanges } from '../core/review/changesPin';
import type { ReviewRunner, SqlPort } from '../core/sql/sqlPort';
import { DiffPageSource, changedDiffColumns } from '../core/review/diffSource';
import type { DiffTableSpec } from '../core/review/doltQueries';
import type { TableChange, TableChangeSummary } from '../core/review/tableChanges';
import { rowHistoryRequestFromGrid } from '../core/review/rowHistoryView';
import { Commands, WebviewTypes } from '../shared/ids';
import { exportDiffRows, exportPatch, showSchemaDiff, type SchemaDocuments } from './changesExports';
import { itemOf, partialText } from './changesListing';
import { scopeKey, type ChangeSetScope } from '../core/changes/changeSetScope';
import type { ChangeSetSnapshot } from '../core/changes/changeSetSnapshot';
import { ChangeSetDiffSource } from '../core/changes/changeSetDiffSource';
import type { ChangeSetStore } from './changeSetStore';
import { changeSetList, changeSetOutput } from './changeSetChanges';
import type { TableAt } from '../core/paging/tableOpening';
import { pinInputOfRequest, type PullBranch } from './changesEditHead';
import * as l10n from '../shared/l10n';

export interface ChangesPanelsDeps {
  extensionUri: vscode.Uri;
  clientFor(hostId: string): Pick<HubClient, 'getPull' | 'listPullComments'>;
  /** Review queries through the one SQL port (the user's timeout, cancel, retries). */
  sql: Pick<SqlPort, 'review'>;
  log: Logger;
  schemaDocs: SchemaDocuments;
  /** Unsent change sets (issue #23), for `changeSet` requests. */
  changeSets?: Pick<ChangeSetStore, 'get' | 'onDidChange'>;
  /** Opens the table browser (a suggested change on an open pull edits its branch's table). */
  openTableAt?: (at: TableAt) => PromiseLike<unknown>;
  /** Comment on a row or cell of a pull's diff (issue #25); without it the grid offers no comments. */
  commentOnRow?(req: RowCommentRequest): Promise<unknown>;
  /** Reply on a thread from the pane beside the grid, at the head the view shows; resolves undefined when nothing was posted. */
  replyToThread?: ChangesRowCommentsDeps['replyToThread'];
}

type ChangesViewIn = GridPagingMessage | ChangesViewMessage | GridToHostMessage;

export class ChangesPanel implements vscode.Disposable {
  private readonly host: WebviewHost<ChangesViewIn, HostPagingMessage | ChangesHostMessage>;
  private disposed = false;
  private pinned: PinnedChanges | undefined;
  private run: ReviewRunner | undefined;
  private readDb: DbRef;
  private summary: TableChangeSummary | undefined;
  private readonly specs = new Map<string, DiffTableSpec>();
  private server: PageServer | undefined;
  private source: DiffPageSource | undefined;
  /** The paged output the grid shows now (for Show Row History on its rows). */
  private output: PagedOutput | undefined;
  private selected: string | undefined;
  /** Row history on keyed rows, and a pull's row comments with their marks (issue #25). */
  private readonly rowComments: ChangesRowComments;
  private kinds: DiffKind[] = [...DIFF_KINDS];
  private hideUnchanged = false;
  private generation = 0;
  /** What the view shows, for tests: the table list and the selected table. */
  lastList: ChangedTableItem[] = [];
  /** An unsent change set's view: its scope now (a rebase moves it), its rows, its diff. */
  private changeSetScope: ChangeSetScope | undefined;
  private snapshot: ChangeSetSnapshot | undefined;
  private changeSetSource: ChangeSetDiffSource | undefined;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** An open pull's branch, where its tables may be edited (suggested changes). */
  private pullBranch: PullBranch | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    readonly request: ChangesRequest,
    private readonly deps: ChangesPanelsDeps,
    private readonly onDispose: () => void,
  ) {
    this.readDb = request.target.db;
    this.rowComments = new ChangesRowComments(request, deps);
    const title = changesTitle(request);
    this.host = new WebviewHost(
      {
        viewType: WebviewTypes.changes,
        title,
        extensionUri: deps.extensionUri,
        script: 'changesView.js',
        parse: (raw) => parseGridPagingMessage(raw) ?? parseChangesViewMessage(raw) ?? parseGridMessage(raw),
        log: deps.log,
      },
      (m) => this.onMessage(m),
    );
    this.host.onDidDispose(() => this.dispose());
    if (request.kind === 'changeSet') this.followChangeSet(request.scope);
  }

  /** Shows the change set again (a moment after it last changed) as it is edited, rebased or discarded. */
  private followChangeSet(scope: ChangeSetScope): void {
    this.changeSetScope = scope;
    const sub = this.deps.changeSets?.onDidChange((e) => {
      const mine = this.changeSetScope;
      if (!mine || (scopeKey(e.scope) !== scopeKey(mine) && !(e.from && scopeKey(e.from) === scopeKey(mine)))) return;
      this.changeSetScope = e.scope;
      if (this.reloadTimer) clearTimeout(this.reloadTimer);
      this.reloadTimer = setTimeout(() => void this.load(), 200);
    });
    if (sub) this.subs.push(sub);
  }

  get panel(): vscode.WebviewPanel {
    return this.host.panel;
  }

  reveal(): void {
    this.panel.reveal();
  }

  get pair(): PinnedChanges['pair'] | undefined {
    return this.pinned?.pair;
  }

  get selectedTable(): string | undefined {
    return this.selected;
  }

  private post(m: HostPagingMessage | ChangesHostMessage): void {
    this.host.post(m);
  }

  private async pinInput(): Promise<{ input: PinInput; fork?: { db: DbRef } }> {
    const { input, fork, pullBranch } = await pinInputOfRequest(this.request, (hostId) => this.deps.clientFor(hostId));
    this.pullBranch = this.deps.openTableAt ? pullBranch : undefined;
    return fork ? { input, fork: { db: fork } } : { input };
  }

  /** Pins the pair and reads the table list (once per view; Reload reads it again). */
  async load(): Promise<void> {
    if (this.request.kind === 'changeSet') return this.loadChangeSet();
    const gen = ++this.generation;
    const hostId = this.request.target.hostId;
    const title = changesTitle(this.request);
    const where = `${this.request.target.db.owner}/${this.request.target.db.name}`;
    try {
      const { input, fork } = await this.pinInput();
      const target = this.deps.sql.review(hostId, this.request.target.db);
      const forkRun = fork ? this.deps.sql.review(hostId, fork.db) : undefined;
      const pinned = await pinChanges(input, target, forkRun);
      if (gen !== this.generation || this.disposed) return;
      this.pinned = pinned;
      this.readDb = pinned.readInFork && fork ? fork.db : this.request.target.db;
      this.run = pinned.readInFork && forkRun ? forkRun : target;
      this.summary = await loadTableChanges(pinned.pair, this.run);
      if (gen !== this.generation || this.disposed) return;
      this.lastList = this.summary.tables.map(itemOf);
      const partial = partialText(this.summary.completeness, 'the list of changed tables');
      const readAt = pinned.readInFork ? ` (read in the fork ${this.readDb.owner}/${this.readDb.name})` : '';
      this.post({
        type: 'changes.list',
        title,
        subtitle: `${pinned.pair.from.slice(0, 7)} → ${pinned.pair.to.slice(0, 7)} in ${where}${readAt}`,
        tables: this.lastList,
        ...(partial ? { partial } : {}),
      });
      const first =
        this.request.table && this.lastList.some((t) => t.table === this.request.table) ? this.request.table : this.lastList[0]?.table;
      if (first) await this.select(first);
    } catch (e) {
      if (gen !== this.generation || this.disposed) return;
      const message = e instanceof Error ? e.message : String(e);
      this.deps.log.warn(`changes ${title}: ${message}`);
      this.post({ type: 'changes.list', title, subtitle: where, tables: [], error: `Could not read the changes: ${message}` });
    }
  }

  /** Shows `table`'s row diff in the grid with the current kind filter and column choice. */
  async select(table: string): Promise<void> {
    if (this.request.kind === 'changeSet') return this.selectChangeSet(table);
    const change = this.summary?.tables.find((t) => t.table === table);
    const pinned = this.pinned;
    const run = this.run;
    if (!change || !pinned || !run) return;
    const gen = ++this.generation;
    if (this.selected !== table) {
      this.selected = table;
      this.hideUnchanged = false;
      this.kinds = [...DIFF_KINDS];
    }
    try {
      let spec = this.specs.get(table);
      if (!spec) {
        spec = await loadDiffTableSpec(pinned.pair, change, run);
        this.specs.set(table, spec);
      }
      let columns: string[] | undefined;
      let note: string | undefined;
      if (this.hideUnchanged) {
        columns = await changedDiffColumns(pinned.pair, spec, run);
        if (!columns) note = 'The server could not check every row in time, so every column is shown.';
      }
      await this.rowComments.read();
      if (gen !== this.generation || this.disposed) return;
      this.showSource(change, spec, columns, note);
    } catch (e) {
      if (gen !== this.generation || this.disposed) return;
      const message = e instanceof Error ? e.message : String(e);
      this.deps.log.warn(`changes of ${table}: ${message}`);
      this.post({ type: 'changes.table', table, kinds: this.kinds, hideUnchanged: this.hideUnchanged });
      this.post({ type: 'changes.error', message: `Could not read the diff of ${table}: ${message}` });
    }
  }

  private async loadChangeSet(): Promise<void> {
    ++this.generation;
    const scope = this.changeSetScope;
    const cs = scope ? this.deps.changeSets?.get(scope) : undefined;
    this.snapshot = cs && !cs.isEmpty ? cs.snapshot() : undefined;
    const list = changeSetList(changesTitle(this.request), this.request.target.db, scope, this.snapshot);
    this.lastList = list.tables;
    this.post(list);
    if (this.snapshot) await this.selectChangeSet(this.snapshot.scope.table);
  }

  private selectChangeSet(table: string): Promise<void> {
    const snap = this.snapshot;
    if (!snap || snap.scope.table !== table) return Promise.resolve();
    if (this.selected !== table) this.kinds = [...DIFF_KINDS];
    this.selected = table;
    const source = new ChangeSetDiffSource(snap, this.kinds);
    this.changeSetSource = source;
    this.source = undefined;
    this.server?.dispose();
    const sourceId = `changeset-${table}-${++this.generation}`;
    const output = changeSetOutput(snap, source, sourceId);
    this.output = output;
    this.server = new PageServer({ sourceId, source, post: (m) => this.post(m) });
    this.post({ type: 'changes.table', table, kinds: this.kinds, hideUnchanged: false, unsent: true });
    this.post({ type: 'paged.show', output });
    this.server.start();
    return Promise.resolve();
  }

  private showSource(change: TableChange, spec: DiffTableSpec, columns: string[] | undefined, note: string | undefined): void {
    const pinned = this.pinned as PinnedChanges;
    const run = this.run as ReviewRunner;
    const table = change.table;
    const rows = change.rows;
    const all = this.kinds.length === DIFF_KINDS.length;
    // The stat's counts are the diff's row counts when it has them all (a keyed table, a complete list).
    const knownTotal =
      rows && rows.modified !== null && this.summary?.completeness.complete
        ? this.kinds.reduce((n, k) => n + (k === 'added' ? rows.added : k === 'removed' ? rows.removed : (rows.modified ?? 0)), 0)
        : undefined;
    const source = new DiffPageSource({
      pair: pinned.pair,
      spec,
      run,
      ...(all ? {} : { kinds: this.kinds }),
      ...(columns ? { columns } : {}),
      ...(knownTotal !== undefined ? { knownTotal } : {}),
      onPartial: (c) => {
        const text = partialText(c, `the diff of ${table}`);
        if (text) this.post({ type: 'changes.partial', table, message: text });
      },
    });
    this.server?.dispose();
    this.source = source;
    const sourceId = `changes-${table}-${this.generation}`;
    const keyed = source.keyColumns().length > 0;
    const output: PagedOutput = {
      v: 1,
      kind: 'paged',
      sourceId,
      columns: source.gridColumns(),
      target: {
        hostId: this.request.target.hostId,
        owner: this.readDb.owner,
        name: this.readDb.name,
        ref: `${pinned.pair.from.slice(0, 7)}..${pinned.pair.to.slice(0, 7)}`,
      },
      commit: pinned.pair.to,
      title: `${table}: ${pinned.pair.from.slice(0, 7)} → ${pinned.pair.to.slice(0, 7)}`,
      pageSize: DEFAULT_PAGE_SIZE,
      ...(knownTotal !== undefined ? { totalRows: knownTotal } : {}),
      serverSort: false,
      serverFilter: false,
      frozenColumns: source.keyColumns().length,
      ...(keyed ? this.rowComments.keyedRows(table, source) : { note: 'No primary key on both sides: pages are read by position.' }),
    };
    this.output = output;
    this.server = new PageServer({
      sourceId,
      source,
      // One page at a time: a diff page costs the server a diff scan, and a user's second query
      // at once may be refused (429); the page on screen is served first anyway.
      concurrency: 1,
      post: (m) => this.post(m),
      onError: (e) => this.deps.log.warn(`diff of ${table}: ${e instanceof Error ? e.message : String(e)}`),
    });
    this.postTable(table, note);
    this.post({ type: 'paged.show', output });
    this.server.start();
  }

  private async onMessage(m: ChangesViewIn): Promise<void> {
    try {
      if (m.type === 'copy') {
        await vscode.env.clipboard.writeText(m.text);
        vscode.window.setStatusBarMessage(m.rows === 1 ? l10n.t('Copied 1 row') : l10n.t('Copied {0} rows', m.rows), 3000);
      } else if (m.type === 'export' || m.type === 'focused') return;
      else if (isGridPagingMessage(m)) await this.onPaging(m);
      else await this.handle(m);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.deps.log.error(`Changes view action failed: ${message}`);
      void vscode.window.showErrorMessage(message);
    }
  }

  private async onPaging(paging: GridPagingMessage): Promise<void> {
    if (this.server?.handle(paging)) return;
    if (paging.type === 'row.history' && this.output && paging.sourceId === this.output.sourceId) {
      // Show Row History on a diff row: the row's versions up to the newer side of the pair.
      const req = rowHistoryRequestFromGrid(this.output, paging.key, paging.column);
      if (req) await vscode.commands.executeCommand(Commands.showRowHistory, req);
      return;
    }
    if ((paging.type === 'row.comment' || paging.type === 'row.thread') && this.output && paging.sourceId === this.output.sourceId) {
      await this.rowComments.onGrid(paging, this.output, this.commentView());
      return;
    }
    if (paging.type === 'export.stream' && this.changeSetSource && this.snapshot) {
      const sc = this.snapshot.scope;
      await exportDiffRows(this.changeSetSource, paging.format, `${sc.table}-${sc.baseCommit.slice(0, 7)}..unsent`, this.deps.log);
      return;
    }
    if (paging.type === 'export.stream' && this.source && this.selected && this.pinned) {
      await exportDiffRows(
        this.source,
        paging.format,
        `${this.selected}-${this.pinned.pair.from.slice(0, 7)}..${this.pinned.pair.to.slice(0, 7)}`,
        this.deps.log,
      );
    }
  }

  /** Says which table the grid shows now, and where it may be edited (an open pull's branch). */
  private postTable(table: string, note: string | undefined): void {
    const editAt = this.pullBranch?.branch;
    this.post({
      type: 'changes.table',
      table,
      kinds: this.kinds,
      hideUnchanged: this.hideUnchanged,
      ...(note ? { note } : {}),
      ...(editAt ? { editAt } : {}),
    });
  }

  /** Runs one message of the view (exposed for integration tests that play the user's clicks). */
  async handle(m: ChangesViewMessage): Promise<void> {
    const pinned = this.pinned;
    switch (m.type) {
      case 'ready':
        return;
      case 'changes.select':
        await this.select(m.table);
        return;
      case 'changes.kinds':
        this.kinds = m.kinds;
        if (this.selected) await this.select(this.selected);
        return;
      case 'changes.hideUnchanged':
        this.hideUnchanged = m.on;
        if (this.selected) await this.select(this.selected);
        return;
      case 'changes.reload':
        this.specs.clear();
        await this.load();
        return;
      case 'changes.schemaDiff': {
        const change = this.summary?.tables.find((t) => t.table === this.selected);
        if (change && pinned && this.run) await showSchemaDiff(this.deps.schemaDocs, pinned.pair, change, this.run, this.readDb);
        return;
      }
      case 'changes.exportPatch':
        if (this.selected && pinned && this.run) await exportPatch(pinned.pair, this.selected, this.run, this.deps.log);
        return;
      case 'changes.threadReply':
        if (this.output) await this.rowComments.replyInPane(m.rootId, this.output.commit, this.commentView());
        return;
      case 'changes.editAtHead':
        // At the head the view shows, so an edit is made on the rows reviewed; the browser says if the branch moved since.
        if (this.selected && pinned && this.pullBranch)
          await this.deps.openTableAt?.({ target: this.pullBranch.target, commit: pinned.pair.to, table: this.selected });
        return;
    }
  }

  /** The pull's comments changed (a comment or reply posted anywhere in the window): marks and pane shown anew. */
  async commentsChanged(): Promise<void> {
    if (!this.disposed) await this.rowComments.commentsChanged(this.commentView());
  }

  /** What the row comments need of the view: the output shown, and a way to post to it. */
  private commentView(): CommentView {
    return { output: () => this.output, post: (m) => this.post(m) };
  }

  /** For tests: rows [start, end) of the selected table's diff as the grid gets them. */
  async readSelected(start: number, end: number): Promise<{ rows: Cell[][]; kinds?: unknown[]; old?: unknown[] } | undefined> {
    return this.source?.read(start, end, { sort: [], filters: [] }, new AbortController().signal);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    for (const d of this.subs.splice(0)) d.dispose();
    this.server?.dispose();
    this.onDispose();
    this.host.dispose();
  }
}
