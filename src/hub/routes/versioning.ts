// Branches, tags and releases.
import type { Branch, Release, Tag } from '../../shared/wire';
import type { Revision } from '../engineProtocol';
import { doltHashToHex, hexToDoltHash, isDoltHash } from '../doltHash';
import { HttpProblem, badRequest, conflict, notFound, readJson, sendData } from '../http';
import type { Ctx } from '../http';
import { route } from '../router';
import type { Route } from '../router';
import { checkBranchName, validateBody } from '../validate';
import { DB, doltDateToIso, now, pageToken } from '../hubCommon';
import type { Caller, EndpointHost } from '../hubCommon';

export class VersioningEndpoints {
  constructor(private readonly hub: EndpointHost) {}

  routes(): Route[] {
    return [
      route(`${DB}/branches`, { GET: (c, p) => this.listBranches(c, p), POST: (c, p) => this.createBranch(c, p) }),
      route(`${DB}/tags`, { GET: (c, p) => this.listTags(c, p), POST: (c, p) => this.createTag(c, p) }),
      route(`${DB}/releases`, { GET: (c, p) => this.listReleases(c, p), POST: (c, p) => this.createRelease(c, p) }),
    ];
  }

  private async listBranches(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'read');
    const rows = await this.hub.engine.branches(a.key, a.path);
    const all: Branch[] = rows.map((r) => {
      const b: Branch = { name: r.name, head_commit_sha: hexToDoltHash(r.hashHex) };
      const t = doltDateToIso(r.date);
      if (t) b.last_updated_at = t;
      return b;
    });
    const page = this.hub.paginator.page(`branches:${a.key}`, all, pageToken(ctx));
    sendData(ctx, 200, page.items, page.next ? { next_page_token: page.next } : {});
  }

  private fromSource(v: unknown): Revision {
    const from = validateBody(v, { branch: { type: 'string' }, commit: { type: 'string' } }, 'field "from"');
    const b = from['branch'];
    const c = from['commit'];
    if ((b === undefined) === (c === undefined)) throw badRequest('Field "from" must have exactly one of "branch" or "commit".');
    if (typeof c === 'string') {
      if (!isDoltHash(c)) throw badRequest('Field "from.commit" must be a 32-character commit hash (0-9a-v).');
      return { commitHex: doltHashToHex(c) };
    }
    if (typeof b !== 'string' || checkBranchName(b)) throw badRequest('Field "from.branch" is not a valid branch name.');
    return { branch: b };
  }

  private async createBranch(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'write');
    const body = validateBody(await readJson(ctx.req), {
      name: { type: 'string', required: true, check: checkBranchName },
      from: { type: 'object', required: true },
    });
    const from = this.fromSource(body['from']);
    const name = body['name'] as string;
    const branch = await this.hub.engine.withLocks([a.key], async () => {
      const rows = await this.hub.engine.branches(a.key, a.path);
      if (rows.some((r) => r.name === name)) throw conflict(`Branch "${name}" already exists.`);
      if ('branch' in from && !rows.some((r) => r.name === from.branch)) throw notFound(`Branch "${from.branch}" was not found.`);
      const w = await this.hub.engine.write(a.key, a.path, this.hub.author(a.caller as Caller), { kind: 'branch', name, from });
      if (!w.ok) throw w.code === 'NOT_FOUND' ? notFound('The source commit was not found.') : new HttpProblem(500, 'INTERNAL', w.message);
      const after = (await this.hub.engine.branches(a.key, a.path)).find((r) => r.name === name);
      if (!after) throw new HttpProblem(500, 'INTERNAL', 'The branch was not created.');
      const out: Branch = { name, head_commit_sha: hexToDoltHash(after.hashHex) };
      const t = doltDateToIso(after.date);
      if (t) out.last_updated_at = t;
      return out;
    });
    this.hub.touch(a.key);
    sendData(ctx, 201, branch);
  }

  private toTag(r: { name: string; hashHex: string; message: string; date: string }): Tag {
    const t: Tag = { name: r.name, commit_sha: hexToDoltHash(r.hashHex) };
    if (r.message !== '') t.message = r.message;
    const d = doltDateToIso(r.date);
    if (d) t.tagged_at = d;
    return t;
  }

  private async listTags(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'read');
    const all = (await this.hub.engine.tags(a.key, a.path)).map((r) => this.toTag(r));
    const page = this.hub.paginator.page(`tags:${a.key}`, all, pageToken(ctx));
    sendData(ctx, 200, page.items, page.next ? { next_page_token: page.next } : {});
  }

  private async createTag(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'write');
    const body = validateBody(await readJson(ctx.req), {
      name: { type: 'string', required: true, check: checkBranchName },
      from: { type: 'object', required: true },
      message: { type: 'string' },
    });
    const from = this.fromSource(body['from']);
    const name = body['name'] as string;
    const message = body['message'] as string | undefined;
    const tag = await this.hub.engine.withLocks([a.key], async () => {
      if ((await this.hub.engine.tags(a.key, a.path)).some((t) => t.name === name)) throw conflict(`Tag "${name}" already exists.`);
      if ('branch' in from && !(await this.hub.branchNames(a)).has(from.branch)) throw notFound(`Branch "${from.branch}" was not found.`);
      const w = await this.hub.engine.write(a.key, a.path, this.hub.author(a.caller as Caller), { kind: 'tag', name, from, message });
      if (!w.ok) throw w.code === 'NOT_FOUND' ? notFound('The source commit was not found.') : new HttpProblem(500, 'INTERNAL', w.message);
      const after = (await this.hub.engine.tags(a.key, a.path)).find((t) => t.name === name);
      if (!after) throw new HttpProblem(500, 'INTERNAL', 'The tag was not created.');
      return this.toTag(after);
    });
    this.hub.touch(a.key);
    sendData(ctx, 201, tag);
  }

  private async listReleases(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'read');
    const all = this.hub.store.state.releases
      .filter((r) => r.db === a.key)
      .sort((x, y) => y.created_at.localeCompare(x.created_at))
      .map(toRelease);
    const page = this.hub.paginator.page(`releases:${a.key}`, all, pageToken(ctx));
    sendData(ctx, 200, page.items, page.next ? { next_page_token: page.next } : {});
  }

  private async createRelease(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'write');
    const body = validateBody(await readJson(ctx.req), {
      tag: { type: 'string', required: true, check: checkBranchName },
      title: { type: 'string', required: true, check: (v: string) => (v.trim() === '' ? 'must not be empty.' : undefined) },
      commit_sha: {
        type: 'string',
        required: true,
        check: (v: string) => (isDoltHash(v) ? undefined : 'must be a 32-character commit hash (0-9a-v).'),
      },
      description: { type: 'string' },
      create_tag_if_not_exists: { type: 'boolean' },
    });
    const tagName = body['tag'] as string;
    const sha = body['commit_sha'] as string;
    const rel = await this.hub.engine.withLocks([a.key], async () => {
      if (this.hub.store.state.releases.some((r) => r.db === a.key && r.tag === tagName))
        throw conflict(`A release with tag "${tagName}" already exists.`);
      const hex = doltHashToHex(sha);
      const resolved = await this.hub.engine.resolve(a.key, a.path, { commitHex: hex });
      if (!resolved) throw notFound(`Commit ${sha} was not found in ${a.key}.`);
      const tag = (await this.hub.engine.tags(a.key, a.path)).find((t) => t.name === tagName);
      if (tag) {
        if (tag.hashHex !== hex) throw conflict(`Tag "${tagName}" exists but points at ${hexToDoltHash(tag.hashHex)}, not ${sha}.`);
      } else if (body['create_tag_if_not_exists'] === true) {
        const w = await this.hub.engine.write(a.key, a.path, this.hub.author(a.caller as Caller), {
          kind: 'tag',
          name: tagName,
          from: { commitHex: hex },
        });
        if (!w.ok) throw new HttpProblem(500, 'INTERNAL', w.message);
      } else {
        throw notFound(`Tag "${tagName}" does not exist; create it first or set create_tag_if_not_exists.`);
      }
      const t = now();
      const r = {
        db: a.key,
        tag: tagName,
        title: body['title'] as string,
        commit_sha: sha,
        created_at: t,
        updated_at: t,
        ...(body['description'] ? { description: body['description'] as string } : {}),
      };
      this.hub.store.mutate((s) => s.releases.push(r));
      return r;
    });
    sendData(ctx, 201, toRelease(rel));
  }
}

function toRelease(r: {
  tag: string;
  title: string;
  commit_sha: string;
  description?: string;
  created_at: string;
  updated_at: string;
}): Release {
  const out: Release = { tag: r.tag, title: r.title, commit_sha: r.commit_sha, created_at: r.created_at, updated_at: r.updated_at };
  if (r.description) out.description = r.description;
  return out;
}
