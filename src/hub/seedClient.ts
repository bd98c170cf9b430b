// How seeding talks to a running hub: its own HTTP API as the seeded users (tokens made for this
// run only), plus commits written straight through the engine at a clock that advances three
// hours per commit, so the sample history has stable dates.
import type { Envelope, Operation, OperationRef } from '../shared/wire';
import type { HubServer } from './hubServer';
import { dbKey } from './store';

export interface SeedUser {
  username: string;
  email: string;
}

export class SeedClient {
  private clock = Date.parse('2026-01-05T09:00:00Z');

  constructor(
    private readonly hub: HubServer,
    private readonly users: readonly SeedUser[],
    private readonly tokens: Readonly<Record<string, string>>,
  ) {}

  async api<T>(user: string, method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.hub.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${this.tokens[user]}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`seed: ${method} ${path} -> ${res.status} ${text}`);
    return (JSON.parse(text) as Envelope<T>).data;
  }

  /** Polls the operation until it ends (seeding runs once, offline: a short poll is fine here). */
  async waitOp(user: string, ref: OperationRef): Promise<Operation> {
    for (;;) {
      const op = await this.api<Operation>(user, 'GET', `/operations/${encodeURIComponent(ref.id)}`);
      if (op.status === 'succeeded') return op;
      if (op.status === 'failed') throw new Error(`seed: operation ${ref.id} failed: ${JSON.stringify(op.error)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async commit(owner: string, name: string, user: string, branch: string, message: string, statements: string[]): Promise<void> {
    const key = dbKey(owner, name);
    const u = this.users.find((x) => x.username === user)!;
    this.clock += 3 * 3600 * 1000;
    const date = new Date(this.clock).toISOString();
    await this.hub.engine.withLocks([key], async () => {
      const w = await this.hub.engine.write(
        key,
        this.hub.store.dbPath(owner, name),
        { name: u.username, email: u.email },
        { kind: 'sql', branch, statements, message, date },
      );
      if (!w.ok) throw new Error(`seed: commit on ${key}: ${w.message}`);
    });
  }

  branch(user: string, owner: string, name: string, b: string, from: string): Promise<unknown> {
    return this.api(user, 'POST', `/databases/${owner}/${name}/branches`, { name: b, from: { branch: from } });
  }

  pull(
    user: string,
    owner: string,
    name: string,
    title: string,
    description: string,
    from: [string, string, string],
    to: string,
  ): Promise<{ pull_number: number }> {
    return this.api(user, 'POST', `/databases/${owner}/${name}/pulls`, {
      title,
      description,
      from_branch: { database: { owner: from[0], name: from[1] }, branch_name: from[2] },
      to_branch: { database: { owner, name }, branch_name: to },
    });
  }

  comment(user: string, owner: string, name: string, n: number, body: string): Promise<unknown> {
    return this.api(user, 'POST', `/databases/${owner}/${name}/pulls/${n}/comments`, { body });
  }
}
