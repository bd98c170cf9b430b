// A text asked for over several lines (Ui.editText): an input box takes one line, so a value with
// line breaks opens in an editor of its own, an untitled document named for what it is (`.md` for
// markdown, so it is highlighted and previewed as such). Its title bar offers Use This Text and
// Cancel Editing (package.json `editor/title`, shown while the `versionedDb.editingText` context
// key says the active editor is this one), as VS Code's Git commit message editor does; closing
// the editor cancels. One text at a time: asking again cancels the one before. Nothing is saved to
// disk: the editor is reverted as it closes.
import * as vscode from 'vscode';
import type { EditTextOptions } from '../platform/ui';
import { Commands, ContextKeys } from '../shared/ids';
import * as l10n from '../shared/l10n';

interface Pending {
  /** The editor's document (another object after a language change reopens it). */
  doc: vscode.TextDocument;
  /** The starting text kept its own line breaks: a \r in it keeps \r\n, else \r\n becomes \n. */
  keepCr: boolean;
  settle: (text: string | undefined) => void;
}

export class TextEditPrompt implements vscode.Disposable {
  private pending: Pending | undefined;
  private count = 0;
  private readonly disposables: vscode.Disposable[];

  constructor() {
    this.disposables = [
      vscode.commands.registerCommand(Commands.useEditedText, () => this.finish(true)),
      vscode.commands.registerCommand(Commands.cancelEditedText, () => this.finish(false)),
      vscode.window.onDidChangeActiveTextEditor((e) => this.showKey(e)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.closed(doc)),
    ];
  }

  async edit(options: EditTextOptions): Promise<string | undefined> {
    if (this.pending) await this.finish(false);
    // A name of its own each time: an untitled document of a name already open would be reused
    // with its text (one restored by a window reload, say).
    const base = options.name.replace(/[\\/:*?"<>|]/g, '_');
    let uri: vscode.Uri;
    do {
      uri = vscode.Uri.from({ scheme: 'untitled', path: `${base} ${++this.count}${options.markdown ? '.md' : ''}` });
    } while (openAt(uri));
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    if (options.value) await editor.edit((b) => b.insert(new vscode.Position(0, 0), options.value));
    const done = new Promise<string | undefined>((resolve) => {
      this.pending = { doc, keepCr: options.value.includes('\r'), settle: resolve };
    });
    this.showKey(vscode.window.activeTextEditor);
    this.hint(options.title, done);
    return done;
  }

  /**
   * Says how to end the edit for as long as it lasts: a notification that closes with the edit (an
   * information message would stay behind, stale, after every edit), whose Cancel cancels it.
   */
  private hint(title: string, done: Promise<unknown>): void {
    const p = this.pending;
    const message = l10n.t('Edit, then choose ✓ Use This Text in the title bar (close to cancel). {0}', title);
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: message, cancellable: true }, (_p, token) => {
      token.onCancellationRequested(() => {
        if (this.pending === p) void this.finish(false);
      });
      return done;
    });
  }

  /** Ends the pending edit: with its text (`use`) or without; the editor is reverted and closed. */
  private async finish(use: boolean): Promise<void> {
    const p = this.pending;
    if (!p) return;
    const doc = openDocument(p.doc) ?? p.doc;
    const text = doc.getText();
    this.settle(use ? (p.keepCr ? text : text.replace(/\r\n/g, '\n')) : undefined);
    if (doc.isClosed) return;
    await vscode.window.showTextDocument(doc, { preview: false });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }

  /**
   * The pending text's document closed: the editor was closed (cancelled), unless a change of its
   * language mode closed it, which opens it again at once under the same name: then go on with it.
   */
  private closed(doc: vscode.TextDocument): void {
    const p = this.pending;
    if (!p || doc !== p.doc) return;
    setTimeout(() => {
      if (this.pending !== p) return;
      const again = openDocument(doc);
      if (!again) return this.settle(undefined);
      p.doc = again;
      this.showKey(vscode.window.activeTextEditor);
    }, 0);
  }

  private settle(text: string | undefined): void {
    const p = this.pending;
    this.pending = undefined;
    void vscode.commands.executeCommand('setContext', ContextKeys.editingText, false);
    p?.settle(text);
  }

  private showKey(editor: vscode.TextEditor | undefined): void {
    const on = this.pending !== undefined && editor !== undefined && editor.document === openDocument(this.pending.doc);
    void vscode.commands.executeCommand('setContext', ContextKeys.editingText, on);
  }

  dispose(): void {
    this.settle(undefined);
    for (const d of this.disposables) d.dispose();
  }
}

/** The open document of `doc`'s name: itself, or the one a language change reopened; undefined when closed. */
function openDocument(doc: vscode.TextDocument): vscode.TextDocument | undefined {
  return doc.isClosed ? openAt(doc.uri) : doc;
}

/** The open document named `uri`, if any. */
function openAt(uri: vscode.Uri): vscode.TextDocument | undefined {
  const name = uri.toString();
  return vscode.workspace.textDocuments.find((d) => !d.isClosed && d.uri.toString() === name);
}
