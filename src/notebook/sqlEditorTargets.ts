// Which database and ref a plain .sql editor runs at: remembered per document in workspaceState,
// and the context key that scopes Ctrl+Enter to .sql files set up for Versioned DB.
import * as vscode from 'vscode';
import type { QueryTarget } from '../shared/queryResultOutput';
import { ContextKeys } from '../shared/ids';
import { CellMeta, targetOf } from './sqlNotebookSerializer';

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
