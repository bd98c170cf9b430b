// "Import File into Table…": the questions, the local preview and checks, the upload, the import
// operation and its outcome. Written against the Ui interface (no vscode import) so the whole flow
// is unit-tested with a scripted UI; importCommands.ts registers it.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { HubClient, UploadErrorReason } from '../api/index';
import { candidatePrimaryKeys } from '../core/import/candidatePrimaryKeys';
import { checkImport, fileSizeProblem, type ImportProblem } from '../core/import/checkImport';
import { detectFileType } from '../core/import/detectFileType';
import {
  createImportBody,
  defaultCommitMessage,
  defaultPullBranchName,
  defaultTableName,
  formatBytes,
  makesNewTable,
  operationChoices,
  previewMarkdown,
  tableShapeFromDescribe,
  tablesFromShowTables,
  uploadProgressMessage,
  validateTableName,
  type ImportLanding,
  type ImportPlan,
} from '../core/import/importPlan';
import { matchColumns } from '../core/import/matchColumns';
import { readPreview, type ImportPreview } from '../core/import/readPreview';
import { IMPORT_FILE_KINDS, importFormatOf, type ImportFileKind } from '../shared/importFormats';
import type { PickItem } from '../platform/ui';
import type { DatabaseRef, OperationResult, QueryResult } from '../shared/wire';
import type { CommandDeps } from './commandDeps';
import { requireAccount, resolveDatabase } from './commandTargets';
import type { DatabaseTarget, PullTarget } from '../core/targets';
import { validateRefName } from './versioningCommands';
import { isTreeNode } from '../tree/treeNodes';

/** The API calls the import flow makes (HubClient satisfies it). */
export type ImportApi = Pick<HubClient, 'listBranches' | 'runSql' | 'uploadImport' | 'createImport' | 'waitForOperation'>;

export interface ImportDeps extends Omit<CommandDeps, 'clients'> {
  readonly clients: Omit<CommandDeps['clients'], 'clientFor'> & { clientFor(hostId: string): ImportApi };
  /** The open-file dialog, filtered to the six file types; undefined when dismissed. */
  pickFile(): Promise<string | undefined>;
  /** Shows the local preview (a read-only Markdown document beside the editor), named after the file. */
  showPreview(fileName: string, markdown: string): Promise<void>;
  /** Opens a pull request in the pull request view. */
  openPull(target: PullTarget): Promise<void>;
  /** Clock for default names; tests fix it. */
  now?(): Date;
}

/** How the flow ended, for tests and callers; UI has already been shown. */
export type ImportFlowResult =
  | { kind: 'cancelled' }
  | { kind: 'blocked'; problems: ImportProblem[] }
  | { kind: 'stoppedWaiting'; operationId: string | undefined }
  | { kind: 'failed'; operationId: string; message: string }
  /** Storage refused the parts (the pre-signed URLs expired): nothing was imported. */
  | { kind: 'uploadExpired'; message: string }
  | { kind: 'imported'; operationId: string; plan: ImportPlan; pullNumber?: number; commit?: string };

export interface ImportInvocation {
  /** A file from the explorer's context menu. */
  filePath?: string;
  /** A database or branch node from the tree. */
  node?: unknown;
}

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
    previewMarkdown({ fileName, columns: preview.columns, types: preview.types, rows: preview.rows, truncated: preview.truncated, fileSize: fileStat.size }),
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
    void ui.info(`Imported ${plan.fileName} into ${plan.table} on branch ${plan.landing.branchName}; pull request #${pullNumber} is open.`, action).then(async (choice) => {
      if (choice === action) await deps.openPull({ ...target, pullNumber });
    });
    return { kind: 'imported', operationId: outcome.ref.id, plan, pullNumber };
  }
  const commit = await headCommit(client, target.db, plan.landing.kind === 'pull' ? plan.landing.branchName : plan.branch);
  const action = 'Copy Commit Hash';
  void ui
    .info(`Imported ${plan.fileName} into ${plan.table} on branch ${plan.branch}${commit ? `: commit ${commit.slice(0, 8)}` : ''}.`, ...(commit ? [action] : []))
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
  return typeof err === 'object' && err !== null && ((err as { name?: unknown }).name === 'AbortError' || (err as { code?: unknown }).code === 'ABORT_ERR');
}

// -------------------------------------------------------------------------------------------
// Steps

async function pickFileType(deps: ImportDeps, fileName: string): Promise<ImportFileKind | undefined> {
  const detected = detectFileType(fileName);
  const order = detected ? [detected, ...IMPORT_FILE_KINDS.filter((k) => k !== detected)] : [...IMPORT_FILE_KINDS];
  return deps.ui.pick(
    order.map((k) => ({
      label: k,
      description: importFormatOf(k).description,
      ...(k === detected ? { detail: `Detected from the file name ${fileName}` } : {}),
      value: k,
    })),
    { title: `Import ${fileName}: file type`, placeholder: detected ? `Detected: ${detected} (pick another to change)` : 'Which format is the file in?' },
  );
}

