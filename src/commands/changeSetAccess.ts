// The workspace's change sets (src/views/changeSetStore.ts) as proposing sees them
// (src/commands/proposeTypes.ts ChangeSetAccess): a snapshot to send, removal once sent, and a
// rebase onto a branch's new head. No vscode: tests give it change sets of the real model.
import type { ChangeSet } from '../core/changes/changeSet';
import type { ChangeSetScope } from '../core/changes/changeSetScope';
import type { Cell } from '../shared/wire';
import type { ChangeSetAccess } from './proposeTypes';

/** What of the store this needs (ChangeSetStore has it). */
export interface ChangeSetHolder {
  get(scope: ChangeSetScope): ChangeSet | undefined;
  delete(scope: ChangeSetScope): Promise<void>;
  rebase(scope: ChangeSetScope, newBase: string, rowsAtNewBase: readonly Cell[][]): Promise<unknown>;
}

export function changeSetAccess(store: ChangeSetHolder): ChangeSetAccess {
  return {
    snapshot: (scope) => store.get(scope)?.snapshot(),
    remove: (scope) => store.delete(scope),
    rebase: async (scope, newBase, rows) => {
      await store.rebase(
        scope,
        newBase,
        [...rows.values()].filter((r): r is Cell[] => r !== null),
      );
      const moved = store.get({ ...scope, baseCommit: newBase });
      if (!moved) throw new Error(`The changes to ${scope.table} could not be moved onto ${newBase.slice(0, 8)}.`);
      return moved.snapshot();
    },
  };
}
