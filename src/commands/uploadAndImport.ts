// The end of "Import File into Table…" (importFile.ts asks the questions): the upload of the file
// that was previewed, the import operation, and how it ended, told to the person.
import { stat } from 'node:fs/promises';
import type { UploadErrorReason } from '../api/index';
import { createImportBody, formatBytes, uploadProgressMessage, type ImportPlan } from '../core/import/importPlan';
import type { DatabaseTarget } from '../core/targets';
import type { DatabaseRef, OperationResult } from '../shared/wire';
import type { ImportApi, ImportDeps, ImportFlowResult } from './importFlowTypes';
import * as l10n from '../shared/l10n';

export async function uploadAndImport(
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
    void ui.info(l10n.t('{0} changed after it was previewed. Run the import again so the checks see the new contents.', plan.fileName));
    return { kind: 'blocked', problems: [] };
  }
  const upload = await uploadFile(deps, client, target, { path: filePath, size: now.size }, plan);
  if (upload === 'again') return uploadAndImport(deps, client, target, filePath, previewed, plan);
  if ('kind' in upload) return upload;
  if (upload.file_size !== previewed.size) {
    void ui.info(l10n.t('{0} changed while it was uploading. Run the import again.', plan.fileName));
    return { kind: 'blocked', problems: [] };
  }
  return runImport(deps, client, target, plan, upload);
}

type Uploaded = Awaited<ReturnType<ImportApi['uploadImport']>>;

/** The upload with its progress; cancelled or expired (the person may start it 'again') are outcomes. */
async function uploadFile(
  deps: ImportDeps,
  client: ImportApi,
  target: DatabaseTarget,
  file: { path: string; size: number },
  plan: ImportPlan,
): Promise<Uploaded | ImportFlowResult | 'again'> {
  const { ui } = deps;
  try {
    return await ui.withProgress(l10n.t('Uploading {0} ({1})', plan.fileName, formatBytes(file.size)), (progress, signal) =>
      client.uploadImport({
        db: target.db,
        file: file.path,
        fileType: plan.fileType,
        signal,
        onProgress: (p) => progress.report(uploadProgressMessage(p)),
      }),
    );
  } catch (err) {
    if (isAbort(err)) {
      void ui.info(l10n.t('Upload of {0} cancelled; nothing was imported.', plan.fileName));
      return { kind: 'cancelled' };
    }
    if (uploadErrorReason(err) !== 'expired') throw err;
    // Part URLs live 10 minutes; a slow link or a long pause outlives them. Nothing was imported.
    const again = l10n.t('Start Again');
    const message = l10n.t(
      'The upload of {0} expired before it finished (upload links are valid for a limited time); nothing was imported.',
      plan.fileName,
    );
    if ((await ui.info(l10n.t('{0} Start the upload again?', message), again)) === again) return 'again';
    return { kind: 'uploadExpired', message };
  }
}

/** The import operation on the uploaded parts, and how it ended. */
async function runImport(
  deps: ImportDeps,
  client: ImportApi,
  target: DatabaseTarget,
  plan: ImportPlan,
  upload: Uploaded,
): Promise<ImportFlowResult> {
  const body = createImportBody(plan, upload);
  deps.log.info(`import ${plan.fileName} → ${target.db.owner}/${target.db.name} ${plan.branch}.${plan.table} (${plan.operation})`);
  const what = `the import of ${plan.fileName} into ${plan.table}`;
  const outcome = await deps.operations.run({
    title: l10n.t('Importing {0} into {1}', plan.fileName, plan.table),
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
  return announceImported(deps, client, target, plan, { operationId: outcome.ref.id, result: outcome.operation.result });
}

/** Says where the rows landed: the pull request to open, or the commit to copy. */
async function announceImported(
  deps: ImportDeps,
  client: ImportApi,
  target: DatabaseTarget,
  plan: ImportPlan,
  done: { operationId: string; result: unknown },
): Promise<ImportFlowResult> {
  const { ui } = deps;
  const pullNumber = pullNumberOf(done.result);
  if (plan.landing.kind === 'pull' && pullNumber !== undefined) {
    const action = l10n.t('Open Pull Request');
    void ui
      .info(
        l10n.t(
          'Imported {0} into {1} on branch {2}; pull request #{3} is open.',
          plan.fileName,
          plan.table,
          plan.landing.branchName,
          pullNumber,
        ),
        action,
      )
      .then(async (choice) => {
        if (choice === action) await deps.openPull({ ...target, pullNumber });
      });
    return { kind: 'imported', operationId: done.operationId, plan, pullNumber };
  }
  const commit = await headCommit(client, target.db, plan.landing.kind === 'pull' ? plan.landing.branchName : plan.branch);
  const action = l10n.t('Copy Commit Hash');
  void ui
    .info(
      commit
        ? l10n.t('Imported {0} into {1} on branch {2}: commit {3}.', plan.fileName, plan.table, plan.branch, commit.slice(0, 8))
        : l10n.t('Imported {0} into {1} on branch {2}.', plan.fileName, plan.table, plan.branch),
      ...(commit ? [action] : []),
    )
    .then(async (choice) => {
      if (choice === action && commit) await ui.copy(commit);
    });
  return { kind: 'imported', operationId: done.operationId, plan, ...(commit ? { commit } : {}) };
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
