// What the result grid asks of the host (notebook renderer messaging or the SQL result panel):
// put text on the clipboard, save a whole result through the save dialog. Messages come from a
// webview, so their shape is checked before anything is written.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { Logger } from '../core/logger';
import { FORMAT_LABELS, type ExportFormat } from '../shared/queryResultFormat';
import { parseGridMessage, safeFileName } from '../core/sql/gridMessages';
import * as l10n from '../shared/l10n';

const FILTERS: Record<ExportFormat, Record<string, string[]>> = {
  csv: { 'CSV (comma-separated)': ['csv'] },
  json: { JSON: ['json'] },
  markdown: { Markdown: ['md', 'markdown'] },
};

/** Handles one grid message; returns what to post back (e.g. where the file was saved). */
export async function handleGridMessage(
  raw: unknown,
  log: Logger,
): Promise<{ type: 'exported'; path: string } | { type: 'copied'; rows: number } | undefined> {
  const m = parseGridMessage(raw);
  if (!m) {
    log.warn('ignored a malformed message from the result grid');
    return undefined;
  }
  if (m.type === 'copy') {
    await vscode.env.clipboard.writeText(m.text);
    vscode.window.setStatusBarMessage(
      m.rows === 1
        ? l10n.t('Copied 1 row as {0}', m.format.toUpperCase())
        : l10n.t('Copied {0} rows as {1}', m.rows, m.format.toUpperCase()),
      3000,
    );
    return { type: 'copied', rows: m.rows };
  }
  if (m.type === 'export') {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = safeFileName(m.suggestedName, m.format);
    const uri = await vscode.window.showSaveDialog({
      title: l10n.t('Export {0} rows as {1}', m.rows.toLocaleString('en-US'), FORMAT_LABELS[m.format]),
      saveLabel: l10n.t('Export'),
      filters: FILTERS[m.format],
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    });
    if (!uri) return undefined;
    try {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(m.content));
    } catch (e) {
      void vscode.window.showErrorMessage(
        l10n.t('Could not write {0}: {1}', uri.fsPath || uri.toString(), e instanceof Error ? e.message : String(e)),
      );
      return undefined;
    }
    log.info(`exported ${m.rows} rows as ${m.format} to ${uri.toString()}`);
    const open = l10n.t('Open');
    void vscode.window
      .showInformationMessage(l10n.t('Exported {0} rows to {1}.', m.rows.toLocaleString('en-US'), path.basename(uri.path)), open)
      .then((a) => {
        if (a === open) void vscode.commands.executeCommand('vscode.open', uri);
      });
    return { type: 'exported', path: uri.fsPath || uri.toString() };
  }
  return undefined;
}