async function pickBranch(deps: ImportDeps, client: ImportApi, target: DatabaseTarget, node: unknown): Promise<string | undefined> {
  if (isTreeNode(node) && node.kind === 'branch') return node.branch.name;
  const load = async (): Promise<PickItem<string>[]> => {
    const names: string[] = [];
    let pageToken: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await client.listBranches(target.db, pageToken ? { pageToken } : {});
      names.push(...page.items.map((b) => b.name));
      if (!page.nextPageToken) break;
      pageToken = page.nextPageToken;
    }
    const first = ['main', 'master'].find((n) => names.includes(n));
    const sorted = first ? [first, ...names.filter((n) => n !== first)] : names;
    return sorted.map((n) => ({ label: `$(git-branch) ${n}`, value: n }));
  };
  return deps.ui.pick(load(), { title: 'Import: branch', placeholder: 'Which branch does the import start from?' });
}

type TableChoice = { name: string; exists: boolean };

async function pickTable(
  deps: ImportDeps,
  client: ImportApi,
  db: DatabaseRef,
  branch: string,
  fileName: string,
  preview: ImportPreview,
): Promise<TableChoice | undefined> {
  const tables = tablesFromShowTables(await sql(client, db, branch, 'SHOW TABLES'));
  const suggested = preview.sourceTable ?? defaultTableName(fileName);
  const existingMatch = tables.find((t) => t.toLowerCase() === suggested.toLowerCase());
  for (;;) {
    const items: PickItem<TableChoice>[] = [
      ...(existingMatch ? [] : [{ label: `$(add) ${suggested}`, description: 'new table', value: { name: suggested, exists: false } }]),
      ...tables.map((t) => ({
        label: `$(table) ${t}`,
        description: t === existingMatch ? 'existing table, same name as the file' : 'existing table',
        value: { name: t, exists: true },
      })),
    ];
    const picked = await deps.ui.pickOrType(items, {
      title: `Import: table on ${branch}`,
      placeholder: 'Pick an existing table, or type the name of a new one',
    });
    if (!picked) return undefined;
    if ('value' in picked) return picked.value;
    const typed = picked.typed.trim();
    const existing = tables.find((t) => t.toLowerCase() === typed.toLowerCase());
    if (existing) return { name: existing, exists: true };
    const invalid = validateTableName(typed);
    if (!invalid) return { name: typed, exists: false };
    await deps.ui.info(invalid);
  }
}

async function describeTable(client: ImportApi, db: DatabaseRef, branch: string, table: string): Promise<ReturnType<typeof tableShapeFromDescribe>> {
  return tableShapeFromDescribe(await sql(client, db, branch, `DESCRIBE \`${table.replace(/`/g, '``')}\``));
}

async function sql(client: ImportApi, db: DatabaseRef, ref: string, q: string): Promise<QueryResult> {
  const result = await client.runSql(db, { ref, q, limit: 10000 });
  if (result.status !== 'success') throw new Error(`${q} on ${ref} answered ${result.status}: ${result.message ?? ''}`.trim());
  return result;
}

async function pickOperation(
  deps: ImportDeps,
  table: string,
  exists: boolean,
  keys: readonly string[],
): Promise<ImportPlan['operation'] | undefined> {
  const choices = operationChoices(table, exists);
  for (;;) {
    const picked = await deps.ui.pick(
      choices.map((c) => ({
        label: c.unavailable ? `$(circle-slash) ${c.operation}` : c.operation,
        description: c.unavailable ? 'not available' : exists && (c.operation === 'update' || c.operation === 'replace') && keys.length ? `keys: ${keys.join(', ')}` : '',
        detail: c.unavailable ?? c.description,
        value: c,
      })),
      { title: `Import: operation on ${exists ? 'existing' : 'new'} table ${table}`, placeholder: 'What should the import do with the table?' },
    );
    if (!picked) return undefined;
    if (!picked.unavailable) return picked.operation;
    await deps.ui.info(picked.unavailable);
  }
}

async function pickPrimaryKeys(deps: ImportDeps, preview: ImportPreview): Promise<string[] | undefined> {
  const candidates = candidatePrimaryKeys(preview.columns, preview.rows, preview.declaredPrimaryKeys);
  const preset = preview.declaredPrimaryKeys?.length ? [...preview.declaredPrimaryKeys] : candidates.slice(0, 1);
  for (;;) {
    const keys = await deps.ui.pickMany(
      preview.columns.map((c, i) => ({
        label: c,
        description: [preview.types[i], candidates.includes(c) ? 'unique in the preview' : ''].filter(Boolean).join(' · '),
        picked: preset.includes(c),
        value: c,
      })),
      { title: 'Import: primary key of the new table', placeholder: 'Pick the column(s) whose values identify each row' },
    );
    if (keys === undefined) return undefined;
    if (keys.length > 0) return preview.columns.filter((c) => keys.includes(c)); // file order
    await deps.ui.info('A new table needs a primary key: pick at least one column.');
  }
}

