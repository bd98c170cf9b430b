// Registers the Changes view's commands: `versionedDb.showChanges` (a ChangesRequest from the
// tree, the pull view, the history views or a test) and Compare Refs… (tree and palette).
import * as vscode from 'vscode';
import { markStepDone } from '../platform/walkthrough';
import { Commands } from '../shared/ids';
import { registerGuarded, type CommandHandler } from '../platform/commandRegistration';
import { ChangesPanels } from '../views/changesPanels';
import { SchemaDocuments } from '../views/changesExports';
import type { ChangesRequest } from '../core/review/requests';
import type { Logger } from '../core/logger';
import type { ChangeSetStore } from '../views/changeSetStore';
import type { CommandDeps } from './commandDeps';
import { resolveDatabase } from './commandTargets';
import { compareRefs, parseChangesRequest } from './changesActions';
import { commentOnRow, replyToThread } from './rowComments';
import type { PullTarget } from '../core/targets';
import type { UnsentText } from '../core/errorMessages';

export type ChangesCommandDeps = CommandDeps & {
  readonly changesLog: Logger;
  /** Unsent change sets (issue #23), shown for `changeSet` requests. */
  readonly changeSets?: ChangeSetStore;
  /** Fires when a pull changed (pullCommands.ts): its open Changes view shows its comments anew. */
  readonly onPullChanged?: vscode.Event<PullTarget>;
};

/** The Changes views and their commands; `panels` is exposed for integration tests. */
export function registerChangesCommands(deps: ChangesCommandDeps): { panels: ChangesPanels; disposable: vscode.Disposable } {
  const schemaDocs = new SchemaDocuments();
  const rowCommentEnv = {
    ui: deps.ui,
    post: async (t: PullTarget, body: string, unsent?: UnsentText) =>
      vscode.commands.executeCommand(Commands.commentOnPullRequest, t, body, unsent),
  };
  const panels = new ChangesPanels({
    extensionUri: deps.extensionUri,
    clientFor: (hostId) => deps.clients.clientFor(hostId),
    sql: deps.sql,
    log: deps.changesLog,
    schemaDocs,
    ...(deps.changeSets ? { changeSets: deps.changeSets } : {}),
    openTableAt: (at) => vscode.commands.executeCommand(Commands.openTableAt, at),
    commentOnRow: (req) => commentOnRow(rowCommentEnv, req),
    replyToThread: (pull, thread, head) => replyToThread(rowCommentEnv, pull, thread, head),
  });
  const show = async (request: ChangesRequest): Promise<void> => {
    await panels.show(request);
    if (request.kind !== 'changeSet') markStepDone('reviewedPull');
  };
  const handlers: CommandHandler[] = [
    [
      Commands.showChanges,
      async (arg) => {
        const parsed = parseChangesRequest(arg);
        if ('error' in parsed) {
          void deps.ui.info(parsed.error);
          return undefined;
        }
        await show(parsed.request);
        return undefined;
      },
    ],
    [
      Commands.compareRefs,
      (arg) =>
        compareRefs(
          {
            ui: deps.ui,
            clientFor: (hostId) => deps.clients.clientFor(hostId),
            database: (a) => resolveDatabase(deps, a, 'Compare refs of which database?'),
            showChanges: show,
          },
          arg,
        ),
    ],
  ];
  const changed = deps.onPullChanged?.((t) => void panels.pullChanged(t));
  const disposables = [panels, schemaDocs, ...(changed ? [changed] : []), ...registerGuarded(handlers, deps.ui)];
  return { panels, disposable: vscode.Disposable.from(...disposables) };
}
