import * as vscode from 'vscode';
import { Commands } from './shared/ids';

// Composition root only: construct, register, push to context.subscriptions.
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Versioned DB', { log: true });
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand(Commands.showLog, () => log.show()),
  );
  log.info('Versioned DB activated');
}

export function deactivate(): void {
  // Disposables registered on the context are released by VS Code.
}
