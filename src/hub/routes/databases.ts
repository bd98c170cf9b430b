// Databases and forks: create, read, list forks, fork (an operation).
import { copyFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Database, DatabaseRef } from '../../shared/wire';
import { HttpProblem, conflict, forbidden, readJson, sendData, unprocessable } from '../http';
import type { Ctx } from '../http';
import { route } from '../router';
import type { Route } from '../router';
import { checkName, validateBody } from '../validate';
import { fsyncDir } from '../atomicFile';
import { dbKey } from '../store';
import type { DatabaseRecord } from '../store';
import { DB, OpFailure, now } from '../hubCommon';
import type { Caller, EndpointHost } from '../hubCommon';

export class DatabaseEndpoints {
  constructor(private readonly hub: EndpointHost) {}

  routes(): Route[] {
    return [
      route('/databases', { POST: (c) => this.createDatabase(c) }),
      route(DB, { GET: (c, p) => this.getDatabase(c, p) }),
      route(`${DB}/forks`, { GET: (c, p) => this.listForks(c, p), POST: (c, p) => this.createFork(c, p) }),
    ];
  }

  private toDatabase(rec: DatabaseRecord): Database {
    const path = this.hub.store.dbPath(rec.owner, rec.name);
    const root = rec.network_root ?? { owner: rec.owner, name: rec.name };
    const rootKey = dbKey(root.owner, root.name);
    let count = 0;
    for (const d of Object.values(this.hub.store.state.databases)) {
      if (d.network_root && dbKey(d.network_root.owner, d.network_root.name) === rootKey) count++;
    }
    const db: Database = {
      owner: rec.owner,
      name: rec.name,
      visibility: rec.visibility,
      fork_network_count: count,
      star_count: rec.star_count,
      size_bytes: existsSync(path) ? statSync(path).size : 0,
    };
    if (rec.description) db.description = rec.description;
    if (rec.last_write_at) db.last_write_at = rec.last_write_at;
    if (rec.parent) db.parent = rec.parent;
    if (rec.network_root) db.network_root = rec.network_root;
    return db;
  }

  private async createDatabase(ctx: Ctx): Promise<void> {
    const c = this.hub.requireCaller(ctx);
    const body = validateBody(await readJson(ctx.req), {
      owner: { type: 'string', required: true, check: checkName },
      name: { type: 'string', required: true, check: checkName },
      description: { type: 'string' },
      visibility: { type: 'string', required: true, enum: ['public', 'private'] },
    });
    const owner = body['owner'] as string;
    const name = body['name'] as string;
    if (!this.hub.canCreateUnder(owner, c.user.username)) throw forbidden(`You cannot create databases under "${owner}".`);
    const key = dbKey(owner, name);
    const path = this.hub.store.dbPath(owner, name);
    const rec = await this.hub.engine.withLocks([key], async () => {
      if (this.hub.store.state.databases[key]) throw conflict(`Database ${key} already exists.`);
      mkdirSync(dirname(path), { recursive: true });
      const w = await this.hub.engine.write(key, path, this.hub.author(c), { kind: 'create' });
      if (!w.ok) throw new HttpProblem(500, 'INTERNAL', w.message);
      const r: DatabaseRecord = {
        owner,
        name,
        visibility: body['visibility'] as 'public' | 'private',
        star_count: 0,
        created_at: now(),
        last_write_at: now(),
        next_pull_number: 1,
      };
      if (typeof body['description'] === 'string' && body['description'] !== '') r.description = body['description'];
      this.hub.store.mutate((s) => (s.databases[key] = r));
      return r;
    });
    sendData(ctx, 201, this.toDatabase(rec));
  }

  private async getDatabase(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'read');
    sendData(ctx, 200, this.toDatabase(a.rec));
  }

  private async listForks(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'read');
    const caller = a.caller;
    const forks: DatabaseRef[] = Object.values(this.hub.store.state.databases)
      .filter((d) => d.parent && dbKey(d.parent.owner, d.parent.name) === a.key && this.hub.canRead(d, caller))
      .map((d) => ({ owner: d.owner, name: d.name }));
    sendData(ctx, 200, forks);
  }

  private async createFork(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'auth-read');
    const c = a.caller as Caller;
    const body = validateBody(await readJson(ctx.req), { owner: { type: 'string', required: true, check: checkName } });
    const owner = body['owner'] as string;
    if (!this.hub.canCreateUnder(owner, c.user.username))
      throw forbidden(`You cannot fork into "${owner}": you do not own that namespace.`);
    const targetKey = dbKey(owner, a.rec.name);
    const existing = this.hub.store.state.databases[targetKey];
    const pending = this.hub.store.state.operations.some(
      (o) =>
        o.type === 'fork' &&
        (o.status === 'queued' || o.status === 'running') &&
        o.db === a.key &&
        (o.result as { target?: string } | undefined)?.target === targetKey,
    );
    if (targetKey === a.key) throw unprocessable(`${a.key} cannot be forked into its own namespace.`);
    if ((existing && existing.parent && dbKey(existing.parent.owner, existing.parent.name) === a.key) || pending) {
      throw unprocessable(`${a.key} is already forked into ${owner}.`);
    }
    if (existing) throw conflict(`${targetKey} already exists.`);
    const op = this.hub.newOperation(a.key, 'fork', c);
    // The target is remembered so a second request while this one runs is refused too.
    op.result = { target: targetKey };
    this.hub.store.save();
    this.hub.runOperation(op, async () => {
      return this.hub.engine.withLocks([targetKey], async () => {
        if (this.hub.store.state.databases[targetKey]) throw new OpFailure(409, 'CONFLICT', 'Fork failed', `${targetKey} already exists.`);
        const src = this.hub.store.dbPath(a.rec.owner, a.rec.name);
        const dst = this.hub.store.dbPath(owner, a.rec.name);
        mkdirSync(dirname(dst), { recursive: true });
        // Writes replace files by rename, so the source file is always a complete database.
        const tmp = `${dst}.fork-${randomBytes(4).toString('hex')}.tmp`;
        copyFileSync(src, tmp);
        renameSync(tmp, dst);
        fsyncDir(dirname(dst));
        this.hub.engine.invalidate(targetKey);
        const root = a.rec.network_root ?? { owner: a.rec.owner, name: a.rec.name };
        const rec: DatabaseRecord = {
          owner,
          name: a.rec.name,
          visibility: a.rec.visibility,
          star_count: 0,
          created_at: now(),
          last_write_at: now(),
          parent: { owner: a.rec.owner, name: a.rec.name },
          network_root: root,
          next_pull_number: 1,
        };
        if (a.rec.description) rec.description = a.rec.description;
        this.hub.store.state.databases[targetKey] = rec;
        return { database: { owner, name: a.rec.name } };
      });
    });
    sendData(ctx, 202, this.hub.operationRef(ctx, op));
  }
}
