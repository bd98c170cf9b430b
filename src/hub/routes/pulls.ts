// Pull requests, their comments and their merge (an operation).
import { randomBytes } from 'node:crypto';
import type { BranchRef, OperationResult, Pull, PullComment, PullSummary } from '../../shared/wire';
import { hexToDoltHash } from '../doltHash';
import { badRequest, conflict, forbidden, notFound, readBody, readJson, sendData, unprocessable } from '../http';
import type { Ctx } from '../http';
import { route } from '../router';
import type { Route } from '../router';
import { checkBranchName, validateBody } from '../validate';
import { dbKey } from '../store';
import type { DatabaseRecord, PullRecord } from '../store';
import { DB, OpFailure, now, pageToken } from '../hubCommon';
import type { Access, Caller, EndpointHost } from '../hubCommon';

export class PullEndpoints {
  constructor(private readonly hub: EndpointHost) {}

  routes(): Route[] {
    return [
      route(`${DB}/pulls`, { GET: (c, p) => this.listPulls(c, p), POST: (c, p) => this.createPull(c, p) }),
      route(`${DB}/pulls/:n`, { GET: (c, p) => this.getPull(c, p), PATCH: (c, p) => this.updatePull(c, p) }),
      route(`${DB}/pulls/:n/comments`, { GET: (c, p) => this.listComments(c, p), POST: (c, p) => this.addComment(c, p) }),
      route(`${DB}/pulls/:n/merge`, { POST: (c, p) => this.mergePull(c, p) }),
    ];
  }

  private findPull(a: Access, n: string): PullRecord {
    if (!/^[1-9][0-9]{0,9}$/.test(n)) throw badRequest('Parameter "pull_number" must be a positive integer.');
    const pull = this.hub.store.state.pulls.find((x) => x.db === a.key && x.pull_number === Number(n));
    if (!pull) throw notFound(`Pull request #${n} was not found in ${a.key}.`);
    return pull;
  }

