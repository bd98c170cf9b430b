// The read-only SQL endpoint (GET with a query string, POST with a JSON body).
import type { EngineQueryResult } from '../selectRunner';
import { EngineCancelledError, EngineTimeoutError } from '../engineErrors';
import type { Revision } from '../engineProtocol';
import { doltHashToHex, isDoltHash } from '../doltHash';
import { badRequest, notFound, quoted, readJson, sendData, sendDataWithRows } from '../http';
import type { Ctx } from '../http';
import { route } from '../router';
import type { Route } from '../router';
import { positiveIntParam, validateBody } from '../validate';
import { DB } from '../hubCommon';
import type { EndpointHost } from '../hubCommon';

const DEFAULT_LIMIT = 1000;
export const ANONYMOUS_PREFIX = 'anonymous:';
const DEFAULT_TIMEOUT_MS = 30000;
const MAX_TIMEOUT_MS = 60000;

export class SqlEndpoint {
  constructor(private readonly hub: EndpointHost) {}

  routes(): Route[] {
    return [route(`${DB}/sql`, { GET: (c, p) => this.sql(c, p, 'GET'), POST: (c, p) => this.sql(c, p, 'POST') })];
  }

  private async sql(ctx: Ctx, p: Record<string, string>, method: 'GET' | 'POST'): Promise<void> {
    const a = this.hub.access(ctx, p, 'read');
    const { ref, q, limit, timeoutMs } = method === 'GET' ? sqlQueryParams(ctx) : await sqlBody(ctx);
    const effLimit = Math.min(limit ?? DEFAULT_LIMIT, this.hub.opts.maxRows);
    const effTimeout = Math.min(timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
    const rev = this.revision(ref);
    let result: EngineQueryResult & { ref_not_found?: boolean };
    try {
      // Each user has a share of the query workers, and so has each address anonymous calls come
      // from (one anonymous caller's long query does not hold up the others').
      const caller = a.caller ? `user:${a.caller.user.username}` : anonymousCaller(ctx);
      // A caller that goes away (a cancelled query, a closed tab) frees its share at once, not at
      // the query's deadline: its next query would otherwise be refused with 429 meanwhile.
      const gone = new AbortController();
      const onClose = (): void => {
        if (!ctx.res.writableFinished) gone.abort();
      };
      ctx.res.once('close', onClose);
      try {
        result = await this.hub.engine.query(a.key, a.path, a.rec.name, rev, q, effLimit, effTimeout, caller, gone.signal);
      } finally {
        ctx.res.off('close', onClose);
      }
      if (gone.signal.aborted) return;
    } catch (e) {
      if (e instanceof EngineCancelledError) return;
      if (e instanceof EngineTimeoutError) {
        result = { columns: [], rows: [], status: 'timeout', message: `The query ran longer than ${effTimeout} ms and was stopped.` };
      } else {
        throw e;
      }
    }
    if (result.ref_not_found) throw notFound(`No branch, tag or commit named ${quoted(ref)} in ${a.key}.`);
    delete result.ref_not_found;
    if (result.message === '' || result.message === undefined) delete result.message;
    const { rowsJson, rows, ...rest } = result;
    if (rowsJson === undefined) sendData(ctx, 200, { ...rest, rows });
    else sendDataWithRows(ctx, 200, rest, rowsJson);
  }

  private revision(ref: string): Revision {
    if (isDoltHash(ref)) return { commitHex: doltHashToHex(ref) };
    if (ref.includes('@') || /[\x00-\x1f]/.test(ref)) throw badRequest('Parameter "ref" is not a valid branch, tag or commit.');
    return { ref };
  }
}

/**
 * The share an anonymous request counts against: its address, as the connection shows it (never a
 * header the client chooses). Behind a proxy every anonymous caller has the proxy's address.
 */
export function anonymousCaller(ctx: Ctx): string {
  const address = (ctx.req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
  return `${ANONYMOUS_PREFIX}${address}`;
}

interface SqlRequest {
  ref: string;
  q: string;
  limit: number | undefined;
  timeoutMs: number | undefined;
}

/** GET /sql: the query string's parameters, each checked. */
function sqlQueryParams(ctx: Ctx): SqlRequest {
  const u = new URL(ctx.req.url ?? '/', 'http://hub.invalid');
  for (const k of u.searchParams.keys()) {
    if (!['ref', 'q', 'limit', 'timeout_ms'].includes(k)) throw badRequest(`Unknown query parameter ${quoted(k)}.`);
  }
  const ref = u.searchParams.get('ref');
  const q = u.searchParams.get('q');
  if (ref === null || ref === '') throw badRequest('Parameter "ref" is required.');
  if (q === null || q.trim() === '') throw badRequest('Parameter "q" is required.');
  return {
    ref,
    q,
    limit: positiveIntParam('limit', u.searchParams.get('limit')),
    timeoutMs: positiveIntParam('timeout_ms', u.searchParams.get('timeout_ms')),
  };
}

/** POST /sql: the JSON body's fields, each checked. */
async function sqlBody(ctx: Ctx): Promise<SqlRequest> {
  const body = validateBody(await readJson(ctx.req), {
    ref: { type: 'string', required: true, check: (v: string) => (v === '' ? 'must not be empty.' : undefined) },
    q: { type: 'string', required: true, check: (v: string) => (v.trim() === '' ? 'must not be empty.' : undefined) },
    limit: { type: 'integer', check: (v: number) => (v > 0 ? undefined : 'must be a positive integer.') },
    timeout_ms: { type: 'integer', check: (v: number) => (v > 0 ? undefined : 'must be a positive integer.') },
  });
  return {
    ref: body['ref'] as string,
    q: body['q'] as string,
    limit: body['limit'] as number | undefined,
    timeoutMs: body['timeout_ms'] as number | undefined,
  };
}
