// Which database a command or view is about: every feature resolves it here. First from what it
// was invoked on (databaseTargetOf); only when that names none does the feature ask, usually with
// pickKnownDatabase (the databases in the tree). Pull request commands ask differently, host first
// and then a typed owner/name allowed (src/commands/pullActions.ts), because a pull may come from a
// fork that is not in the tree.
import { parseDatabaseTarget, type DatabaseTarget } from '../core/targets';
import type { Ui } from '../platform/ui';
import type { DatabaseListStore } from './databaseListStore';
import { databaseOf, isTreeNode } from './treeNodes';
import * as l10n from '../shared/l10n';

/**
 * The database an argument names, or undefined: a tree node (a fork row names the fork itself), or
 * a plain `{ hostId, db }` / `{ hostId, database }` object (the pull view, programmatic callers).
 */
export function databaseTargetOf(arg: unknown): DatabaseTarget | undefined {
  if (isTreeNode(arg)) return arg.kind === 'fork' ? { hostId: arg.hostId, db: arg.fork } : databaseOf(arg);
  return parseDatabaseTarget(arg);
}

export interface KnownDatabasePick {
  readonly title: string;
  /** Shown when there is nothing to pick. */
  readonly emptyMessage: string;
  /** Only databases on these hosts (e.g. the ones that can answer now). */
  readonly hostFilter?: (hostId: string) => boolean;
  /** Listed first and marked, even when it is not in the tree. */
  readonly current?: DatabaseTarget;
}

/** One of the databases in the tree: the only one without asking, else the user's pick. */
export async function pickKnownDatabase(
  deps: {
    readonly ui: Pick<Ui, 'pick' | 'info'>;
    readonly databases: Pick<DatabaseListStore, 'hostIds' | 'list'>;
    readonly labelOf: (hostId: string) => string;
  },
  options: KnownDatabasePick,
): Promise<DatabaseTarget | undefined> {
  const { current } = options;
  const isCurrent = (t: DatabaseTarget): boolean =>
    !!current && t.hostId === current.hostId && t.db.owner === current.db.owner && t.db.name === current.db.name;
  const targets: DatabaseTarget[] = deps.databases
    .hostIds()
    .filter((hostId) => options.hostFilter?.(hostId) ?? true)
    .flatMap((hostId) => deps.databases.list(hostId).map((db) => ({ hostId, db })));
  if (current && !targets.some(isCurrent)) targets.unshift(current);
  if (targets.length === 0) {
    void deps.ui.info(options.emptyMessage);
    return undefined;
  }
  targets.sort((a, b) => Number(isCurrent(b)) - Number(isCurrent(a)));
  if (targets.length === 1) return targets[0];
  return deps.ui.pick(
    targets.map((t) => ({
      label: `${t.db.owner}/${t.db.name}`,
      description: `${deps.labelOf(t.hostId)}${isCurrent(t) ? ' · current' : ''}`,
      value: t,
    })),
    { title: options.title, placeholder: l10n.t('Pick a database') },
  );
}
