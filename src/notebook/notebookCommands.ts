// SQL notebook and .sql editor commands: new notebook (palette or tree), change where a cell or
// notebook runs (branch, tag or pasted commit), run the statement under the cursor from a .sql
// editor into the result panel, and query history (search, re-run).
import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { Ui, PickItem } from '../platform/ui';
import type { DatabaseRef } from '../shared/wire';
import type { QueryTarget } from '../shared/queryResultOutput';
import { Commands, ContextKeys, Notebooks } from '../shared/ids';
import { collectAll } from '../api/pagination';
import { newNotebook } from '../core/sql/notebookDocument';
import { historyEntryOf, historyLabel, historyMatches, historySearcher, type HistoryEntry } from '../core/sql/history';
import { targetLabel, validateRefInput } from '../core/sql/refs';
import { statementAt } from '../core/sql/statements';
import type { HostClients } from '../auth/clientSource';
import { isTreeNode } from '../tree/treeNodes';
import { pickKnownDatabase } from '../tree/databaseTargets';
import { registerGuarded, type CommandHandler } from '../platform/commandRegistration';
import { runQuery, type RefResolver } from '../notebook/queryRunner';
import type { QueryHistoryStore } from '../notebook/queryHistoryStore';
import type { SqlResultPanel } from '../notebook/sqlResultPanel';
import type { SqlSettings } from '../notebook/sqlSettings';
import { CellMeta, targetOf, toVscode } from '../notebook/sqlNotebookSerializer';

/** Targets remembered for plain .sql documents (by URI), kept in workspaceState. */
export class EditorTargets implements vscode.Disposable {
  private static readonly KEY = 'versionedDb.sqlEditorTargets';
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires with the document whose target was set. */
  readonly onDidChange = this.changed.event;
  constructor(private readonly state: vscode.Memento) {}
  get(uri: vscode.Uri): QueryTarget | undefined {
    const all = this.state.get<Record<string, QueryTarget>>(EditorTargets.KEY) ?? {};
    return targetOf({ [CellMeta.target]: all[uri.toString()] });
  }
  async set(uri: vscode.Uri, target: QueryTarget): Promise<void> {
    const all = { ...(this.state.get<Record<string, QueryTarget>>(EditorTargets.KEY) ?? {}) };
    all[uri.toString()] = target;
    await this.state.update(EditorTargets.KEY, all);
    this.changed.fire(uri);
  }
  dispose(): void {
    this.changed.dispose();
  }
}

/** True when `editor` is a .sql editor whose document has a Versioned DB target. */
export function sqlEditorHasTarget(
  editor: { readonly document: { readonly languageId: string; readonly uri: vscode.Uri } } | undefined,
  targets: Pick<EditorTargets, 'get'>,
): boolean {
  return !!editor && editor.document.languageId === 'sql' && targets.get(editor.document.uri) !== undefined;
}

/**
 * Keeps the `versionedDb.sqlEditorHasTarget` context key true exactly while the active editor is
 * a .sql file with a target, so Ctrl+Enter runs SQL here only in files set up for Versioned DB
 * and stays free for other SQL extensions everywhere else. (The editor title's Run button and
 * the context menu still work in any .sql file and ask for the target the first time.)
 */
export class SqlEditorTargetContext implements vscode.Disposable {
  private readonly subs: vscode.Disposable[];
  private last: boolean | undefined;

  constructor(
    private readonly targets: EditorTargets,
    private readonly setContext: (value: boolean) => unknown = (value) =>
      vscode.commands.executeCommand('setContext', ContextKeys.sqlEditorHasTarget, value),
  ) {
    this.subs = [
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      targets.onDidChange(() => this.update()),
      // Changing a document's language (plaintext → SQL) reopens it under the new language id.
      vscode.workspace.onDidOpenTextDocument((doc) => {
        if (doc === vscode.window.activeTextEditor?.document) this.update();
      }),
    ];
    this.update();
  }

