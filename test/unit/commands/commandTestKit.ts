// A CommandDeps whose client records calls and answers from fixtures; UI scripted by ScriptedUi (test/helpers/scriptedUi.ts).
import type { HubClient } from '../../../src/api/index';
import type { Account } from '../../../src/auth/accountStore';
import type { HostInfo } from '../../../src/auth/clientSource';
import type { CommandDeps } from '../../../src/commands/commandDeps';
import { runOperation } from '../../../src/commands/operationsRunner';
import { DatabaseListStore } from '../../../src/tree/databaseListStore';
import type { Branch, DatabaseRef, OperationError, Release, Tag } from '../../../src/shared/wire';
import { MemoryState, silent, TEST_EXTENSION_URI } from '../../helpers/memoryFakes';
import { portOver } from '../../helpers/sqlPorts';
import type { SqlEndpoint } from '../../../src/core/sql/sqlPort';
import { ScriptedUi, type Step } from '../../helpers/scriptedUi';
import { aBranch, aDatabase, anOperation, aRelease, aTag } from '../../builders/wire';

export const HOST: HostInfo = { id: 'https://h.example', label: 'Hub', siteUrl: 'https://h.example', isLocal: false };
export const DB: DatabaseRef = { owner: 'alice', name: 'prices' };
export const HASH_MAIN = 'a'.repeat(32);
export const HASH_DEV = 'b'.repeat(32);
export const HASH_TAG = 'c'.repeat(32);

export interface Kit {
  deps: CommandDeps;
  ui: ScriptedUi;
  calls: { method: string; args: unknown[] }[];
  databases: DatabaseListStore;
  refreshed: string[];
  failures: OperationError[];
  client: Record<string, (...args: unknown[]) => Promise<unknown>>;
}

export function kit(steps: Step[], opts: { account?: Account | null; hosts?: HostInfo[] } = {}): Kit {
  const ui = new ScriptedUi(steps);
  const calls: Kit['calls'] = [];
  const branches: Branch[] = [aBranch({ name: 'main', head_commit_sha: HASH_MAIN }), aBranch({ name: 'dev', head_commit_sha: HASH_DEV })];
  const tags: Tag[] = [aTag({ name: 'v1', commit_sha: HASH_TAG, message: 'one' })];
  const record =
    (method: string, impl: (...a: unknown[]) => unknown) =>
    async (...args: unknown[]) => {
      calls.push({ method, args });
      return impl(...args);
    };
  const client: Kit['client'] = {
    getDatabase: record('getDatabase', (db) => aDatabase({ ...(db as DatabaseRef) })),
    createDatabase: record('createDatabase', (body) => ({ ...(body as object), fork_network_count: 0, star_count: 0, size_bytes: 0 })),
    listBranches: record('listBranches', () => ({ items: branches })),
    listTags: record('listTags', () => ({ items: tags })),
    createBranch: record('createBranch', (_db, body) => aBranch({ name: (body as { name: string }).name, head_commit_sha: HASH_MAIN })),
    createTag: record('createTag', (_db, body) => {
      const b = body as { name: string; message?: string };
      return aTag({ name: b.name, commit_sha: HASH_MAIN, ...(b.message ? { message: b.message } : {}) });
    }),
    createRelease: record('createRelease', (_db, body) => aRelease(body as Partial<Release>)),
    createFork: record('createFork', () => ({
      id: 'owners/bob/repos/prices/jobs/1',
      href: 'https://h.example/api/v2/operations/owners%2Fbob%2Frepos%2Fprices%2Fjobs%2F1',
    })),
    waitForOperation: record('waitForOperation', () =>
      anOperation({
        id: 'owners/bob/repos/prices/jobs/1',
        type: 'fork',
        status: 'succeeded',
        result: { database: { owner: 'bob', name: 'prices' } },
      }),
    ),
  };
  const databases = new DatabaseListStore(new MemoryState());
  const refreshed: string[] = [];
  const failures: OperationError[] = [];
  const account: Account | undefined =
    opts.account === null ? undefined : (opts.account ?? { id: 'x', hostId: HOST.id, username: 'bob', kind: 'token', signedInAt: 'x' });
  const hosts = opts.hosts ?? [HOST];
  const deps: CommandDeps = {
    ui,
    clients: {
      hosts: () => hosts,
      host: (id) => hosts.find((h) => h.id === id),
      labelOf: (id) => hosts.find((h) => h.id === id)?.label ?? id,
      clientFor: () => client as unknown as HubClient,
    },
    accounts: { activeAccount: () => account },
    databases,
    tree: {
      refresh: () => refreshed.push('all'),
      refreshDatabase: (_h, db, cats) => refreshed.push(`${db.owner}/${db.name}:${(cats ?? ['*']).join(',')}`),
      setDatabaseInfo: (_h, info) => refreshed.push(`info ${info.owner}/${info.name}`),
      loadMore: async () => undefined,
      pullStateFilter: () => ['open'],
      setPullStateFilter: () => undefined,
    },
    operations: {
      run: (o) => runOperation({ start: o.start, waiter: o.client, signal: new AbortController().signal }),
      showFailure: async (_what, error) => {
        failures.push(error);
      },
    },
    signIn: async () => undefined,
    log: silent,
    sql: portOver(client as unknown as SqlEndpoint),
    extensionUri: TEST_EXTENSION_URI,
    workspaceState: new MemoryState(),
  };
  return { deps, ui, calls, databases, refreshed, failures, client };
}

export function callsOf(k: Kit, method: string): unknown[][] {
  return k.calls.filter((c) => c.method === method).map((c) => c.args);
}
