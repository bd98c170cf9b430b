import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { OperationError } from '../shared/wire';
import { runOperation, type OperationOutcome, type OperationStart, type OperationWaiter } from './operationsRunner';
import { copyIdsLabel, operationErrorMessage, operationIdsText, operationProgressMessage, stoppedWaitingMessage } from './operationsText';
import * as l10n from '../shared/l10n';

export type { OperationOutcome, OperationStart, OperationWaiter } from './operationsRunner';

export interface OperationProgressOptions {
  /** The notification's title, e.g. "Merging pull request #3". */
  title: string;
  /** The operation in words for follow-up messages, e.g. "the merge of pull request #3". */
  what: string;
  /** A ref the server already returned, or the call that starts the operation (run under the notification). */
  start: OperationStart;
  /** Usually the HubClient of the host the operation runs on. */
  client: OperationWaiter;
  log?: Logger;
}

/**
 * The operations watcher used by merge, fork and import: a cancellable progress notification
 * while the operation is polled through `client.waitForOperation` (1 s doubling to 10 s).
 *
 * Cancelling only stops the waiting — v2 has no cancel endpoint — and the user is told so.
 * Resolves with the outcome; the caller turns `succeeded` and `failed` into its own message
 * (see `showOperationFailure`). Rejects for HTTP/network errors, which go to reportError.
 */
export async function withOperationProgress(opts: OperationProgressOptions): Promise<OperationOutcome> {
  const startedAt = Date.now();
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: opts.title, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        progress.report({ message: l10n.t('Starting…') });
        return await runOperation({
          start: opts.start,
          waiter: opts.client,
          signal: controller.signal,
          log: opts.log,
          onUpdate: (op) => progress.report({ message: operationProgressMessage(op, Date.now() - startedAt) }),
        });
      } finally {
        sub.dispose();
      }
    },
  );
  if (outcome.kind === 'stoppedWaiting') {
    void vscode.window.showInformationMessage(stoppedWaitingMessage(opts.what, outcome.ref !== undefined));
  }
  return outcome;
}

/**
 * Shows a failed operation: its OperationError's title, detail and code, with one copy action
 * that puts "operation <id>, request <id>" on the clipboard (the request id of the poll that
 * reported the failure, when the server sent one): what a user reporting it to the service needs.
 */
export async function showOperationFailure(
  what: string,
  error: OperationError,
  ids: { operationId: string; requestId?: string },
): Promise<void> {
  const copy = copyIdsLabel(ids);
  const choice = await vscode.window.showErrorMessage(operationErrorMessage(what, error), copy);
  if (choice === copy) await vscode.env.clipboard.writeText(operationIdsText(ids));
}
