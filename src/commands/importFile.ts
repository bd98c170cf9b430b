// "Import File into Table…": the flow in order (file, local preview and checks, the questions of
// importQuestions.ts; then uploadAndImport.ts: the upload, the import operation and its outcome).
// Written against the Ui interface (no vscode import) so the whole flow is unit-tested with a
// scripted UI; importCommands.ts registers it, importFlowTypes.ts holds what it needs and how it ends.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { checkImport, fileSizeProblem, type ImportOperationKind, type ImportProblem } from '../core/import/checkImport';
import { defaultCommitMessage, makesNewTable, previewMarkdown, type ImportLanding, type ImportPlan } from '../core/import/importPlan';
import { readPreview, type ImportPreview } from '../core/import/readPreview';
import type { ImportFileKind } from '../core/import/tableReader';
import type { DatabaseTarget } from '../core/targets';
import type { CommandDeps } from './commandDeps';
import { requireAccount, resolveDatabase } from './commandTargets';
import type { ImportApi, ImportDeps, ImportFlowResult, ImportInvocation } from './importFlowTypes';
import {
  pickFileType,
  pickBranch,
  pickTable,
  describeTable,
  pickOperation,
  pickPrimaryKeys,
  nameNewColumns,
  editColumnMap,
  pickLanding,
  type TableChoice,
} from './importQuestions';
import { uploadAndImport } from './uploadAndImport';
import * as l10n from '../shared/l10n';

export type { ImportApi, ImportDeps, ImportFlowResult, ImportInvocation } from './importFlowTypes';

const PREVIEW_ROWS = 100;

export async function importFile(deps: ImportDeps, invocation: ImportInvocation = {}): Promise<ImportFlowResult> {
  const cancelled: ImportFlowResult = { kind: 'cancelled' };
  // 1–2. The file, its type and its local preview.
  const file = await readLocalFile(deps, invocation);
  if (!('preview' in file)) return file;
  // 3. Where: database (from the node or picked), account, branch, table.
  const where = await chooseWhere(deps, invocation, file);
  if (!where) return cancelled;
  // 4. What: operation, keys, column map.
  const what = await chooseWhat(deps, where, file.preview);
  if (!what) return cancelled;
  // 5. Checks before any byte leaves the machine.
  const refused = await refusedByChecks(deps, file, where, what);
  if (refused) return refused;
  // 6. Commit message and landing.
  const ending = await chooseEnding(deps, file.fileName, where, what.operation);
  if (!ending) return cancelled;
  const plan: ImportPlan = {
    fileName: file.fileName,
    fileType: file.fileType,
    branch: where.branch,
    table: where.table.name,
    tableExists: where.table.exists,
    operation: what.operation,
    primaryKeys: what.primaryKeys,
    columnMap: what.columnMap,
    ...ending,
  };
  return uploadAndImport(deps, where.client, where.target, file.filePath, file.size, plan);
}

/** The file as previewed: what the checks and the questions read. */
interface LocalFile {
  filePath: string;
  fileName: string;
  fileType: ImportFileKind;
  /** Size and modification time when previewed: the upload sends only this same file. */
  size: { size: number; mtimeMs: number };
  preview: ImportPreview;
}

/** Where the rows go, and the table's shape there (empty for a new table). */
interface ImportWhere {
  target: DatabaseTarget;
  client: ImportApi;
  branch: string;
  table: TableChoice;
  shape: { columns: string[]; primaryKeys: string[]; types: Record<string, string> };
}

interface ImportWhat {
  operation: ImportOperationKind;
  primaryKeys: string[];
  columnMap: Record<string, string>;
}

/** Steps 1–2; a file that cannot be read stops here, before any question about the server. */
async function readLocalFile(deps: ImportDeps, invocation: ImportInvocation): Promise<LocalFile | ImportFlowResult> {
  const filePath = invocation.filePath ?? (await deps.pickFile());
  if (!filePath) return { kind: 'cancelled' };
  const fileName = basename(filePath);
  const fileType = await pickFileType(deps, fileName);
  if (!fileType) return { kind: 'cancelled' };
  const fileStat = await stat(filePath);
  const sizeProblem = fileSizeProblem(fileStat.size);
  if (sizeProblem) return blocked(deps, fileName, [sizeProblem]);
  const preview = await deps.ui.withProgress(l10n.t('Reading {0}', fileName), (_p, signal) =>
    readPreview(fileType, filePath, { maxRows: PREVIEW_ROWS, signal }),
  );
  await deps.showPreview(
    fileName,
    previewMarkdown({
      fileName,
      columns: preview.columns,
      types: preview.types,
      rows: preview.rows,
      truncated: preview.truncated,
      fileSize: fileStat.size,
    }),
  );
  return { filePath, fileName, fileType, size: { size: fileStat.size, mtimeMs: fileStat.mtimeMs }, preview };
}

