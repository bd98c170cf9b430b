import * as vscode from 'vscode';
import type { Ui } from './ui';
import * as l10n from '../shared/l10n';

/** A command id and its handler, as VS Code passes the arguments. */
export type CommandHandler = [string, (...args: unknown[]) => unknown];

/**
 * Registers commands whose unexpected failure goes to reportError (through the Ui), so no
 * command ever fails silently or with a raw stack. Shared by every feature's registration.
 */
export function registerGuarded(handlers: readonly CommandHandler[], ui: Pick<Ui, 'error'>): vscode.Disposable[] {
  return handlers.map(([id, run]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await run(...args);
      } catch (e) {
        ui.error(e, { action: l10n.t('run {0}', id.replace(/^versionedDb\./, '')) });
        return undefined;
      }
    }),
  );
}
