import type { Operation, OperationError } from '../shared/wire';

// Words for operation progress and outcomes, kept apart from the vscode calls so they are tested
// as plain functions.

/** The progress notification's message for a poll answer. */
export function operationProgressMessage(op: Operation, elapsedMs: number): string {
  const seconds = Math.round(elapsedMs / 1000);
  const since = seconds >= 1 ? ` (${seconds} s)` : '';
  switch (op.status) {
    case 'queued':
      return `Queued on the server${since}…`;
    case 'running':
      return `Running${since}…`;
    case 'succeeded':
      return 'Done';
    case 'failed':
      return 'Failed';
    default:
      return `${op.status}${since}…`;
  }
}

/** "Merge conflict in table t (409 CONFLICT)" plus the detail when there is one. */
export function operationErrorMessage(what: string, error: OperationError): string {
  const detail = error.detail ? ` ${error.detail}` : '';
  return `${what} failed: ${error.title}.${detail} (${error.status} ${error.code})`.replace('..', '.');
}

/** Said when the user stops waiting: the truth, since v2 has no cancel endpoint. */
export function stoppedWaitingMessage(what: string, started: boolean): string {
  return started
    ? `Stopped waiting for ${what}. It was not cancelled: it keeps running on the server (see Operations in the Versioned DB view).`
    : `Stopped waiting for ${what}. The request may already have reached the server; check Operations in the Versioned DB view.`;
}

/**
 * What "Copy ids" puts on the clipboard for a failed operation: the operation id and, when the
 * server sent one, the request id of the poll that reported the failure — the two things the
 * service's support asks for. E.g. `operation owners/a/repos/b/jobs/7, request 4f1c…`.
 */
export function operationIdsText(ids: { operationId: string; requestId?: string | undefined }): string {
  return ids.requestId ? `operation ${ids.operationId}, request ${ids.requestId}` : `operation ${ids.operationId}`;
}

/** The copy action's label: it says what will be copied. */
export function copyIdsLabel(ids: { requestId?: string | undefined }): string {
  return ids.requestId ? 'Copy operation and request ids' : 'Copy operation id';
}