  /** The value last given to the context key. */
  get value(): boolean {
    return this.last === true;
  }

  update(): void {
    const value = sqlEditorHasTarget(vscode.window.activeTextEditor, this.targets);
    if (value === this.last) return;
    this.last = value;
    void this.setContext(value);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}

export interface NotebookCommandDeps {
  readonly ui: Ui;
  readonly clients: HostClients;
  readonly databases: { hostIds(): string[]; list(hostId: string): readonly DatabaseRef[] };
  readonly refs: RefResolver;
  readonly history: QueryHistoryStore;
  readonly panel: SqlResultPanel;
  readonly settings: () => SqlSettings;
  readonly editorTargets: EditorTargets;
  readonly onTargetsChanged: () => void;
  readonly log: Logger;
}

const short = (h: string): string => h.slice(0, 8);

/** Branches, tags, or a typed ref/commit of a database; undefined when dismissed or invalid. */
export async function pickRef(deps: NotebookCommandDeps, hostId: string, db: DatabaseRef, current?: string): Promise<string | undefined> {
  const client = deps.clients.clientFor(hostId);
  const items: Promise<PickItem<string>[]> = Promise.all([
    collectAll((pageToken) => client.listBranches(db, { pageToken })),
    collectAll((pageToken) => client.listTags(db, { pageToken })),
  ]).then(([branches, tags]) => [
    ...branches.map((b) => ({
      // Plain names as labels: typing a name matches it exactly instead of offering a duplicate.
      label: b.name,
      description: `$(git-branch) branch · ${short(b.head_commit_sha)}${b.name === current ? ' · current' : ''}`,
      value: b.name,
    })),
    ...tags.map((t) => ({
      label: t.name,
      description: `$(tag) tag · ${short(t.commit_sha)}${t.name === current ? ' · current' : ''}`,
      ...(t.message ? { detail: t.message } : {}),
      value: t.name,
    })),
  ]);
  const picked = await deps.ui.pickOrType(items, {
    title: `Run at which ref of ${db.owner}/${db.name}?`,
    placeholder: 'Pick a branch or tag, or paste a 32-character commit hash',
  });
  if (!picked) return undefined;
  if ('value' in picked) return picked.value;
  const checked = validateRefInput(picked.typed);
  if ('error' in checked) {
    void deps.ui.info(checked.error);
    return undefined;
  }
  return checked.ref;
}

/** Database (from the tree's list, current first) then ref. */
export async function pickTarget(deps: NotebookCommandDeps, current?: QueryTarget): Promise<QueryTarget | undefined> {
  // Only hosts that can answer now: a stopped local hub keeps its databases in the tree, but
  // offering them here would end in "not running" after the pick.
  const available = new Set(deps.clients.hosts().map((h) => h.id));
  const currentTarget = current ? { hostId: current.hostId, db: { owner: current.owner, name: current.name } } : undefined;
  const chosen = await pickKnownDatabase(
    { ui: deps.ui, databases: deps.databases, labelOf: (hostId) => deps.clients.labelOf(hostId) },
    {
      title: 'Run at which database?',
      emptyMessage: 'No database to run at yet. Add one in the Versioned DB view ("Add Database…"), then pick it here.',
      hostFilter: (hostId) => available.has(hostId),
      ...(currentTarget ? { current: currentTarget } : {}),
    },
  );
  if (!chosen) return undefined;
  const isCurrent = !!currentTarget && chosen.hostId === currentTarget.hostId && chosen.db.owner === currentTarget.db.owner && chosen.db.name === currentTarget.db.name;
  const ref = await pickRef(deps, chosen.hostId, chosen.db, isCurrent ? current?.ref : undefined);
  if (!ref) return undefined;
  return { hostId: chosen.hostId, owner: chosen.db.owner, name: chosen.db.name, ref };
}

/** The target a tree node names (branch, tag, release), or the database with a ref to pick. */
async function targetFromNode(deps: NotebookCommandDeps, node: unknown): Promise<QueryTarget | undefined | null> {
  const at = refTargetOf(node);
  if (at) return at;
  if (!isTreeNode(node)) return null;
  const base = (hostId: string, db: DatabaseRef) => ({ hostId, owner: db.owner, name: db.name });
  switch (node.kind) {
    case 'branch':
      return { ...base(node.hostId, node.db), ref: node.branch.name };
    case 'tag':
      return { ...base(node.hostId, node.db), ref: node.tag.name };
    case 'release':
      return { ...base(node.hostId, node.db), ref: node.release.tag };
    case 'commit':
      return { ...base(node.hostId, node.db), ref: node.commit.hash };
    case 'database': {
      const ref = await pickRef(deps, node.hostId, node.db);
      return ref ? { ...base(node.hostId, node.db), ref } : undefined;
    }
    default:
      return null;
  }
}

/** `{ hostId, db, ref }` from a view (a table's history offers a notebook at one of its commits). */
function refTargetOf(arg: unknown): QueryTarget | undefined {
  if (typeof arg !== 'object' || arg === null || 'kind' in arg) return undefined;
  const r = arg as { hostId?: unknown; db?: { owner?: unknown; name?: unknown }; ref?: unknown };
  if (typeof r.hostId !== 'string' || typeof r.ref !== 'string' || typeof r.db?.owner !== 'string' || typeof r.db.name !== 'string') return undefined;
  const checked = validateRefInput(r.ref);
  return 'error' in checked ? undefined : { hostId: r.hostId, owner: r.db.owner, name: r.db.name, ref: checked.ref };
}

export async function newSqlNotebook(deps: NotebookCommandDeps, node?: unknown, sql?: string): Promise<vscode.NotebookEditor | undefined> {
  let target = await targetFromNode(deps, node);
  if (target === undefined) return undefined; // dismissed a picker
  if (target === null) {
    target = await pickTarget(deps);
    if (!target) return undefined;
  }
  const doc = await vscode.workspace.openNotebookDocument(Notebooks.type, toVscode(newNotebook(target, sql)));
  return vscode.window.showNotebookDocument(doc);
}

function activeCell(arg: unknown): vscode.NotebookCell | undefined {
  if (arg && typeof arg === 'object' && 'notebook' in arg && 'document' in arg && 'index' in arg) return arg as vscode.NotebookCell;
  const editor = vscode.window.activeNotebookEditor;
  if (!editor || editor.notebook.notebookType !== Notebooks.type) return undefined;
  const index = editor.selection.start;
  return index < editor.notebook.cellCount ? editor.notebook.cellAt(index) : undefined;
}

export async function pickCellTarget(deps: NotebookCommandDeps, arg?: unknown): Promise<void> {
  const cell = activeCell(arg);
  if (!cell) {
    void deps.ui.info('Select a SQL cell of a Versioned DB notebook first.');
    return;
  }
  const current = targetOf(cell.metadata) ?? targetOf(cell.notebook.metadata);
  const target = await pickTarget(deps, current);
  if (!target) return;
  const edit = new vscode.WorkspaceEdit();
  const notebookHasNone = !targetOf(cell.notebook.metadata);
  // The first target picked in a notebook becomes the notebook's, so new cells inherit it.
  edit.set(cell.notebook.uri, [
    notebookHasNone
      ? vscode.NotebookEdit.updateNotebookMetadata({ ...cell.notebook.metadata, [CellMeta.target]: target })
      : vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, [CellMeta.target]: target }),
  ]);
  await vscode.workspace.applyEdit(edit);
  deps.onTargetsChanged();
}

