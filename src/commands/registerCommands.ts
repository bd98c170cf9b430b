import type * as vscode from 'vscode';
import { Commands } from '../shared/ids';
import type { AccountCommandDeps } from './accountCommands';
import { registerGuarded, type CommandHandler } from '../platform/commandRegistration';
import { signOut, startLocalHub, stopLocalHub, switchAccount } from './accountCommands';
import { addDatabase, copyDatabaseName, createDatabase, forkDatabase, openOnWeb, removeDatabase } from './databaseCommands';
import { filterPulls, loadMore, refreshNode } from './treeCommands';
import { copyCommitHash, createBranch, createRelease, createTag } from './versioningCommands';

/**
 * Registers F1's commands. Each handler's unexpected failure goes to reportError (through the
 * Ui), so no command ever fails silently or with a raw stack.
 */
export function registerCommands(deps: AccountCommandDeps): vscode.Disposable[] {
  const handlers: CommandHandler[] = [
    [Commands.signIn, (hostId) => deps.signIn(typeof hostId === 'string' ? hostId : hostOfNode(hostId))],
    [Commands.signOut, (node) => signOut(deps, node)],
    [Commands.switchAccount, (node) => switchAccount(deps, node)],
    [Commands.startLocalHub, () => startLocalHub(deps)],
    [Commands.stopLocalHub, () => stopLocalHub(deps)],
    [Commands.refreshTree, () => refreshNode(deps)],
    [Commands.refreshNode, (node) => refreshNode(deps, node)],
    [Commands.loadMore, (node) => loadMore(deps, node)],
    [Commands.filterPulls, (node) => filterPulls(deps, node)],
    [Commands.addDatabase, (node) => addDatabase(deps, node)],
    [Commands.removeDatabase, (node) => removeDatabase(deps, node)],
    [Commands.createDatabase, (node) => createDatabase(deps, node)],
    [Commands.forkDatabase, (node) => forkDatabase(deps, node)],
    [Commands.copyDatabaseName, (node) => copyDatabaseName(deps, node)],
    [Commands.openOnWeb, (node) => openOnWeb(deps, node)],
    [Commands.createBranch, (node) => createBranch(deps, node)],
    [Commands.createTag, (node) => createTag(deps, node)],
    [Commands.createRelease, (node) => createRelease(deps, node)],
    [Commands.copyCommitHash, (node) => copyCommitHash(deps, node)],
    // On a commit of a Commits list (issue #15): the same logic, the commit as the source.
    [Commands.createBranchAtCommit, (node) => createBranch(deps, node)],
    [Commands.createTagAtCommit, (node) => createTag(deps, node)],
  ];
  return registerGuarded(handlers, deps.ui);
}

function hostOfNode(node: unknown): string | undefined {
  if (typeof node === 'object' && node !== null && (node as { kind?: unknown }).kind === 'host') {
    return (node as { hostId: string }).hostId;
  }
  return undefined;
}
