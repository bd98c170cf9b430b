// Which change set (issue #23): one table of one branch of a database on a host, edited on the rows
// it had at one commit, the base. The host store keys change sets by it (src/views/changeSetStore.ts).

/** Which change set: one table of one branch, edited on the rows it had at `baseCommit`. */
export interface ChangeSetScope {
  hostId: string;
  owner: string;
  name: string;
  branch: string;
  table: string;
  baseCommit: string;
}

/** One string per scope (a map key, a storage key). */
export function scopeKey(s: ChangeSetScope): string {
  return JSON.stringify([s.hostId, s.owner, s.name, s.branch, s.table, s.baseCommit]);
}

/** The same table of the same branch, whatever the base. */
export function sameTable(a: Omit<ChangeSetScope, 'baseCommit'>, b: Omit<ChangeSetScope, 'baseCommit'>): boolean {
  return a.hostId === b.hostId && a.owner === b.owner && a.name === b.name && a.branch === b.branch && a.table === b.table;
}

/** Checks a stored or passed scope; undefined when it is not one. */
export function parseScope(v: unknown): ChangeSetScope | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  const fields = ['hostId', 'owner', 'name', 'branch', 'table', 'baseCommit'] as const;
  if (!fields.every((f) => typeof o[f] === 'string' && o[f] !== '')) return undefined;
  return {
    hostId: o['hostId'] as string,
    owner: o['owner'] as string,
    name: o['name'] as string,
    branch: o['branch'] as string,
    table: o['table'] as string,
    baseCommit: o['baseCommit'] as string,
  };
}