const DONE = '\u0000done';

/** A new table's columns: named as in the file unless the user renames some. */
async function nameNewColumns(deps: ImportDeps, preview: ImportPreview, table: string): Promise<Record<string, string> | undefined> {
  const map: Record<string, string> = Object.fromEntries(preview.columns.map((c) => [c, c]));
  for (;;) {
    const renamed = preview.columns.filter((c) => map[c] !== c).length;
    const picked = await deps.ui.pick(
      [
        {
          label: '$(check) Continue',
          description: renamed ? `${renamed} column${renamed === 1 ? '' : 's'} renamed` : 'columns named as in the file',
          value: DONE,
        },
        ...preview.columns.map((c, i) => ({
          label: c,
          description: `${map[c] !== c ? `→ ${map[c]} · ` : ''}${preview.types[i] ?? ''}`,
          value: c,
        })),
      ],
      { title: `Import: column map into new table ${table}`, placeholder: 'Pick a file column to rename it in the table, or Continue' },
    );
    if (picked === undefined) return undefined;
    if (picked === DONE) return map;
    const others = new Set(preview.columns.filter((c) => c !== picked).map((c) => map[c]!.toLowerCase()));
    const name = await deps.ui.input({
      title: `Import: name of file column "${picked}" in ${table}`,
      value: map[picked],
      validate: (v) => {
        const t = v.trim();
        if (t === '') return 'Enter a column name.';
        if (t.length > 64) return 'A column name can have at most 64 characters.';
        if (others.has(t.toLowerCase())) return `Another column is already named ${t}.`;
        return undefined;
      },
    });
    if (name !== undefined) map[picked] = name.trim();
  }
}

async function editColumnMap(
  deps: ImportDeps,
  preview: ImportPreview,
  table: string,
  tableColumns: readonly string[],
): Promise<Record<string, string> | undefined> {
  const match = matchColumns(preview.columns, tableColumns);
  const map: Record<string, string> = { ...match.columnMap };
  for (;;) {
    const mapped = preview.columns.filter((c) => Object.hasOwn(map, c)).length;
    const items: PickItem<string>[] = [
      {
        label: '$(check) Continue',
        description: `${mapped} of ${preview.columns.length} file columns go into ${table}`,
        value: DONE,
      },
      ...preview.columns.map((c) => ({
        label: c,
        description: Object.hasOwn(map, c) ? `→ ${map[c]}` : '→ (no matching column: pick one)',
        value: c,
      })),
    ];
    const picked = await deps.ui.pick(items, { title: `Import: column map into ${table}`, placeholder: 'Pick a file column to change where it goes, or Continue' });
    if (picked === undefined) return undefined;
    if (picked === DONE) return map;
    const dest = await deps.ui.pick(
      tableColumns.map((t) => ({ label: t, description: Object.values(map).includes(t) && map[picked] !== t ? 'already mapped' : '', value: t })),
      { title: `Import: where does file column "${picked}" go?`, placeholder: `A column of ${table}` },
    );
    if (dest !== undefined) map[picked] = dest;
  }
}

async function pickLanding(deps: ImportDeps, branch: string, table: string): Promise<ImportLanding | undefined> {
  const choice = await deps.ui.pick(
    [
      {
        label: '$(git-pull-request) Open a pull request',
        description: 'recommended',
        detail: `Import on a new branch and open a pull request into ${branch}, to review before merging.`,
        value: 'pull' as const,
      },
      {
        label: `$(git-commit) Commit directly to ${branch}`,
        detail: `The import's commit lands on ${branch} right away.`,
        value: 'branch' as const,
      },
    ],
    { title: 'Import: where should the change land?', placeholder: 'A pull request lets you review the import first' },
  );
  if (!choice) return undefined;
  if (choice === 'branch') return { kind: 'branch' };
  const name = await deps.ui.input({
    title: 'Import: pull request branch',
    prompt: `A new branch, created from ${branch}, that the import lands on`,
    value: defaultPullBranchName(table, deps.now?.() ?? new Date()),
    validate: (v) => validateRefName(v, 'branch') ?? (v.trim() === branch ? `Pick a new branch, not ${branch} itself.` : undefined),
  });
  if (name === undefined) return undefined;
  return { kind: 'pull', branchName: name.trim() };
}
