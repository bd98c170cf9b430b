// Wires SQL notebooks, the result grid's host side and the .sql result panel. extension.ts
// calls this once; everything created here is returned as disposables.
import * as vscode from 'vscode';
import { Notebooks, Settings } from '../shared/ids';
import { registerNotebookCommands } from './notebookCommands';
import type { NotebookCommandDeps } from './notebookCommandDeps';
import { EditorTargets } from './sqlEditorTargets';
import { handleGridMessage } from './notebookResultActions';
import { RefResolver } from './queryRunner';
import { QueryHistoryStore } from './queryHistoryStore';
import { SchemaService } from './schemaService';
import { SqlCellStatusBar } from './sqlCellStatusBar';
import { registerSqlLanguageFeatures } from './sqlLanguageFeatures';
import { SqlNotebookController } from './sqlNotebookController';
import { SqlNotebookSerializer } from './sqlNotebookSerializer';
import { SqlResultPanel } from './sqlResultPanel';
import { NotebookLoadAll } from './notebookLoadAll';
import type { LoadAllDeps } from './loadAllSession';
import { rendererBundleMessage } from '../platform/l10n';
import { isL10nRequest } from '../shared/l10n';
import * as l10n from '../shared/l10n';

/** What the extension passes in: the notebook commands' own dependencies without the parts built here. */
export type SqlNotebookHostDeps = Pick<NotebookCommandDeps, 'ui' | 'clients' | 'sql' | 'databases' | 'settings' | 'log'>;

/** The live parts, for integration tests. */
export interface SqlNotebookApi {
  readonly history: QueryHistoryStore;
  readonly refs: RefResolver;
  readonly panel: SqlResultPanel;
  readonly loadAll: NotebookLoadAll;
}

/** The notebook serializer, registered again when `saveOutputs` changes (outputs transient unless saved). */
function registerSerializer(settings: SqlNotebookHostDeps['settings']): vscode.Disposable {
  const serializer = new SqlNotebookSerializer(() => settings().saveOutputs);
  const register = () =>
    vscode.workspace.registerNotebookSerializer(Notebooks.type, serializer, { transientOutputs: !settings().saveOutputs });
  let registration = register();
  const configSub = vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration(Settings.notebooksSaveOutputs)) return;
    registration.dispose();
    registration = register();
  });
  return { dispose: () => (configSub.dispose(), registration.dispose()) };
}

/** The notebook renderer's messages: Load All Rows' pages first, then copy and export of a whole result. */
function registerRendererMessaging(
  deps: SqlNotebookHostDeps,
  loadAllDeps: LoadAllDeps,
): { loadAll: NotebookLoadAll; disposables: vscode.Disposable[] } {
  const messaging = vscode.notebooks.createRendererMessaging(Notebooks.renderer);
  const loadAll = new NotebookLoadAll(messaging, loadAllDeps);
  void messaging.postMessage(rendererBundleMessage());
  const messageSub = messaging.onDidReceiveMessage(async ({ editor, message }) => {
    try {
      if (isL10nRequest(message)) return void (await messaging.postMessage(rendererBundleMessage(), editor));
      if (loadAll.handle(editor, message)) return;
      const reply = await handleGridMessage(message, deps.log);
      if (reply) void messaging.postMessage(reply, editor);
    } catch (e) {
      deps.ui.error(e, { action: l10n.t('act on the result') });
    }
  });
  return { loadAll, disposables: [messageSub, loadAll] };
}

export function registerSqlNotebooks(
  context: vscode.ExtensionContext,
  deps: SqlNotebookHostDeps,
): { disposables: vscode.Disposable[]; api: SqlNotebookApi } {
  const settings = deps.settings;
  const refs = new RefResolver((hostId: string) => deps.clients.clientFor(hostId));
  const history = new QueryHistoryStore(context.globalState, () => settings().historySize);
  const schemas = new SchemaService(deps.sql, refs, deps.log);
  const editorTargets = new EditorTargets(context.workspaceState);
  const loadAllDeps: LoadAllDeps = { sql: deps.sql, labelOf: (id) => deps.clients.labelOf(id), log: deps.log };
  const panel = new SqlResultPanel(context.extensionUri, (raw: unknown) => handleGridMessage(raw, deps.log), deps.log, loadAllDeps);
  const statusBar = new SqlCellStatusBar(refs, (id) => deps.clients.labelOf(id));
  const controller = new SqlNotebookController({
    sql: deps.sql,
    labelOf: (id) => deps.clients.labelOf(id),
    refs,
    history,
    reportError: (e, ctx) => deps.ui.error(e, ctx),
    log: deps.log,
  });
  // Load All Rows: pages of a result past the row limit, served while its grid shows them.
  const messaging = registerRendererMessaging(deps, loadAllDeps);
  const commands = registerNotebookCommands({
    ...deps,
    refs,
    history,
    panel,
    editorTargets,
    onTargetsChanged: () => {
      refs.forget();
      statusBar.refresh();
    },
  });
  return {
    disposables: [
      controller,
      controller.onDidRun(() => statusBar.refresh()),
      statusBar,
      vscode.notebooks.registerNotebookCellStatusBarItemProvider(Notebooks.type, statusBar),
      registerSerializer(settings),
      ...messaging.disposables,
      panel,
      ...registerSqlLanguageFeatures(schemas, (doc) => editorTargets.get(doc.uri), deps.log),
      ...commands,
    ],
    api: { history, refs, panel, loadAll: messaging.loadAll },
  };
}
