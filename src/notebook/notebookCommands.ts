// SQL notebook and .sql editor commands: new notebook (palette or tree), change where a cell or
// notebook runs (branch, tag or pasted commit), and their registration with the ones beside them:
// running the statement under the cursor (runIntoPanel.ts) and query history
// (queryHistoryCommands.ts). The targets asked for: queryTargetPicks.ts; a .sql editor's target:
// sqlEditorTargets.ts.
import { parseDatabaseTarget } from '../core/targets';
import * as vscode from 'vscode';
import type { DatabaseRef } from '../shared/wire';
import type { QueryTarget } from '../shared/queryResultOutput';
import { Commands, Notebooks } from '../shared/ids';
import { newNotebook } from '../core/sql/notebookDocument';
import { validateRefInput } from '../core/sql/refs';
import { isTreeNode } from '../tree/treeNodes';
import { registerGuarded, type CommandHandler } from '../platform/commandRegistration';
import { CellMeta, targetOf, toVscode } from './sqlNotebookSerializer';
import type { NotebookCommandDeps } from './notebookCommandDeps';
import { pickRef, pickTarget } from './queryTargetPicks';
import { runSqlInEditor } from './runIntoPanel';
import { clearQueryHistory, showQueryHistory } from './queryHistoryCommands';
import { SqlEditorTargetContext } from './sqlEditorTargets';
import * as l10n from '../shared/l10n';

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
  const target = parseDatabaseTarget(arg);
  const ref = (arg as { ref?: unknown }).ref;
  if (!target || typeof ref !== 'string') return undefined;
  const checked = validateRefInput(ref);
  return 'error' in checked ? undefined : { hostId: target.hostId, owner: target.db.owner, name: target.db.name, ref: checked.ref };
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
    void deps.ui.info(l10n.t('Select a SQL cell of a Versioned DB notebook first.'));
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
  void deps.ui.info(l10n.t('Open a Versioned DB notebook or a .sql file first.'));
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
