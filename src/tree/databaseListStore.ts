// The databases the user added, created or forked, per host. The API cannot list databases, so
// this list is the tree's only source of them. Kept in globalState (a Memento satisfies StateStore).
import type { DatabaseRef } from '../shared/wire';

export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

const KEY = 'versionedDb.databases.v1';

type Stored = Record<string, DatabaseRef[]>;

export function sameDatabase(a: DatabaseRef, b: DatabaseRef): boolean {
  return a.owner === b.owner && a.name === b.name;
}

export class DatabaseListStore {
  private readonly listeners = new Set<() => void>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly state: StateStore) {}

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  hostIds(): string[] {
    return Object.entries(this.read())
      .filter(([, list]) => list.length > 0)
      .map(([hostId]) => hostId);
  }

  list(hostId: string): readonly DatabaseRef[] {
    return this.read()[hostId] ?? [];
  }

  has(hostId: string, db: DatabaseRef): boolean {
    return this.list(hostId).some((d) => sameDatabase(d, db));
  }

  isEmpty(): boolean {
    return this.hostIds().length === 0;
  }

  /** Adds (sorted by owner/name, case-insensitive); resolves false when it was already there. */
  async add(hostId: string, db: DatabaseRef): Promise<boolean> {
    let added = false;
    await this.serialized(async () => {
      const all = this.read();
      const list = all[hostId] ?? [];
      if (list.some((d) => sameDatabase(d, db))) return;
      const next = [...list, { owner: db.owner, name: db.name }].sort((a, b) =>
        `${a.owner}/${a.name}`.localeCompare(`${b.owner}/${b.name}`, 'en', { sensitivity: 'base' }),
      );
      await this.state.update(KEY, { ...all, [hostId]: next });
      added = true;
    });
    if (added) this.fire();
    return added;
  }

  async remove(hostId: string, db: DatabaseRef): Promise<boolean> {
    let removed = false;
    await this.serialized(async () => {
      const all = this.read();
      const list = all[hostId] ?? [];
      const next = list.filter((d) => !sameDatabase(d, db));
      if (next.length === list.length) return;
      const copy: Stored = { ...all, [hostId]: next };
      if (next.length === 0) delete copy[hostId];
      await this.state.update(KEY, copy);
      removed = true;
    });
    if (removed) this.fire();
    return removed;
  }

  private read(): Stored {
    const s = this.state.get<Stored>(KEY);
    return s && typeof s === 'object' ? s : {};
  }

  private serialized(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private fire(): void {
    for (const l of [...this.listeners]) l();
  }
}
