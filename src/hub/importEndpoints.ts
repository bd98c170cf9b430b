// Imports: upload sessions, the storage listener that takes pre-signed part PUTs (another
// origin, like object storage), and createImport with its integrity checks and operation.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createReadStream, createWriteStream, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ImportUpload, OperationResult } from '../shared/wire';
import { IMPORT_FILE_TYPES, IMPORT_OPERATIONS } from '../shared/wire';
import type { UploadRecord } from './store';
import type { ImportSpec } from './engineProtocol';
import { HttpProblem, badRequest, conflict, forbidden, newRequestId, notFound, readJson, sendData, sendProblem } from './http';
import type { Ctx } from './http';
import { checkBranchName, isValidName, validateBody } from './validate';
import type { Schema } from './validate';
import { filePartsMd5 } from './credentials';
import { SessionBytes, receivePart } from './partReceiver';
import { hexToDoltHash } from './doltHash';
import { route } from './router';
import type { Route } from './router';
import { DB, OpFailure, now } from './hubCommon';
import type { Access, Caller, EndpointHost } from './hubCommon';

const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;
/** Where the API listener also takes part PUTs, for part URLs under --public-url. */
export const STORAGE_PATH = '/storage';
const MAX_PARTS = 10000;

/** Dolt's tests table: the one system table an import may write. */
const TESTS_TABLE = 'dolt_tests';

export class ImportEndpoints {
  /** Upload sessions whose import is running: their folders stay until it ends. */
  private readonly importing = new Set<string>();
  /** Bytes per session, stored and arriving; a session is not swept under a running upload. */
  private readonly receiving = new SessionBytes();
  private sweeper?: NodeJS.Timeout;

  /** The time upload expiry is measured against (HubOptions.clock). */
  private readonly clock: () => number;

  constructor(private readonly hub: EndpointHost) {
    this.clock = hub.opts.clock ?? Date.now;
  }