  private async listPulls(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'read');
    const all = this.hub.store.state.pulls
      .filter((x) => x.db === a.key)
      .sort((x, y) => y.pull_number - x.pull_number)
      .map(toPullSummary);
    const page = this.hub.paginator.page(`pulls:${a.key}`, all, pageToken(ctx));
    sendData(ctx, 200, page.items, page.next ? { next_page_token: page.next } : {});
  }

  private async getPull(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'read');
    sendData(ctx, 200, toPull(this.findPull(a, p['n'] as string)));
  }

  private branchRef(v: unknown, field: string): BranchRef {
    const o = validateBody(
      v,
      { database: { type: 'object', required: true }, branch_name: { type: 'string', required: true } },
      `field "${field}"`,
    );
    const d = validateBody(
      o['database'],
      { owner: { type: 'string', required: true }, name: { type: 'string', required: true } },
      `field "${field}.database"`,
    );
    const bn = o['branch_name'] as string;
    if (checkBranchName(bn)) throw badRequest(`Field "${field}.branch_name" is not a valid branch name.`);
    return { database: { owner: d['owner'] as string, name: d['name'] as string }, branch_name: bn };
  }

  private async createPull(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'auth-read');
    const c = a.caller as Caller;
    const body = validateBody(await readJson(ctx.req), {
      title: { type: 'string', required: true, check: (v: string) => (v.trim() === '' ? 'must not be empty.' : undefined) },
      description: { type: 'string' },
      from_branch: { type: 'object', required: true },
      to_branch: { type: 'object', required: true },
    });
    const from = this.branchRef(body['from_branch'], 'from_branch');
    const to = this.branchRef(body['to_branch'], 'to_branch');
    if (dbKey(to.database.owner, to.database.name) !== a.key)
      throw badRequest(`Field "to_branch.database" must be ${a.key}, the database in the URL.`);
    const fromKey = dbKey(from.database.owner, from.database.name);
    const fromRec = this.hub.store.state.databases[fromKey];
    if (!fromRec || !this.hub.canRead(fromRec, c)) throw notFound(`Database ${fromKey} (from_branch) was not found.`);
    if (fromKey !== a.key) {
      const rootOf = (r: DatabaseRecord): string =>
        r.network_root ? dbKey(r.network_root.owner, r.network_root.name) : dbKey(r.owner, r.name);
      if (rootOf(fromRec) !== rootOf(a.rec))
        throw badRequest(`Field "from_branch.database": ${fromKey} is not in the fork network of ${a.key}.`);
    }
    if (fromKey === a.key && from.branch_name === to.branch_name)
      throw badRequest('Fields "from_branch" and "to_branch" must name different branches.');
    const fromPath = this.hub.store.dbPath(fromRec.owner, fromRec.name);
    if (!(await this.hub.engine.branches(fromKey, fromPath)).some((b) => b.name === from.branch_name))
      throw notFound(`Branch "${from.branch_name}" was not found in ${fromKey}.`);
    if (!(await this.hub.branchNames(a)).has(to.branch_name)) throw notFound(`Branch "${to.branch_name}" was not found in ${a.key}.`);
    const dup = this.hub.store.state.pulls.find(
      (x) =>
        x.db === a.key &&
        x.state === 'open' &&
        x.to_branch.branch_name === to.branch_name &&
        x.from_branch.branch_name === from.branch_name &&
        dbKey(x.from_branch.database.owner, x.from_branch.database.name) === fromKey,
    );
    if (dup) throw conflict(`Pull request #${dup.pull_number} is already open for these branches.`);
    const pull = this.addPull(a.key, c.user.username, body['title'] as string, (body['description'] as string | undefined) ?? '', from, to);
    sendData(ctx, 201, toPull(pull));
  }

  addPull(key: string, creator: string, title: string, description: string, from: BranchRef, to: BranchRef): PullRecord {
    return this.hub.store.mutate((s) => {
      const rec = s.databases[key] as DatabaseRecord;
      const pull: PullRecord = {
        db: key,
        pull_number: rec.next_pull_number++,
        title,
        state: 'open',
        created_at: now(),
        creator,
        from_branch: from,
        to_branch: to,
      };
      if (description !== '') pull.description = description;
      s.pulls.push(pull);
      return pull;
    });
  }

  private async updatePull(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'auth-read');
    const c = a.caller as Caller;
    const pull = this.findPull(a, p['n'] as string);
    const body = validateBody(await readJson(ctx.req), {
      title: { type: 'string', check: (v: string) => (v.trim() === '' ? 'must not be empty.' : undefined) },
      description: { type: 'string' },
      state: { type: 'string' },
    });
    if (Object.keys(body).length === 0) throw badRequest('At least one of "title", "description" or "state" is required.');
    if (pull.creator !== c.user.username && !this.hub.canWrite(a.rec, c))
      throw forbidden('Only the author or a writer of the database can edit this pull request.');
    const state = body['state'] as string | undefined;
    if (state !== undefined) {
      if (state === 'merged') throw unprocessable('A pull request cannot be set to "merged"; merge it with the merge endpoint.');
      if (state !== 'open' && state !== 'closed') throw badRequest('Field "state" must be "open" or "closed".');
      if (pull.state === 'merged') throw conflict('This pull request is merged; its state can no longer change.');
    }
    this.hub.store.mutate(() => {
      if (typeof body['title'] === 'string') pull.title = body['title'];
      if (typeof body['description'] === 'string') {
        if (body['description'] === '') delete pull.description;
        else pull.description = body['description'];
      }
      if (state === 'open' || state === 'closed') pull.state = state;
    });
    sendData(ctx, 200, toPull(pull));
  }

  private async listComments(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'read');
    const pull = this.findPull(a, p['n'] as string);
    const list: PullComment[] = this.hub.store.state.comments
      .filter((x) => x.db === a.key && x.pull_number === pull.pull_number)
      .map(({ comment_id, author, body, created_at, updated_at }) => ({ comment_id, author, body, created_at, updated_at }));
    sendData(ctx, 200, list);
  }

  private async addComment(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'auth-read');
    const c = a.caller as Caller;
    const pull = this.findPull(a, p['n'] as string);
    const body = validateBody(await readJson(ctx.req), {
      body: { type: 'string', required: true, check: (v: string) => (v.trim() === '' ? 'must not be empty.' : undefined) },
    });
    const t = now();
    const comment: PullComment = {
      comment_id: randomBytes(9).toString('base64url'),
      author: c.user.username,
      body: body['body'] as string,
      created_at: t,
      updated_at: t,
    };
    this.hub.store.mutate((s) => s.comments.push({ db: a.key, pull_number: pull.pull_number, ...comment }));
    sendData(ctx, 201, comment);
  }

  private async mergePull(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'auth-read');
    const c = a.caller as Caller;
    const pull = this.findPull(a, p['n'] as string);
    // The body is an empty object (closed schema); an absent body means the same.
    const raw = await readBody(ctx.req, 64 * 1024);
    if (raw.length > 0) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch (e) {
        throw badRequest(`The request body is not valid JSON: ${(e as Error).message}`);
      }
      validateBody(parsed, {});
    }
    if (!this.hub.canWrite(a.rec, c)) throw forbidden(`You do not have write access to ${a.key}.`);
    if (pull.state !== 'open') throw conflict(`Pull request #${pull.pull_number} is ${pull.state}; only open pull requests can be merged.`);
    const busy = this.hub.store.state.operations.some(
      (o) =>
        o.db === a.key &&
        o.type === 'merge' &&
        (o.status === 'queued' || o.status === 'running') &&
        (o.result as { pull?: number } | undefined)?.pull === pull.pull_number,
    );
    if (busy) throw conflict(`A merge of pull request #${pull.pull_number} is already running.`);
    const op = this.hub.newOperation(a.key, 'merge', c);
    op.result = { pull: pull.pull_number };
    this.hub.store.save();
    this.hub.runOperation(op, async () => {
      const fromKey = dbKey(pull.from_branch.database.owner, pull.from_branch.database.name);
      const crossFork = fromKey !== a.key;
      return this.hub.engine.withLocks([a.key], async () => {
        if (pull.state !== 'open')
          throw new OpFailure(409, 'CONFLICT', 'Merge refused', `Pull request #${pull.pull_number} is ${pull.state}.`);
        const fromFile = crossFork
          ? this.hub.engine.file(fromKey, this.hub.store.dbPath(pull.from_branch.database.owner, pull.from_branch.database.name))
          : undefined;
        const w = await this.hub.engine.write(a.key, a.path, this.hub.author(c), {
          kind: 'merge',
          fromBranch: pull.from_branch.branch_name,
          fromFile,
          toBranch: pull.to_branch.branch_name,
          message: `Merge pull request #${pull.pull_number} from ${fromKey}:${pull.from_branch.branch_name}\n\n${pull.title}`,
        });
        if (!w.ok) {
          if (w.code === 'CONFLICT') throw new OpFailure(409, 'CONFLICT', 'Merge conflict', w.message);
          throw new OpFailure(422, 'UNPROCESSABLE', 'Merge failed', w.message);
        }
        this.hub.store.state.databases[a.key]!.last_write_at = now();
        pull.state = 'merged';
        const out: OperationResult = { pull_id: pull.pull_number };
        if (w.commitHex) out.commit_sha = hexToDoltHash(w.commitHex);
        return out;
      });
    });
    sendData(ctx, 202, this.hub.operationRef(ctx, op));
  }
}

function toPullSummary(p: PullRecord): PullSummary {
  const s: PullSummary = { pull_number: p.pull_number, title: p.title, state: p.state, created_at: p.created_at, creator: p.creator };
  if (p.description) s.description = p.description;
  return s;
}
function toPull(p: PullRecord): Pull {
  return { ...toPullSummary(p), from_branch: p.from_branch, to_branch: p.to_branch };
}
