import * as vscode from 'vscode';
import { Commands } from '../shared/ids';
import type { Logger } from '../core/logger';
import { describeError, type ErrorAction, type ErrorContext } from '../core/errorMessages';
import * as l10n from '../shared/l10n';

export { isCancellation, describeError, type ErrorContext } from '../core/errorMessages';

/**
 * The one place a failure becomes UI: a notification with actions that fix the cause
 * ("Sign in" on 401, "Copy request id" when the server gave one). Cancellation shows nothing.
 * Never throws and does not wait for the user: the notification's actions run when picked.
 */
export function reportError(error: unknown, context: ErrorContext = {}, log?: Logger): void {
  const presentation = describeError(error, context);
  if (!presentation) {
    log?.debug(`${context.action ?? 'request'} cancelled`);
    return;
  }
  // The user sees every failure; the log marks as errors only those nobody could have fixed.
  if (presentation.expected) log?.warn(presentation.message);
  else log?.error(presentation.message);
  const labels = new Map<string, (typeof presentation.actions)[number]>();
  for (const a of presentation.actions) labels.set(actionLabel(a), a);
  void (async () => {
    const picked = await vscode.window.showErrorMessage(presentation.message, ...labels.keys());
    const action = picked === undefined ? undefined : labels.get(picked);
    if (!action) return;
    if (action.kind === 'signIn') await vscode.commands.executeCommand(Commands.signIn, action.hostId);
    else if (action.kind === 'copyRequestId') await vscode.env.clipboard.writeText(action.requestId);
    else if (action.kind === 'copyText') await vscode.env.clipboard.writeText(action.text);
    else if (action.kind === 'writeAgain') await action.again();
    else await vscode.commands.executeCommand(Commands.showLog);
  })().catch((e: unknown) => log?.warn(`could not show an error notification: ${String(e)}`));
}

function actionLabel(a: ErrorAction): string {
  switch (a.kind) {
    case 'signIn':
      return l10n.t('Sign in');
    case 'copyRequestId':
      return l10n.t('Copy request id');
    case 'writeAgain':
      return l10n.t('Edit and Try Again');
    case 'copyText':
      return l10n.t('Copy What You Wrote');
    case 'showLog':
      return l10n.t('Show log');
  }
}
