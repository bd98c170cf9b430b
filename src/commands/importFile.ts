// "Import File into Table…": the flow in order (file, local preview and checks, the questions of
// importQuestions.ts, the upload, the import operation and its outcome). Written against the Ui
// interface (no vscode import) so the whole flow is unit-tested with a scripted UI;
// importCommands.ts registers it, importFlowTypes.ts holds what it needs and how it ends.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { UploadErrorReason } from '../api/index';
import { checkImport, fileSizeProblem, type ImportProblem } from '../core/import/checkImport';
import {
  createImportBody,
  defaultCommitMessage,
  formatBytes,
  makesNewTable,
  previewMarkdown,
  uploadProgressMessage,
  type ImportPlan,
} from '../core/import/importPlan';
import { readPreview } from '../core/import/readPreview';
import type { DatabaseRef, OperationResult } from '../shared/wire';
import type { CommandDeps } from './commandDeps';
import { requireAccount, resolveDatabase } from './commandTargets';
import type { DatabaseTarget } from '../core/targets';
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
} from './importQuestions';

export type { ImportApi, ImportDeps, ImportFlowResult, ImportInvocation } from './importFlowTypes';

const PREVIEW_ROWS = 100;

export async function importFile(deps: ImportDeps, invocation: ImportInvocation = {}): Promise<ImportFlowResult> {
  const cancelled: ImportFlowResult = { kind: 'cancelled' };
  const { ui } = deps;

  // 1. The file and its type.
  const filePath = invocation.filePath ?? (await deps.pickFile());
  if (!filePath) return cancelled;
  const fileName = basename(filePath);
  const fileType = await pickFileType(deps, fileName);
  if (!fileType) return cancelled;

  // 2. Local preview; a file that cannot be read stops here, before any question about the server.
  const fileStat = await stat(filePath);
  const sizeProblem = fileSizeProblem(fileStat.size);
  if (sizeProblem) return blocked(deps, fileName, [sizeProblem]);
  const preview = await ui.withProgress(`Reading ${fileName}`, (_p, signal) =>
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

  // 3. Where: database (from the node or picked), account, branch, table.
  const target = await resolveDatabase(deps as unknown as CommandDeps, invocation.node, 'Import File into Table');
  if (!target) return cancelled;
  const account = await requireAccount(deps as unknown as CommandDeps, target.hostId, 'Importing a file');
  if (!account) return cancelled;
  const client = deps.clients.clientFor(target.hostId);
  const branch = await pickBranch(deps, client, target, invocation.node);
  if (!branch) return cancelled;
  const table = await pickTable(deps, client, target.db, branch, fileName, preview);
  if (!table) return cancelled;
  const shape = table.exists ? await describeTable(client, target.db, branch, table.name) : { columns: [], primaryKeys: [], types: {} };

  // 4. What: operation, keys, column map.
  const operation = await pickOperation(deps, table.name, table.exists, shape.primaryKeys);
  if (!operation) return cancelled;
  const newTable = makesNewTable(operation, table.exists);
  let primaryKeys: string[] = [];
  if (newTable) {
    const keys = await pickPrimaryKeys(deps, preview);
    if (!keys) return cancelled;
    primaryKeys = keys;
  }
  let columnMap: Record<string, string>;
  if (newTable) {
    const map = await nameNewColumns(deps, preview, table.name);
    if (!map) return cancelled;
    columnMap = map;
  } else {
    const map = await editColumnMap(deps, preview, table.name, shape.columns);
    if (!map) return cancelled;
    columnMap = map;
  }

  // 5. Checks before any byte leaves the machine.
  const problems = checkImport({
    fileSize: fileStat.size,
    sourceColumns: preview.columns,
    rows: preview.rows,
    operation,
    target: { table: table.name, exists: table.exists, columns: shape.columns, primaryKeys: shape.primaryKeys },
    primaryKeys,
    columnMap,
  });
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) return blocked(deps, fileName, errors);
  for (const w of problems.filter((p) => p.severity === 'warning')) {
    if (!(await ui.confirm(w.message, 'Import Anyway'))) return cancelled;
  }

  // 6. Commit message and landing.
  const commitMessage = await ui.input({
    title: 'Commit message',
    prompt: 'The message of the commit the import makes',
    value: defaultCommitMessage(fileName, table.name, operation),
    validate: (v) => (v.trim() === '' ? 'Enter a commit message.' : undefined),
  });
  if (commitMessage === undefined) return cancelled;
  const landing = await pickLanding(deps, branch, table.name);
  if (!landing) return cancelled;

  const plan: ImportPlan = {
    fileName,
    fileType,
    branch,
    table: table.name,
    tableExists: table.exists,
    operation,
    primaryKeys,
    columnMap,
    commitMessage,
    landing,
  };
  return uploadAndImport(deps, client, target, filePath, fileStat, plan);
}

