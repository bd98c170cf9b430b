// Registers the change set commands (issue #23; their logic: changeSetActions.ts): Show Unsent
// Changes… and Discard Changes…, from the table browser's edit bar (with the change set's scope)
// and the palette. Propose Changes… (`Commands.proposeChanges`) is registered by the proposing half.
import * as vscode from 'vscode';
import { Commands } from '../shared/ids';
import type { Ui } from '../platform/ui';
import { registerGuarded, type CommandHandler } from '../platform/commandRegistration';
import type { ChangeSetStore } from '../views/changeSetStore';
import { discardChanges, showChangeSet, type ChangeSetCommandDeps } from './changeSetActions';

export function registerChangeSetCommands(ui: Ui, changeSets: ChangeSetStore): vscode.Disposable[] {
  const deps: ChangeSetCommandDeps = {
    ui,
    changeSets,
    showChanges: (request) => vscode.commands.executeCommand(Commands.showChanges, request),
  };
  const handlers: CommandHandler[] = [
    [Commands.showChangeSet, (arg) => showChangeSet(deps, arg)],
    [Commands.discardChanges, (arg) => discardChanges(deps, arg)],
  ];
  return registerGuarded(handlers, ui);
}
