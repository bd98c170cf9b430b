import * as vscode from 'vscode';
import { Commands } from '../shared/ids';
import { IMPORT_FILE_EXTENSIONS } from '../shared/importFormats';
import { ImportPreviewDocuments } from '../views/importPreview';
import type { CommandDeps } from './commandDeps';
import type { ImportDeps, ImportInvocation } from './importFile';
import * as l10n from '../shared/l10n';

/** Registers "Import File into Table…" for the palette, the tree and the explorer context menu. */
export function registerImportCommands(deps: CommandDeps): vscode.Disposable {
  const previews = new ImportPreviewDocuments();
  const importDeps: ImportDeps = {
    ...deps,
    pickFile: async () => {
      const picked = await vscode.window.showOpenDialog({
        title: l10n.t('Import File into Table'),
        openLabel: l10n.t('Import'),
        canSelectMany: false,
        filters: { 'Data files': [...IMPORT_FILE_EXTENSIONS], 'All files': ['*'] },
      });
      return picked?.[0]?.fsPath;
    },
    showPreview: (title, markdown) => previews.show(title, markdown),
    openPull: async (t) => {
      await vscode.commands.executeCommand(Commands.showPullRequest, { hostId: t.hostId, db: t.db, pullNumber: t.pullNumber });
    },
  };
  const command = vscode.commands.registerCommand(Commands.importFile, async (arg?: unknown) => {
    try {
      // Loaded on first use: the file readers (exceljs, yaml, …) are most of the extension's
      // code, and activation should not pay for them. In the bundle this is dist/importFile.js.
      const { importFile } = (await import('./importFile.js')) as typeof import('./importFile');
      return await importFile(importDeps, invocationOf(arg));
    } catch (e) {
      deps.ui.error(e, { action: l10n.t('import the file') });
      return undefined;
    }
  });
  return vscode.Disposable.from(command, previews);
}

/** The explorer passes the file's Uri (and the selection); the tree passes its node. */
function invocationOf(arg: unknown): ImportInvocation {
  if (arg instanceof vscode.Uri) {
    if (arg.scheme !== 'file') throw new Error(`Only files on this machine can be imported (got ${arg.scheme}:).`);
    return { filePath: arg.fsPath };
  }
  if (typeof arg === 'object' && arg !== null && typeof (arg as { filePath?: unknown }).filePath === 'string') {
    // Programmatic use (tests, other commands): { filePath, node }.
    return arg as ImportInvocation;
  }
  return arg === undefined ? {} : { node: arg };
}