async function uploadAndImport(
  deps: ImportDeps,
  client: ImportApi,
  target: DatabaseTarget,
  filePath: string,
  previewed: { size: number; mtimeMs: number },
  plan: ImportPlan,
): Promise<ImportFlowResult> {
  const { ui } = deps;
  // The file must be the one that was previewed and checked.
  const now = await stat(filePath);
  if (now.size !== previewed.size || now.mtimeMs !== previewed.mtimeMs) {
    void ui.info(`${plan.fileName} changed after it was previewed. Run the import again so the checks see the new contents.`);
    return { kind: 'blocked', problems: [] };
  }

  let upload: Awaited<ReturnType<ImportApi['uploadImport']>>;
  try {
    upload = await ui.withProgress(`Uploading ${plan.fileName} (${formatBytes(now.size)})`, (progress, signal) =>
      client.uploadImport({
        db: target.db,
        file: filePath,
        fileType: plan.fileType,
        signal,
        onProgress: (p) => progress.report(uploadProgressMessage(p)),
      }),
    );
  } catch (err) {
    if (isAbort(err)) {
      void ui.info(`Upload of ${plan.fileName} cancelled; nothing was imported.`);
      return { kind: 'cancelled' };
    }
    if (uploadErrorReason(err) === 'expired') {
      // Part URLs live 10 minutes; a slow link or a long pause outlives them. Nothing was imported.
      const again = 'Start Again';
      const message = `The upload of ${plan.fileName} expired before it finished (upload links are valid for a limited time); nothing was imported.`;
      if ((await ui.info(`${message} Start the upload again?`, again)) === again) {
        return uploadAndImport(deps, client, target, filePath, previewed, plan);
      }
      return { kind: 'uploadExpired', message };
    }
    throw err;
  }
  if (upload.file_size !== previewed.size) {
    void ui.info(`${plan.fileName} changed while it was uploading. Run the import again.`);
    return { kind: 'blocked', problems: [] };
  }

  const body = createImportBody(plan, upload);
  deps.log.info(`import ${plan.fileName} → ${target.db.owner}/${target.db.name} ${plan.branch}.${plan.table} (${plan.operation})`);
  const what = `the import of ${plan.fileName} into ${plan.table}`;
  const outcome = await deps.operations.run({
    title: `Importing ${plan.fileName} into ${plan.table}`,
    what,
    start: async (signal) => {
      const ref = await client.createImport(target.db, body, { signal });
      // The operation shows in the tree's Operations node while it runs.
      deps.tree.refreshDatabase(target.hostId, target.db, ['operations']);
      return ref;
    },
    client,
    log: deps.log,
  });
  deps.tree.refreshDatabase(target.hostId, target.db, ['operations', 'branches', 'pulls']);

  if (outcome.kind === 'stoppedWaiting') return { kind: 'stoppedWaiting', operationId: outcome.ref?.id };
  if (outcome.kind === 'failed') {
    await deps.operations.showFailure(what, outcome.error, {
      operationId: outcome.ref.id,
      ...(outcome.requestId ? { requestId: outcome.requestId } : {}),
    });
    return { kind: 'failed', operationId: outcome.ref.id, message: outcome.error.detail ?? outcome.error.title };
  }

  const pullNumber = pullNumberOf(outcome.operation.result);
  if (plan.landing.kind === 'pull' && pullNumber !== undefined) {
    const action = 'Open Pull Request';
    void ui
      .info(
        `Imported ${plan.fileName} into ${plan.table} on branch ${plan.landing.branchName}; pull request #${pullNumber} is open.`,
        action,
      )
      .then(async (choice) => {
        if (choice === action) await deps.openPull({ ...target, pullNumber });
      });
    return { kind: 'imported', operationId: outcome.ref.id, plan, pullNumber };
  }
  const commit = await headCommit(client, target.db, plan.landing.kind === 'pull' ? plan.landing.branchName : plan.branch);
  const action = 'Copy Commit Hash';
  void ui
    .info(
      `Imported ${plan.fileName} into ${plan.table} on branch ${plan.branch}${commit ? `: commit ${commit.slice(0, 8)}` : ''}.`,
      ...(commit ? [action] : []),
    )
    .then(async (choice) => {
      if (choice === action && commit) await ui.copy(commit);
    });
  return { kind: 'imported', operationId: outcome.ref.id, plan, ...(commit ? { commit } : {}) };
}

function pullNumberOf(result: unknown): number | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const raw: unknown = (result as OperationResult).pull_id;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

async function headCommit(client: ImportApi, db: DatabaseRef, branch: string): Promise<string | undefined> {
  let pageToken: string | undefined;
  for (let i = 0; i < 10; i++) {
    const page = await client.listBranches(db, pageToken ? { pageToken } : {});
    const b = page.items.find((x) => x.name === branch);
    if (b) return b.head_commit_sha;
    if (!page.nextPageToken) return undefined;
    pageToken = page.nextPageToken;
  }
  return undefined;
}

async function blocked(deps: ImportDeps, fileName: string, problems: ImportProblem[]): Promise<ImportFlowResult> {
  const text =
    problems.length === 1
      ? `Cannot import ${fileName}: ${problems[0]!.message}`
      : `Cannot import ${fileName}:\n${problems.map((p) => `• ${p.message}`).join('\n')}`;
  void deps.ui.info(text);
  return { kind: 'blocked', problems };
}

/**
 * The reason of an api-layer UploadError. Checked by name, not instanceof: this module is its own
 * bundle (dist/importFile.js), so the client's error class is another copy of the class.
 */
function uploadErrorReason(err: unknown): UploadErrorReason | undefined {
  if (typeof err !== 'object' || err === null || (err as { name?: unknown }).name !== 'UploadError') return undefined;
  return (err as { reason?: UploadErrorReason }).reason;
}

function isAbort(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    ((err as { name?: unknown }).name === 'AbortError' || (err as { code?: unknown }).code === 'ABORT_ERR')
  );
}