export async function pickNotebookTarget(deps: NotebookCommandDeps): Promise<void> {
  const nbEditor = vscode.window.activeNotebookEditor;
  if (nbEditor && nbEditor.notebook.notebookType === Notebooks.type) {
    const nb = nbEditor.notebook;
    const target = await pickTarget(deps, targetOf(nb.metadata));
    if (!target) return;
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata({ ...nb.metadata, [CellMeta.target]: target })]);
    await vscode.workspace.applyEdit(edit);
    deps.onTargetsChanged();
    return;
  }
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document.languageId === 'sql') {
    const target = await pickTarget(deps, deps.editorTargets.get(editor.document.uri));
    if (target) await deps.editorTargets.set(editor.document.uri, target);
    return;
  }
  void deps.ui.info('Open a Versioned DB notebook or a .sql file first.');
}

/** Runs SQL at a target into the result panel, with a cancellable progress notification. */
export async function runIntoPanel(deps: NotebookCommandDeps, sql: string, target: QueryTarget): Promise<void> {
  deps.panel.showRunning(sql, target);
  try {
    const output = await deps.ui.withProgress(`Running SQL at ${targetLabel(target)}`, async (_p, signal) => {
      const client = deps.clients.clientFor(target.hostId);
      const res = await deps.refs.resolve(target, { signal, fresh: true });
      return runQuery(client, target, sql, deps.settings(), {
        signal,
        ...(res.commit ? { commit: res.commit } : {}),
        hostLabel: deps.clients.labelOf(target.hostId),
      });
    });
    deps.panel.show(output);
    await deps.history.add(historyEntryOf(output, sql, target));
  } catch (e) {
    deps.ui.error(e, { action: `run the query at ${targetLabel(target)}`, hostId: target.hostId, hostLabel: deps.clients.labelOf(target.hostId) });
  }
}

