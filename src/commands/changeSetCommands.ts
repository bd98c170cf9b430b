// Registers the change set commands (issue #23; their logic: changeSetActions.ts and
// proposeChanges.ts): Show Unsent Changes…, Discard Changes… and Propose Changes…, from the table
// browser's edit bar (with the change set's scope) and the palette.
import * as vscode from 'vscode';
import { markStepDone } from '../platform/walkthrough';
import { Commands } from '../shared/ids';
import { registerGuarded, type CommandHandler } from '../platform/commandRegistration';
import type { ChangeSetStore } from '../views/changeSetStore';
import { discardChanges, pickChangeSet, showChangeSet, type ChangeSetCommandDeps } from './changeSetActions';
import type { CommandDeps } from './commandDeps';
import { proposeChanges } from './proposeChanges';
import type { ProposeEnv } from './proposeTypes';
import { changeSetAccess } from './changeSetAccess';

export type ChangeSetRegistrationDeps = Pick<CommandDeps, 'ui' | 'clients' | 'sql' | 'tree' | 'log'>;

export function registerChangeSetCommands(host: ChangeSetRegistrationDeps, changeSets: ChangeSetStore): vscode.Disposable[] {
  const deps: ChangeSetCommandDeps = {
    ui: host.ui,
    changeSets,
    showChanges: (request) => vscode.commands.executeCommand(Commands.showChanges, request),
  };
  const propose: ProposeEnv = {
    ui: host.ui,
    log: host.log,
    clientFor: (hostId) => host.clients.clientFor(hostId),
    sql: host.sql,
    changeSets: changeSetAccess(changeSets),
    refreshDatabase: (hostId, db, what) => host.tree.refreshDatabase(hostId, db, what),
    showPull: (t) => Promise.resolve(vscode.commands.executeCommand(Commands.showPullRequest, t)),
    showChanges: (request) => Promise.resolve(vscode.commands.executeCommand(Commands.showChanges, request)),
  };
  const handlers: CommandHandler[] = [
    [Commands.showChangeSet, (arg) => showChangeSet(deps, arg)],
    [Commands.discardChanges, (arg) => discardChanges(deps, arg)],
    [
      Commands.proposeChanges,
      async (arg) => {
        const scope = await pickChangeSet(deps, arg, 'Propose Changes');
        const pull = scope ? await proposeChanges(propose, scope) : undefined;
        if (pull) markStepDone('proposedChange');
        return pull;
      },
    ],
  ];
  return registerGuarded(handlers, host.ui);
}