  /** Sweeps expired upload sessions now and then every `everyMs` while the hub runs. */
  startSweeping(everyMs = Math.min(60_000, this.hub.opts.uploadTtlSeconds * 1000)): void {
    this.sweep();
    this.sweeper = setInterval(() => this.sweep(), everyMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Removes the parts and the record of every expired session that no import is using. */
  sweep(): void {
    const t = this.clock();
    const stale = Object.entries(this.hub.store.state.uploads).filter(
      ([id, u]) => !this.importing.has(id) && !this.receiving.has(id) && Date.parse(u.expires_at) < t,
    );
    if (stale.length === 0) return;
    this.hub.store.mutate((s) => {
      for (const [id] of stale) {
        rmSync(join(this.hub.opts.dataDir, 'uploads', id), { recursive: true, force: true });
        delete s.uploads[id];
      }
    });
  }

  routes(): Route[] {
    return [
      route(`${DB}/imports/uploads`, { POST: (c, p) => this.createUpload(c, p) }),
      route(`${DB}/imports`, { POST: (c, p) => this.createImport(c, p) }),
    ];
  }

  async createUpload(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'write');
    const body = validateBody(await readJson(ctx.req), {
      content_length: {
        type: 'integer',
        required: true,
        check: (v: number) => (v >= 1 && v <= MAX_UPLOAD_BYTES ? undefined : `must be between 1 and ${MAX_UPLOAD_BYTES}.`),
      },
      num_parts: {
        type: 'integer',
        required: true,
        check: (v: number) => (v >= 1 && v <= MAX_PARTS ? undefined : `must be between 1 and ${MAX_PARTS}.`),
      },
      file_type: { type: 'string', required: true, enum: IMPORT_FILE_TYPES },
    });
    const length = body['content_length'] as number;
    const parts = body['num_parts'] as number;
    if (parts > length) throw badRequest('Field "num_parts" must not exceed "content_length".');
    const id = randomBytes(12).toString('hex');
    const expires = this.clock() + this.hub.opts.uploadTtlSeconds * 1000;
    const rec: UploadRecord = {
      token: randomBytes(24).toString('base64url'),
      db: a.key,
      contents_key: `uploads/${a.rec.owner}/${a.rec.name}/${id}`,
      content_length: length,
      num_parts: parts,
      file_type: body['file_type'] as string,
      created_by: (a.caller as Caller).user.username,
      expires_at: new Date(expires).toISOString(),
      parts: {},
    };
    this.hub.store.mutate((s) => (s.uploads[id] = rec));
    // The import runs in the operation lane: its worker, if not started yet, starts while the parts upload.
    this.hub.engine.warm('operation');
    const upload: ImportUpload = {
      token: rec.token,
      contents_key: rec.contents_key,
      parts: Array.from({ length: parts }, (_, i) => ({ part_number: i + 1, url: this.partUrl(id, i + 1, expires) })),
      http_method: 'PUT',
      headers: {},
    };
    sendData(ctx, 201, upload);
  }

  private partSignature(id: string, part: number, expires: number): string {
    return createHmac('sha256', this.hub.store.state.secret).update(`part:${id}:${part}:${expires}`).digest('base64url');
  }

  /**
   * On the storage listener, or under STORAGE_PATH of --public-url when the hub is reached through
   * it (a proxy that forwards one origin): never the listening address a client cannot reach.
   */
  private partUrl(id: string, part: number, expiresMs: number): string {
    const exp = Math.floor(expiresMs / 1000);
    const base = this.hub.opts.publicUrl !== undefined ? this.hub.opts.publicUrl.replace(/\/+$/, '') + STORAGE_PATH : this.hub.uploadUrl;
    return `${base}/parts/${id}/${part}?expires=${exp}&signature=${this.partSignature(id, part, exp)}`;
  }

  /** The second listener: a stand-in for object storage. No Authorization, pre-signed URLs only. */
  async dispatchUpload(req: IncomingMessage, res: ServerResponse, prefix = ''): Promise<void> {
    const requestId = newRequestId();
    const url = new URL(req.url ?? '/', 'http://storage.invalid');
    url.pathname = url.pathname.slice(prefix.length);
    const ctx: Ctx = { req, res, requestId, path: url.pathname };
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'ETag',
      'Access-Control-Allow-Methods': 'PUT',
      'Access-Control-Allow-Headers': '*',
    };
    try {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors);
        res.end();
        return;
      }
      const { id, part, up } = this.signedPart(req, url);
      const etag = await this.storePart(req, id, part, up);
      res.writeHead(200, { ...cors, ETag: etag, 'Content-Length': 0, 'X-Request-Id': requestId });
      res.end();
    } catch (e) {
      req.resume();
      if (e instanceof HttpProblem) sendProblem(ctx, e);
      else {
        this.hub.opts.logger.error(e instanceof Error ? e : String(e));
        sendProblem(ctx, new HttpProblem(500, 'INTERNAL', 'Unexpected storage error.'));
      }
    }
  }

  /** The session and part a pre-signed part URL names, once its signature and expiry are checked. */
  private signedPart(req: IncomingMessage, url: URL): { id: string; part: number; up: UploadRecord } {
    const m = /^\/parts\/([0-9a-f]{24})\/([1-9][0-9]{0,4})$/.exec(url.pathname);
    if (!m) throw notFound('No such upload part.');
    if (req.method !== 'PUT') throw new HttpProblem(405, 'METHOD_NOT_ALLOWED', 'Only PUT is supported.', { Allow: 'PUT' });
    const id = m[1] as string;
    const part = Number(m[2]);
    const exp = Number(url.searchParams.get('expires'));
    const want = Buffer.from(this.partSignature(id, part, exp));
    const got = Buffer.from(url.searchParams.get('signature') ?? '');
    if (!Number.isFinite(exp) || want.length !== got.length || !timingSafeEqual(want, got))
      throw forbidden('The part URL signature is not valid.');
    if (this.clock() / 1000 > exp) throw forbidden('The part URL has expired; create a new upload session.');
    const up = this.hub.store.state.uploads[id];
    if (!up || up.consumed || part > up.num_parts) throw notFound('No such upload part.');
    return { id, part, up };
  }

  /**
   * Streams the part to disk and records it; returns its ETag. A part may hold what the session's
   * content_length leaves after the other parts, those stored and those arriving at the same time.
   */
  private async storePart(req: IncomingMessage, id: string, part: number, up: UploadRecord): Promise<string> {
    const key = String(part);
    const allowance = this.receiving.open(
      id,
      up.content_length,
      () => Object.values(up.parts).reduce((sum, p) => sum + p.size, 0),
      () => up.parts[key]?.size ?? 0,
    );
    let received;
    try {
      received = await receivePart(req, join(this.hub.opts.dataDir, 'uploads', id), `part-${part}`, allowance);
    } catch (e) {
      allowance.done(undefined);
      throw e;
    }
    if (this.hub.store.state.uploads[id] !== up || up.consumed) {
      allowance.done(undefined);
      throw notFound('No such upload part.');
    }
    const etag = `"${received.md5.toString('hex')}"`;
    const replaced = up.parts[key]?.size ?? 0;
    try {
      this.hub.store.mutate(() => (up.parts[key] = { etag, md5_b64: received.md5.toString('base64'), size: received.size }));
    } finally {
      allowance.done(replaced);
    }
    return etag;
  }

  async createImport(ctx: Ctx, p: Record<string, string>): Promise<void> {
    const a = this.hub.access(ctx, p, 'write');
    const c = a.caller as Caller;
    const body = validateBody(await readJson(ctx.req), IMPORT_SCHEMA);
    const pks = body['primary_keys'] as unknown[];
    if (!pks.every((k) => typeof k === 'string' && k !== '')) throw badRequest('Field "primary_keys" must be an array of column names.');
    const columnMap = body['column_map'] as Record<string, unknown> | undefined;
    if (columnMap && !Object.values(columnMap).every((v) => typeof v === 'string' && v !== ''))
      throw badRequest('Field "column_map" must map column names to column names.');
    // The database's tests are a table too, so adding, editing or deleting one is a reviewable
    // import. Dolt lets dolt_tests be written like any table (INSERT, REPLACE, DELETE) but not
    // given another schema: so `update` (an upsert, or a `sql` file of deletions) and `replace`
    // (emptied, then the file's rows) are taken, `create` and `overwrite` (a new table) refused.
    if (body['table_name'] === TESTS_TABLE && !['update', 'replace'].includes(String(body['import_operation'])))
      throw badRequest(`Field "import_operation" must be "update" or "replace" for ${TESTS_TABLE}: its schema is fixed.`);
    const [uploadId, up] = this.sessionFor(body, a);
    const order = completedParts(body, up);
    const branch = body['branch_name'] as string;
    const prBranch = body['pull_request_branch_name'] as string | undefined;
    const branches = await this.hub.branchNames(a);
    if (!branches.has(branch)) throw notFound(`Branch "${branch}" was not found in ${a.key}.`);
    if (prBranch !== undefined && branches.has(prBranch))
      throw conflict(`Branch "${prBranch}" already exists; choose a new name for the pull request branch.`);
    this.hub.store.mutate(() => (up.consumed = true));
    this.importing.add(uploadId);
    const op = this.hub.newOperation(a.key, 'import', c);
    const fileName = body['file_name'] as string;
    const table = body['table_name'] as string;
    const operation = body['import_operation'] as string;
    const spec: ImportSpec = {
      filePath: join(this.hub.opts.dataDir, 'uploads', uploadId, 'assembled'),
      fileType: up.file_type,
      table,
      operation,
      primaryKeys: pks as string[],
      columnMap: columnMap as Record<string, string> | undefined,
      branch,
      newBranch: prBranch,
      commitMessage: (body['commit_message'] as string | undefined) ?? `Import ${fileName} into ${table} (${operation})`,
    };
    this.hub.runOperation(op, () => this.runImport(a, c, uploadId, order.length, spec, fileName));
    sendData(ctx, 202, this.hub.operationRef(ctx, op));
  }

  /** The upload session the body's token names, checked against the body and the database. */
  private sessionFor(body: Record<string, unknown>, a: Access): [string, UploadRecord] {
    const entry = Object.entries(this.hub.store.state.uploads).find(([, u]) => u.token === body['token']);
    if (!entry) throw badRequest('Field "token" does not name an upload session.');
    const [, up] = entry;
    if (up.db !== a.key) throw badRequest('Field "token" names an upload session of another database.');
    if (up.consumed) throw badRequest('Field "token": this upload session was already imported.');
    if (Date.parse(up.expires_at) < this.clock()) throw badRequest('Field "token": the upload session has expired; upload the file again.');
    if (body['contents_key'] !== up.contents_key) throw badRequest('Field "contents_key" does not match the upload session.');
    if (body['file_size'] !== up.content_length)
      throw badRequest(
        `Field "file_size" (${String(body['file_size'])}) does not match the upload session's content_length (${up.content_length}).`,
      );
    if (body['file_type'] !== up.file_type) throw badRequest(`Field "file_type" does not match the upload session (${up.file_type}).`);
    return entry;
  }

  /** Assembles the parts and imports them on the database's lock; the result names the commit and the pull. */
  private async runImport(
    a: Access,
    c: Caller,
    uploadId: string,
    parts: number,
    spec: ImportSpec,
    fileName: string,
  ): Promise<OperationResult> {
    const dir = join(this.hub.opts.dataDir, 'uploads', uploadId);
    try {
      await assemble(
        Array.from({ length: parts }, (_, i) => join(dir, `part-${i + 1}`)),
        spec.filePath,
      );
      return await this.hub.engine.withLocks([a.key], async () => {
        const w = await this.hub.engine.write(a.key, a.path, this.hub.author(c), { kind: 'import', spec });
        if (!w.ok)
          throw new OpFailure(
            w.code === 'NOT_FOUND' ? 404 : w.code === 'CONFLICT' ? 409 : 400,
            w.code === 'CONFLICT' ? 'CONFLICT' : 'VALIDATION_FAILED',
            'Import failed',
            w.message,
          );
        this.hub.store.state.databases[a.key]!.last_write_at = now();
        const result: OperationResult = {};
        if (w.commitHex) result.commit_sha = hexToDoltHash(w.commitHex);
        if (spec.newBranch !== undefined) {
          const pull = this.hub.addPull(
            a.key,
            c.user.username,
            spec.commitMessage.split('\n')[0] as string,
            `Imports \`${fileName}\` into \`${spec.table}\` (${spec.operation}).`,
            { database: { owner: a.rec.owner, name: a.rec.name }, branch_name: spec.newBranch },
            { database: { owner: a.rec.owner, name: a.rec.name }, branch_name: spec.branch },
          );
          result.pull_id = pull.pull_number;
        }
        return result;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      this.importing.delete(uploadId);
    }
  }
}

const IMPORT_SCHEMA: Schema = {
  branch_name: { type: 'string', required: true, check: checkBranchName },
  table_name: {
    type: 'string',
    required: true,
    check: (v: string) =>
      v === TESTS_TABLE || (isValidName(v) && !/^(dolt_|sqlite_)/i.test(v))
        ? undefined
        : `must be letters, digits, "_" or "-" and not start with dolt_ or sqlite_ (but ${TESTS_TABLE}).`,
  },
  file_name: { type: 'string', required: true, check: (v: string) => (v.trim() === '' ? 'must not be empty.' : undefined) },
  file_size: { type: 'integer', required: true },
  file_type: { type: 'string', required: true, enum: IMPORT_FILE_TYPES },
  import_operation: { type: 'string', required: true, enum: IMPORT_OPERATIONS },
  token: { type: 'string', required: true },
  contents_key: { type: 'string', required: true },
  completed_parts: { type: 'array', required: true },
  file_parts_md5: { type: 'string', required: true },
  primary_keys: { type: 'array', required: true },
  commit_message: { type: 'string' },
  pull_request_branch_name: { type: 'string', check: checkBranchName },
  column_map: { type: 'object' },
};

/** The session's parts in order, once `completed_parts` and `file_parts_md5` match what was uploaded. */
function completedParts(body: Record<string, unknown>, up: UploadRecord): UploadRecord['parts'][string][] {
  const completed = body['completed_parts'] as unknown[];
  if (completed.length !== up.num_parts) throw badRequest(`Field "completed_parts" must list all ${up.num_parts} parts.`);
  const seen = new Set<number>();
  for (const cp of completed) {
    const o = validateBody(
      cp,
      { part_number: { type: 'integer', required: true }, etag: { type: 'string', required: true } },
      'completed_parts item',
    );
    const n = o['part_number'] as number;
    if (n < 1 || n > up.num_parts || seen.has(n))
      throw badRequest(`Field "completed_parts": part_number ${n} is out of range or repeated.`);
    seen.add(n);
    const stored = up.parts[String(n)];
    if (!stored) throw badRequest(`Field "completed_parts": part ${n} was never uploaded.`);
    if (stripQuotes(o['etag'] as string) !== stripQuotes(stored.etag))
      throw badRequest(`Field "completed_parts": the ETag of part ${n} does not match the uploaded part.`);
  }
  const order = Array.from({ length: up.num_parts }, (_, i) => up.parts[String(i + 1)]!);
  const total = order.reduce((sum, x) => sum + x.size, 0);
  if (total !== up.content_length) throw badRequest(`The uploaded parts hold ${total} bytes, not the declared ${up.content_length}.`);
  if (body['file_parts_md5'] !== filePartsMd5(order.map((x) => x.md5_b64)))
    throw badRequest('Field "file_parts_md5" does not match the uploaded parts.');
  return order;
}

function stripQuotes(s: string): string {
  return s.replace(/^W\//, '').replace(/^"|"$/g, '');
}

/**
 * Concatenates the parts into one file, streamed: a part is never held whole in memory. One
 * pipeline whose source reads the parts in turn: a pipeline per part into the same write stream
 * (`end: false`) leaves that pipeline's error/close/finish listeners on the stream, one set per
 * part, which Node reports as a MaxListenersExceededWarning past 10 parts.
 */
async function assemble(parts: string[], out: string): Promise<void> {
  await pipeline(async function* () {
    for (const p of parts) yield* createReadStream(p);
  }, createWriteStream(out));
  for (const p of parts) {
    try {
      unlinkSync(p);
    } catch {
      /* already removed */
    }
  }
}
