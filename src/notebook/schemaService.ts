// The schema (tables and columns) of a database at a ref, for completion and hover. Fetched
// with `SHOW TABLES` and `DESCRIBE` through the SQL endpoint and cached by commit: a branch
// that has not moved reuses its schema, a moved branch gets a fresh one.
import type { Logger } from '../core/logger';
import type { QueryTarget } from '../shared/queryResultOutput';
import { parseDescribe, parseShowTables, type Schema } from '../core/sql/completion';
import { quoteIdentifier } from '../core/sql/quote';
import type { RefResolver } from './queryRunner';
import type { SqlPort } from '../core/sql/sqlPort';

const MAX_TABLES = 200;

export class SchemaService {
  private readonly byCommit = new Map<string, Promise<Schema>>();

  constructor(
    private readonly sql: Pick<SqlPort, 'at'>,
    private readonly refs: RefResolver,
    private readonly log: Logger,
  ) {}

  async schemaFor(target: QueryTarget, signal?: AbortSignal): Promise<Schema> {
    const res = await this.refs.resolve(target, { signal });
    // Without a commit (unknown ref) the ref itself is the key; it is refetched after the resolver's TTL.
    const key = `${target.hostId}\u0000${target.owner}/${target.name}\u0000${res.commit ?? `ref:${target.ref}`}`;
    let p = this.byCommit.get(key);
    if (!p) {
      p = this.fetch(target, res.commit ?? target.ref, signal);
      this.byCommit.set(key, p);
      p.catch(() => this.byCommit.delete(key));
      if (this.byCommit.size > 50) this.byCommit.delete(this.byCommit.keys().next().value as string);
    }
    return p;
  }

  private async fetch(target: QueryTarget, ref: string, signal?: AbortSignal): Promise<Schema> {
    const run = this.sql.at({ hostId: target.hostId, db: { owner: target.owner, name: target.name }, ref });
    const started = Date.now();
    const tables = parseShowTables(await run('SHOW TABLES', { limit: 5000, signal })).slice(0, MAX_TABLES);
    const out: Schema = { tables: [] };
    // A few at a time: fast enough for a typical schema, gentle on the server.
    for (let i = 0; i < tables.length; i += 4) {
      const batch = tables.slice(i, i + 4);
      const described = await Promise.all(batch.map((t) => run(`DESCRIBE ${quoteIdentifier(t)}`, { limit: 5000, signal })));
      batch.forEach((name, j) => out.tables.push({ name, columns: parseDescribe(described[j]!) }));
    }
    this.log.debug(`schema of ${target.owner}/${target.name}@${ref}: ${out.tables.length} tables in ${Date.now() - started} ms`);
    return out;
  }
}
