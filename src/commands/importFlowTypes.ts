// The import flow's contract: what it needs (ImportDeps, with the API calls it makes) and how it
// ends. Its own module so the flow (importFile.ts) and its questions (importQuestions.ts) share it
// without importing each other.
import type { HubClient } from '../api/index';
import type { ImportProblem } from '../core/import/checkImport';
import type { ImportPlan } from '../core/import/importPlan';
import type { PullTarget } from '../core/targets';
import type { CommandDeps } from './commandDeps';

/** The API calls the import flow makes (HubClient satisfies it). */
export type ImportApi = Pick<HubClient, 'listBranches' | 'uploadImport' | 'createImport' | 'waitForOperation'>;

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
