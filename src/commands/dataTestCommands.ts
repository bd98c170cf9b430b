// Registers Run Tests and Open Test Query (./dataTestActions.ts) (issue #24).
import * as vscode from 'vscode';
import { registerGuarded } from '../platform/commandRegistration';
import { Commands } from '../shared/ids';
import { openTestQuery, runTests, type DataTestDeps } from './dataTestActions';

export function registerDataTestCommands(deps: Omit<DataTestDeps, 'execute'>): vscode.Disposable[] {
  const full: DataTestDeps = { ...deps, execute: (id, ...args) => Promise.resolve(vscode.commands.executeCommand(id, ...args)) };
  return registerGuarded(
    [
      [Commands.runTests, (node) => runTests(full, node)],
      [Commands.openTestQuery, (node) => openTestQuery(full, node)],
    ],
    deps.ui,
  );
}
