// What the Changes view saves or opens beside itself: a table's row diff streamed to a file (CSV,
// JSON, ... through src/platform/streamedExport.ts), its SQL patch streamed to a .sql file, and the
// schema diff in VS Code's diff editor on two read-only virtual documents.
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { Logger } from '../core/logger';
import type { DbRef } from '../api/index';
import type { StreamFormat } from '../shared/gridPaging';
import { exportStreamed, exportFileName } from '../platform/streamedExport';
import { ExportCancelled, createPendingFile } from '../core/export/exportRun';
import type { DiffPageSource } from '../core/review/diffSource';
import type { ReviewRunner } from '../core/sql/sqlPort';
import { LIST_LIMIT } from '../core/review/changesPin';
import { PATCH_EXPORT_PAGE, writePatchFile } from '../core/review/patchPages';
import { buildSchemaDiffQuery } from '../core/review/doltQueries';
import { parseSchemaDiff, type TableChange } from '../core/review/tableChanges';
import type { RevisionPair } from '../core/review/revisions';
import * as l10n from '../shared/l10n';

/** Streams every row of the diff (in its kind filter and columns) to a file the user picks. */
export async function exportDiffRows(
  source: Pick<DiffPageSource, 'exportSource'>,
  format: StreamFormat,
  name: string,
  log: Logger,
): Promise<string | undefined> {
  const { columns, source: rows } = source.exportSource();
  return exportStreamed(
    { columns, format, suggestedName: name, source: rows, view: { sort: [], filters: [] }, pageSize: PATCH_EXPORT_PAGE },
    log,
  );
}

/** Streams the table's DOLT_PATCH to a .sql file; a failure or Cancel leaves no file. */
export async function exportPatch(
  pair: Extract<RevisionPair, { kind: 'twoDot' }>,
  table: string,
  run: ReviewRunner,
  log: Logger,
): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = exportFileName(`${table}-${pair.from.slice(0, 7)}..${pair.to.slice(0, 7)}.patch`, 'sql');
  const uri = await vscode.window.showSaveDialog({
    title: l10n.t('Export the changes of {0} as a SQL patch', table),
    saveLabel: l10n.t('Export'),
    filters: { SQL: ['sql'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
  });
  if (!uri) return undefined;
  if (uri.scheme !== 'file') {
    void vscode.window.showErrorMessage(l10n.t('Export streams to a local file; {0} is not one.', uri.toString()));
    return undefined;
  }
  const target = uri.fsPath;
  const base = path.basename(target);
  try {
    const statements = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: l10n.t('Exporting the patch of {0}', table), cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        const file = await createPendingFile(target);
        try {
          return await writePatchFile({
            pair,
            table,
            run,
            file,
            signal: abort.signal,
            onProgress: (n) => progress.report({ message: l10n.t('{0} statements', n.toLocaleString('en-US')) }),
          });
        } catch (e) {
          throw abort.signal.aborted || e instanceof ExportCancelled ? new PatchCancelled() : e;
        } finally {
          sub.dispose();
        }
      },
    );
    log.info(`exported ${statements} patch statements of ${table} to ${target}`);
    void vscode.window.showInformationMessage(l10n.t('Exported {0} statements to {1}.', statements.toLocaleString('en-US'), base));
    return target;
  } catch (e) {
    if (e instanceof PatchCancelled) {
      void vscode.window.showInformationMessage(l10n.t('Export cancelled; {0} was not written.', base));
      return undefined;
    }
    const msg = e instanceof Error ? e.message : String(e);
    log.error(`patch export to ${target} failed: ${msg}`);
    void vscode.window.showErrorMessage(l10n.t('Export failed, nothing was written to {0}: {1}', base, msg));
    return undefined;
  }
}

class PatchCancelled extends Error {
  override readonly name = 'PatchCancelled';
}

export const SCHEMA_SCHEME = 'versioned-db-schema';

/** Read-only documents holding CREATE statements, addressed by `versioned-db-schema:` URIs. */
export class SchemaDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private seq = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SCHEMA_SCHEME, this);
  }

  /** A new document holding `text`, named `label` (e.g. `suppliers @ a1b2c3d.sql`). */
  add(label: string, text: string): vscode.Uri {
    const id = String(++this.seq);
    // Keep the recent ones only: each diff adds two.
    if (this.docs.size > 200) this.docs.delete(this.docs.keys().next().value as string);
    this.docs.set(id, text);
    return vscode.Uri.from({ scheme: SCHEMA_SCHEME, path: `/${label.replace(/[\\/]/g, '_')}`, query: id });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.query) ?? '-- This schema is no longer held; show the schema diff again.';
  }

  dispose(): void {
    this.registration.dispose();
    this.docs.clear();
  }
}

/** Opens the diff editor on the table's CREATE statement at each end of the pair. */
export async function showSchemaDiff(
  docs: SchemaDocuments,
  pair: Extract<RevisionPair, { kind: 'twoDot' }>,
  change: TableChange,
  run: ReviewRunner,
  db: DbRef,
): Promise<void> {
  const parsed = parseSchemaDiff(await run(buildSchemaDiffQuery(pair, change.table), { limit: LIST_LIMIT }));
  if (!parsed.completeness.complete) throw new Error(`The server did not return the whole schema diff of ${change.table}; try again.`);
  const c = parsed.changes.find((x) => x.toTable === change.toTable || x.fromTable === change.fromTable) ?? parsed.changes[0];
  if (!c) {
    void vscode.window.showInformationMessage(
      l10n.t('The schema of {0} did not change between {1} and {2}.', change.table, pair.from.slice(0, 7), pair.to.slice(0, 7)),
    );
    return;
  }
  const left = docs.add(`${change.fromTable ?? change.table} @ ${pair.from.slice(0, 7)}.sql`, c.fromCreate ? `${c.fromCreate}\n` : '');
  const right = docs.add(`${change.toTable ?? change.table} @ ${pair.to.slice(0, 7)}.sql`, c.toCreate ? `${c.toCreate}\n` : '');
  await vscode.commands.executeCommand(
    'vscode.diff',
    left,
    right,
    `${change.table} schema: ${pair.from.slice(0, 7)} ↔ ${pair.to.slice(0, 7)} (${db.owner}/${db.name})`,
  );
}