export async function runSqlInEditor(deps: NotebookCommandDeps): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void deps.ui.info('Open a .sql file and put the cursor in a statement (or select some SQL) first.');
    return;
  }
  const doc = editor.document;
  const sql = editor.selection.isEmpty
    ? statementAt(doc.getText(), doc.offsetAt(editor.selection.active))?.text
    : doc.getText(editor.selection).trim();
  if (!sql) {
    void deps.ui.info('Nothing to run: the cursor is not in a SQL statement.');
    return;
  }
  let target = deps.editorTargets.get(doc.uri);
  if (!target) {
    target = await pickTarget(deps);
    if (!target) return;
    await deps.editorTargets.set(doc.uri, target);
  }
  await runIntoPanel(deps, sql, target);
}

/** A row of the history picker: an entry, or the note that more entries match. */
export type HistoryPickItem = vscode.QuickPickItem & { readonly entry?: HistoryEntry };

/**
 * The history picker. Typing searches with `searchHistory` (SQL text, database, ref, commit), not
 * with the quick pick's fuzzy match on the label: a search for a table or a branch finds entries
 * whose (shortened) label does not show it. `createQuickPick` lets tests drive a real quick pick.
 */
export function pickHistoryEntry(
  entries: readonly HistoryEntry[],
  createQuickPick: () => vscode.QuickPick<HistoryPickItem> = () => vscode.window.createQuickPick<HistoryPickItem>(),
): Promise<HistoryEntry | undefined> {
  const search = historySearcher(entries);
  // Rows are built once; a keystroke only chooses which of them to show.
  const rows = new Map<HistoryEntry, HistoryPickItem>();
  const rowOf = (e: HistoryEntry): HistoryPickItem => {
    let row = rows.get(e);
    if (!row) {
      row = {
        label: historyLabel(e),
        description: `${targetLabel(e.target)} · ${e.status} · ${e.rowCount} rows`,
        detail: `${new Date(e.ranAt).toLocaleString()}${e.commit ? ` · commit ${short(e.commit)}` : ''}`,
        // The quick pick would otherwise hide rows whose label does not fuzzy-match the text.
        alwaysShow: true,
        entry: e,
      };
      rows.set(e, row);
    }
    return row;
  };
  const qp = createQuickPick();
  qp.title = 'Query history';
  qp.placeholder = 'Search past queries by SQL, table, database, branch, tag or commit';
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  qp.ignoreFocusOut = true;
  const render = (): void => {
    const { shown, more } = historyMatches(search, qp.value);
    const items: HistoryPickItem[] = shown.map(rowOf);
    if (more > 0) items.push({ label: `$(info) ${more} more ${more === 1 ? 'query matches' : 'queries match'}: type more words to narrow`, alwaysShow: true });
    qp.items = items;
  };
  render();
  return new Promise((resolve) => {
    let done = false;
    const subs = [
      qp.onDidChangeValue(render),
      qp.onDidAccept(() => {
        const entry = qp.selectedItems[0]?.entry;
        if (!entry) return;
        done = true;
        resolve(entry);
        qp.hide();
      }),
      qp.onDidHide(() => {
        if (!done) resolve(undefined);
        for (const s of subs) s.dispose();
        qp.dispose();
      }),
    ];
    qp.show();
  });
}

