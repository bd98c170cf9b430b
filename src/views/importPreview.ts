import * as vscode from 'vscode';

/**
 * Read-only documents for the import preview: Markdown kept in memory under a private scheme, so
 * closing one never asks to save (an untitled document would).
 */
export class ImportPreviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly scheme = 'versioned-db-import-preview';
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;
  private counter = 0;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(ImportPreviewDocuments.scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** Opens the rendered Markdown preview beside the active editor. */
  async show(fileName: string, markdown: string): Promise<void> {
    // The preview tab reads "Preview <file name>.md".
    const safe = fileName.replace(/[^\w.\- ()]+/g, '_');
    const uri = vscode.Uri.from({ scheme: ImportPreviewDocuments.scheme, path: `/${++this.counter}/${safe}.md` });
    this.contents.set(uri.toString(), markdown);
    // Keep only the latest few previews in memory.
    if (this.contents.size > 5) this.contents.delete(this.contents.keys().next().value as string);
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.contents.clear();
  }
}
