// Export every row of a paged source to a file the user picks, streamed page by page under a
// cancellable progress notification that counts rows. Memory holds one page; a cancelled or
// failed export leaves no file under the chosen name (src/core/export/exportRun.ts).
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { QueryColumn } from '../shared/wire';
import { STREAM_FORMAT_EXTENSIONS, STREAM_FORMAT_LABELS, type StreamFormat } from '../shared/gridPaging';
import { createExportWriter } from '../core/export/exportWriters';
import { ExportCancelled, createPendingFile, runExport } from '../core/export/exportRun';
import type { PageSource, PageView } from '../core/paging/pageServer';
import { pagesOf } from '../core/paging/pagesOf';

export { pagesOf };
import type { Logger } from '../core/logger';
import * as l10n from '../shared/l10n';

export interface StreamedExport {
  columns: readonly QueryColumn[];
  format: StreamFormat;
  /** A file name without extension, e.g. `products@main`. */
  suggestedName: string;
  /** The table INSERT statements name (SQL format). */
  tableName?: string;
  source: PageSource;
  view: PageView;
  /** Rows per read. */
  pageSize: number;
  /** The row count when known, for "n of m" progress. */
  totalRows?: number;
}

/** File-name safe: no path separators or characters Windows refuses. */
export function exportFileName(base: string, format: StreamFormat): string {
  const safe =
    base
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_')
      .replace(/^\.+/, '')
      .slice(0, 120) || 'export';
  return `${safe}.${STREAM_FORMAT_EXTENSIONS[format]}`;
}

/**
 * Asks where to save, then streams. Resolves with the saved path, or undefined when the user
 * dismissed the dialog or cancelled (said in a message); failures are shown, never thrown.
 */
export async function exportStreamed(e: StreamedExport, log: Logger): Promise<string | undefined> {
  const uri = await askTarget(e);
  if (!uri) return undefined;
  const target = uri.fsPath;
  try {
    const rows = await streamWithProgress(e, target);
    log.info(`exported ${rows} rows as ${e.format} to ${target}`);
    const open = l10n.t('Open');
    void vscode.window
      .showInformationMessage(l10n.t('Exported {0} rows to {1}.', rows.toLocaleString('en-US'), path.basename(target)), open)
      .then((a) => {
        if (a === open) void vscode.commands.executeCommand('vscode.open', uri);
      });
    return target;
  } catch (err) {
    if (err instanceof ExportCancelled) {
      void vscode.window.showInformationMessage(l10n.t('Export cancelled; {0} was not written.', path.basename(target)));
      return undefined;
    }
    const msg = err instanceof Error ? err.message : String(err);
    log.error(`export to ${target} failed: ${msg}`);
    void vscode.window.showErrorMessage(l10n.t('Export failed, nothing was written to {0}: {1}', path.basename(target), msg));
    return undefined;
  }
}

/** The save dialog; only a local file will do (the export streams to disk). */
async function askTarget(e: StreamedExport): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = exportFileName(e.suggestedName, e.format);
  const label = STREAM_FORMAT_LABELS[e.format];
  const uri = await vscode.window.showSaveDialog({
    title:
      e.totalRows !== undefined
        ? l10n.t('Export {0} rows as {1}', e.totalRows.toLocaleString('en-US'), label)
        : l10n.t('Export as {0}', label),
    saveLabel: l10n.t('Export'),
    filters: { [label]: [STREAM_FORMAT_EXTENSIONS[e.format]] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
  });
  if (!uri) return undefined;
  if (uri.scheme !== 'file') {
    void vscode.window.showErrorMessage(
      l10n.t('Export streams to a local file; {0} is not one. Pick a folder on this machine.', uri.toString()),
    );
    return undefined;
  }
  return uri;
}

/** Streams every row to `target` under a cancellable notification counting rows; resolves the row count. */
function streamWithProgress(e: StreamedExport, target: string): Thenable<number> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: l10n.t('Exporting to {0}', path.basename(target)), cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const file = await createPendingFile(target);
        const writer = createExportWriter(e.format, e.columns, file, e.tableName ? { tableName: e.tableName } : {});
        let last = 0;
        return await runExport({
          pages: pagesOf(e.source, e.view, e.pageSize, abort.signal),
          writer,
          file,
          signal: abort.signal,
          onProgress: (n) => {
            const rows = n.toLocaleString('en-US');
            const message = e.totalRows ? l10n.t('{0} of {1} rows', rows, e.totalRows.toLocaleString('en-US')) : l10n.t('{0} rows', rows);
            const increment = e.totalRows ? ((n - last) / e.totalRows) * 100 : undefined;
            last = n;
            progress.report({ message, ...(increment !== undefined ? { increment } : {}) });
          },
        });
      } finally {
        sub.dispose();
      }
    },
  );
}
