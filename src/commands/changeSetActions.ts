// What the change set commands do (issue #23): Show Unsent Changes… opens a change set in the
// Changes view, Discard Changes… forgets one after asking. Each takes the change set's scope (from
// the table browser's edit bar) or asks which one (from the palette). No vscode: the UI and the
// store are injected (changeSetCommands.ts registers these), so scripted tests drive them.
import type { Ui } from '../platform/ui';
import type { ChangesRequest } from '../core/review/requests';
import { parseScope, type ChangeSetScope } from '../core/changes/changeSetScope';
import type { ChangeSetStore } from '../views/changeSetStore';
import { countsText } from '../shared/editProtocol';
import * as l10n from '../shared/l10n';

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
    void deps.ui.info(l10n.t('There are no unsent changes: edit a table opened at a branch first.'));
    return undefined;
  }
  return deps.ui.pick(
    kept.map((s) => ({
      label: `${s.table} @ ${s.branch}`,
      description: `${s.owner}/${s.name}`,
      detail: l10n.t('{0} · made on {1}', describe(deps, s), short(s.baseCommit)),
      value: s,
    })),
    { title, placeholder: l10n.t('Which table’s unsent changes?') },
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
    void deps.ui.info(l10n.t('There are no unsent changes to {0} at {1}.', scope.table, scope.branch));
    return false;
  }
  const ok = await deps.ui.confirm(
    l10n.t('Discard the unsent changes to {0} at {1}?', scope.table, scope.branch),
    l10n.t('Discard Changes'),
    l10n.t(
      '{0}, made on {1} of {2}/{3}. They were never sent; discarding them cannot be undone.',
      countsText(cs.counts()),
      short(scope.baseCommit),
      scope.owner,
      scope.name,
    ),
  );
  if (!ok) return false;
  await deps.changeSets.delete(scope);
  return true;
}
