// What the change set commands do (issue #23): Show Unsent Changes… opens a change set in the
// Changes view, Discard Changes… forgets one after asking. Each takes the change set's scope (from
// the table browser's edit bar) or asks which one (from the palette). No vscode: the UI and the
// store are injected (changeSetCommands.ts registers these), so scripted tests drive them.
import type { Ui } from '../platform/ui';
import type { ChangesRequest } from '../core/review/requests';
import { parseScope, type ChangeSetScope } from '../core/changes/changeSetScope';
import type { ChangeSetStore } from '../views/changeSetStore';
import { countsText } from '../shared/editProtocol';

export interface ChangeSetCommandDeps {
  readonly ui: Pick<Ui, 'pick' | 'confirm' | 'info'>;
  readonly changeSets: Pick<ChangeSetStore, 'list' | 'get' | 'delete'>;
  showChanges(request: ChangesRequest): PromiseLike<unknown>;
}

const short = (h: string): string => h.slice(0, 7);

function describe(deps: ChangeSetCommandDeps, s: ChangeSetScope): string {
  const cs = deps.changeSets.get(s);
  return cs ? countsText(cs.counts()) : 'no changes';
}

/** The scope passed, or the one the user picks among those kept; undefined when there is none or none was picked. */
export async function pickChangeSet(deps: ChangeSetCommandDeps, arg: unknown, title: string): Promise<ChangeSetScope | undefined> {
  const given = parseScope(arg);
  if (given) return given;
  const kept = deps.changeSets.list();
  if (kept.length === 0) {
    void deps.ui.info('There are no unsent changes: edit a table opened at a branch first.');
    return undefined;
  }
  return deps.ui.pick(
    kept.map((s) => ({
      label: `${s.table} @ ${s.branch}`,
      description: `${s.owner}/${s.name}`,
      detail: `${describe(deps, s)} · made on ${short(s.baseCommit)}`,
      value: s,
    })),
    { title, placeholder: 'Which table’s unsent changes?' },
  );
}

export async function showChangeSet(deps: ChangeSetCommandDeps, arg: unknown): Promise<void> {
  const scope = await pickChangeSet(deps, arg, 'Show Unsent Changes');
  if (!scope) return;
  await deps.showChanges({ kind: 'changeSet', target: { hostId: scope.hostId, db: { owner: scope.owner, name: scope.name } }, scope });
}

/** Forgets a change set once the user confirms; true when it was discarded. */
export async function discardChanges(deps: ChangeSetCommandDeps, arg: unknown): Promise<boolean> {
  const scope = await pickChangeSet(deps, arg, 'Discard Changes');
  if (!scope) return false;
  const cs = deps.changeSets.get(scope);
  if (!cs || cs.isEmpty) {
    void deps.ui.info(`There are no unsent changes to ${scope.table} at ${scope.branch}.`);
    return false;
  }
  const ok = await deps.ui.confirm(
    `Discard the unsent changes to ${scope.table} at ${scope.branch}?`,
    'Discard Changes',
    `${countsText(cs.counts())}, made on ${short(scope.baseCommit)} of ${scope.owner}/${scope.name}. They were never sent; discarding them cannot be undone.`,
  );
  if (!ok) return false;
  await deps.changeSets.delete(scope);
  return true;
}