async function chooseWhere(deps: ImportDeps, invocation: ImportInvocation, file: LocalFile): Promise<ImportWhere | undefined> {
  const target = await resolveDatabase(deps as unknown as CommandDeps, invocation.node, 'Import File into Table');
  if (!target) return undefined;
  const account = await requireAccount(deps as unknown as CommandDeps, target.hostId, 'Importing a file');
  if (!account) return undefined;
  const client = deps.clients.clientFor(target.hostId);
  const branch = await pickBranch(deps, client, target, invocation.node);
  if (!branch) return undefined;
  const run = deps.sql.at({ hostId: target.hostId, db: target.db, ref: branch });
  const table = await pickTable(deps, run, branch, file.fileName, file.preview);
  if (!table) return undefined;
  const shape = table.exists ? await describeTable(run, branch, table.name) : { columns: [], primaryKeys: [], types: {} };
  return { target, client, branch, table, shape };
}

async function chooseWhat(deps: ImportDeps, where: ImportWhere, preview: ImportPreview): Promise<ImportWhat | undefined> {
  const { table, shape } = where;
  const operation = await pickOperation(deps, table.name, table.exists, shape.primaryKeys);
  if (!operation) return undefined;
  if (!makesNewTable(operation, table.exists)) {
    const columnMap = await editColumnMap(deps, preview, table.name, shape.columns);
    return columnMap && { operation, primaryKeys: [], columnMap };
  }
  const primaryKeys = await pickPrimaryKeys(deps, preview);
  if (!primaryKeys) return undefined;
  const columnMap = await nameNewColumns(deps, preview, table.name);
  return columnMap && { operation, primaryKeys, columnMap };
}

/** Errors block the import; each warning asks "Import Anyway". Undefined when the import may go on. */
async function refusedByChecks(
  deps: ImportDeps,
  file: LocalFile,
  where: ImportWhere,
  what: ImportWhat,
): Promise<ImportFlowResult | undefined> {
  const { table, shape } = where;
  const problems = checkImport({
    fileSize: file.size.size,
    sourceColumns: file.preview.columns,
    rows: file.preview.rows,
    operation: what.operation,
    target: { table: table.name, exists: table.exists, columns: shape.columns, primaryKeys: shape.primaryKeys },
    primaryKeys: what.primaryKeys,
    columnMap: what.columnMap,
  });
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) return blocked(deps, file.fileName, errors);
  for (const w of problems.filter((p) => p.severity === 'warning')) {
    if (!(await deps.ui.confirm(w.message, l10n.t('Import Anyway')))) return { kind: 'cancelled' };
  }
  return undefined;
}

async function chooseEnding(
  deps: ImportDeps,
  fileName: string,
  where: ImportWhere,
  operation: ImportOperationKind,
): Promise<{ commitMessage: string; landing: ImportLanding } | undefined> {
  const commitMessage = await deps.ui.input({
    title: l10n.t('Commit message'),
    prompt: l10n.t('The message of the commit the import makes'),
    value: defaultCommitMessage(fileName, where.table.name, operation),
    validate: (v) => (v.trim() === '' ? 'Enter a commit message.' : undefined),
  });
  if (commitMessage === undefined) return undefined;
  const landing = await pickLanding(deps, where.branch, where.table.name);
  return landing && { commitMessage, landing };
}

async function blocked(deps: ImportDeps, fileName: string, problems: ImportProblem[]): Promise<ImportFlowResult> {
  const text =
    problems.length === 1
      ? l10n.t('Cannot import {0}: {1}', fileName, problems[0]!.message)
      : l10n.t('Cannot import {0}:\n{1}', fileName, problems.map((p) => `• ${p.message}`).join('\n'));
  void deps.ui.info(text);
  return { kind: 'blocked', problems };
}
