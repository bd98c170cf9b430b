// One import of a change set's file onto the proposal's branch (never a pull request of its
// own: the proposal opens one pull request for all of it), waited for to the end.
import type { HubClient } from '../api/index';
import type { DatabaseRef, ImportFileType, ImportOperation } from '../shared/wire';

export type ImportApi = Pick<HubClient, 'uploadImport' | 'createImport' | 'waitForOperation'>;

export interface BranchImport {
  readonly bytes: Uint8Array;
  readonly fileType: ImportFileType;
  readonly operation: ImportOperation;
  readonly branch: string;
  readonly table: string;
  readonly fileName: string;
  readonly message: string;
}

/** Uploads the file, starts the import and waits until it has succeeded (a failed import throws). */
export async function importOntoBranch(client: ImportApi, db: DatabaseRef, imp: BranchImport, signal: AbortSignal): Promise<void> {
  const upload = await client.uploadImport({ db, file: imp.bytes, fileType: imp.fileType, signal });
  const ref = await client.createImport(
    db,
    {
      ...upload,
      branch_name: imp.branch,
      table_name: imp.table,
      file_name: imp.fileName,
      import_operation: imp.operation,
      // The table exists: its own keys are used, but the field must be present.
      primary_keys: [],
      commit_message: imp.message,
    },
    { signal },
  );
  await client.waitForOperation(ref, { signal });
}
