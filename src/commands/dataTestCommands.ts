// Registers Run Tests, Open Test Query and Edit Tests… (./dataTestActions.ts) (issue #24).
import * as vscode from 'vscode';
import { registerGuarded } from '../platform/commandRegistration';
import { Commands } from '../shared/ids';
import { editTests, openTestQuery, runTests, type DataTestDeps } from './dataTestActions';

export function registerDataTestCommands(deps: Omit<DataTestDeps, 'execute'>): vscode.Disposable[] {
  const full: DataTestDeps = { ...deps, execute: (id, ...args) => Promise.resolve(vscode.commands.executeCommand(id, ...args)) };
  return registerGuarded(
    [
      [Commands.runTests, (node) => runTests(full, node)],
      [Commands.openTestQuery, (node) => openTestQuery(full, node)],
      [Commands.editTests, (node) => editTests(full, node)],
    ],
    deps.ui,
  );
}
