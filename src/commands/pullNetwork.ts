import type { Branch, Database, DatabaseRef } from '../shared/wire';
import type { DbRef, RequestOptions } from '../api/dbRef';
import type { Page, PageOptions } from '../api/pagination';
import { collectAll } from '../api/pagination';
import type { Logger } from '../core/logger';
import { sameDatabase } from '../core/pullPage';

// A pull request may come from any database of the target's fork network (the spec: "the fork's
// network root must match the target"). The API has no "list the network" call, so it is walked:
// the database's network_root (itself when it is the root), then /forks level by level.

export interface NetworkApi {
  getDatabase(db: DbRef, opts?: RequestOptions): Promise<Pick<Database, 'network_root'>>;
  listForks(db: DbRef, opts?: RequestOptions): Promise<DatabaseRef[]>;
  listBranches(db: DbRef, page?: PageOptions, opts?: RequestOptions): Promise<Page<Branch>>;
}

/** Enough for any network a person picks from; a bigger one is cut, and the log says so. */
export const MAX_NETWORK_DATABASES = 30;

/**
 * The databases of `db`'s fork network, `db` first, then the root, then forks breadth-first.
 * A fork the caller cannot read (private: 404) is simply absent from what the server lists.
 */
export async function forkNetwork(api: NetworkApi, db: DbRef, opts: { signal?: AbortSignal; log?: Logger } = {}): Promise<DbRef[]> {
  const signal = opts.signal;
  const info = await api.getDatabase(db, { signal });
  const root: DbRef = info.network_root ?? db;
  const found: DbRef[] = [{ owner: db.owner, name: db.name }];
  const add = (d: DbRef): boolean => {
    if (found.some((f) => sameDatabase(f, d))) return false;
    found.push({ owner: d.owner, name: d.name });
    return true;
  };
  add(root);
  const queue: DbRef[] = [root];
  const walked: DbRef[] = [];
  while (queue.length && found.length < MAX_NETWORK_DATABASES) {
    const next = queue.shift()!;
    if (walked.some((w) => sameDatabase(w, next))) continue;
    walked.push(next);
    let forks: DatabaseRef[];
    try {
      forks = await api.listForks(next, { signal });
    } catch (err) {
      if (signal?.aborted) throw err;
      // One unreadable database must not hide the rest of the network.
      opts.log?.warn(`forks of ${next.owner}/${next.name} could not be listed: ${String(err)}`);
      continue;
    }
    for (const f of forks) {
      if (found.length >= MAX_NETWORK_DATABASES) {
        opts.log?.info(`fork network of ${db.owner}/${db.name} has more than ${MAX_NETWORK_DATABASES} databases; the rest is not offered`);
        break;
      }
      add(f);
      queue.push(f);
    }
  }
  return found;
}

export interface NetworkBranch {
  db: DbRef;
  branch: Branch;
}

/** Every branch of every database in the list; a database whose branches fail is skipped and logged. */
export async function networkBranches(
  api: NetworkApi,
  dbs: readonly DbRef[],
  opts: { signal?: AbortSignal; log?: Logger } = {},
): Promise<NetworkBranch[]> {
  const lists = await Promise.all(
    dbs.map(async (db) => {
      try {
        const branches = await collectAll((pageToken) => api.listBranches(db, { pageToken, signal: opts.signal }));
        return branches.map((branch) => ({ db, branch }));
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        opts.log?.warn(`branches of ${db.owner}/${db.name} could not be listed: ${String(err)}`);
        return [];
      }
    }),
  );
  return lists.flat();
}