export async function showQueryHistory(
  deps: NotebookCommandDeps,
  createQuickPick?: () => vscode.QuickPick<HistoryPickItem>,
): Promise<void> {
  const entries = deps.history.all();
  if (entries.length === 0) {
    void deps.ui.info('No queries yet. Queries you run in notebooks and .sql files appear here.');
    return;
  }
  const entry = await pickHistoryEntry(entries, createQuickPick);
  if (!entry) return;
  const nb = vscode.window.activeNotebookEditor;
  const canInsert = !!nb && nb.notebook.notebookType === Notebooks.type;
  const action = await deps.ui.pick(
    [
      { label: '$(play) Run again', description: targetLabel(entry.target), value: 'run' as const },
      ...(canInsert ? [{ label: '$(add) Insert as a new cell in this notebook', value: 'insert' as const }] : []),
      { label: '$(notebook) Open in a new SQL notebook', value: 'notebook' as const },
      { label: '$(copy) Copy SQL', value: 'copy' as const },
    ],
    { title: historyLabel(entry, 60) },
  );
  if (action === 'run') await runIntoPanel(deps, entry.sql, entry.target);
  else if (action === 'copy') await deps.ui.copy(entry.sql);
  else if (action === 'notebook') {
    const doc = await vscode.workspace.openNotebookDocument(Notebooks.type, toVscode(newNotebook(entry.target, entry.sql)));
    await vscode.window.showNotebookDocument(doc);
  } else if (action === 'insert' && nb) {
    const cell = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, entry.sql, 'sql');
    cell.metadata = { [CellMeta.target]: entry.target };
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.notebook.uri, [vscode.NotebookEdit.insertCells(nb.notebook.cellCount, [cell])]);
    await vscode.workspace.applyEdit(edit);
  }
}

export async function clearQueryHistory(deps: NotebookCommandDeps): Promise<void> {
  const n = deps.history.all().length;
  if (n === 0) return;
  if (await deps.ui.confirm(`Forget ${n} past ${n === 1 ? 'query' : 'queries'}?`, 'Clear History')) await deps.history.clear();
}

export function registerNotebookCommands(deps: NotebookCommandDeps): vscode.Disposable[] {
  const handlers: CommandHandler[] = [
    // A second argument (the table commands' SELECT) becomes the first query.
    [Commands.newSqlNotebook, (node, sql) => newSqlNotebook(deps, node, typeof sql === 'string' ? sql : undefined)],
    [Commands.newSqlNotebookAtCommit, (node) => newSqlNotebook(deps, node)],
    [Commands.pickCellTarget, (cell) => pickCellTarget(deps, cell)],
    [Commands.pickNotebookTarget, () => pickNotebookTarget(deps)],
    [Commands.runSqlInEditor, () => runSqlInEditor(deps)],
    [Commands.showQueryHistory, () => showQueryHistory(deps)],
    [Commands.clearQueryHistory, () => clearQueryHistory(deps)],
  ];
  return [...registerGuarded(handlers, deps.ui), new SqlEditorTargetContext(deps.editorTargets), deps.editorTargets];
}
