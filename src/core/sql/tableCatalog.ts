// What tables and views a database has at a ref, and each one's columns: the SQL the Tables node of
// the tree and the table browser send, and the parsers of its answers. MySQL forms that Dolt
// answers as they are (and the hub translates): `SHOW FULL TABLES` (name and `Table_type`,
// `BASE TABLE` or `VIEW`) and `DESCRIBE t` (Field, Type, Null, Key, Default, Extra).
import type { SqlPort } from './sqlPort';
import type { QueryResult } from '../../shared/wire';
import type { TableColumnInfo } from './tableQuery';
import { quoteIdentifier } from './quote';

export type TableKind = 'table' | 'view';

export interface TableEntry {
  name: string;
  kind: TableKind;
}

/** Thrown when the server answered a catalog query with anything but success. */
export class CatalogError extends Error {
  override readonly name = 'CatalogError';
  constructor(
    message: string,
    /** The answer's status (`error`, `timeout`, ...). */
    readonly status: string,
  ) {
    super(message);
  }
}

/** Lists tables and views (Dolt hides its own `dolt_*` system tables from it). */
export const SHOW_FULL_TABLES = 'SHOW FULL TABLES';

/** The columns of one table or view. */
export function buildDescribe(table: string): string {
  return `DESCRIBE ${quoteIdentifier(table)}`;
}

function ensureSuccess(r: QueryResult, what: string): void {
  if (r.status !== 'success')
    throw new CatalogError(r.message ? `Could not read ${what}: ${r.message}` : `Could not read ${what} (${r.status}).`, r.status);
}

function columnIndex(r: QueryResult, test: (lowerName: string) => boolean): number {
  return r.columns.findIndex((c) => test(c.name.toLowerCase()));
}

/**
 * Tables and views from a `SHOW FULL TABLES` answer, sorted by name. The name is the column named
 * `Tables_in_<db>` (else the first); the kind is `Table_type` (`VIEW`, anything else a table).
 */
export function parseFullTables(r: QueryResult): TableEntry[] {
  ensureSuccess(r, 'the tables');
  let nameAt = columnIndex(r, (n) => n.startsWith('tables_in_'));
  if (nameAt < 0) nameAt = 0;
  const typeAt = columnIndex(r, (n) => n === 'table_type');
  const out: TableEntry[] = [];
  for (const row of r.rows) {
    const name = row[nameAt];
    if (typeof name !== 'string' || name === '') continue;
    const type = typeAt >= 0 ? row[typeAt] : null;
    out.push({ name, kind: typeof type === 'string' && type.toUpperCase() === 'VIEW' ? 'view' : 'table' });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The columns of a `DESCRIBE t` answer in table order; the key from `Key = PRI`. */
export function parseColumnsOf(table: string, r: QueryResult): TableColumnInfo[] {
  ensureSuccess(r, `the columns of ${table}`);
  const field = columnIndex(r, (n) => n === 'field');
  if (field < 0) throw new CatalogError(`Could not read the columns of ${table}: the answer has no Field column.`, 'error');
  const type = columnIndex(r, (n) => n === 'type');
  const nul = columnIndex(r, (n) => n === 'null');
  const key = columnIndex(r, (n) => n === 'key');
  const out: TableColumnInfo[] = [];
  for (const row of r.rows) {
    const name = row[field];
    if (typeof name !== 'string') continue;
    const primaryKey = key >= 0 && (row[key] ?? '').toUpperCase() === 'PRI';
    out.push({
      name,
      type: type >= 0 ? (row[type] ?? '') : '',
      primaryKey,
      nullable: primaryKey ? false : nul >= 0 ? (row[nul] ?? '').toUpperCase() === 'YES' : true,
    });
  }
  return out;
}

/** Tables of one database, columns of one table: far below any server's cap. */
export const CATALOG_ROW_LIMIT = 10_000;

/**
 * Tables and columns by commit: a commit's schema never changes, so each is asked once per
 * commit (a ref that moves brings a new commit, hence a new read). Failures are not kept, so a
 * retry asks again. Shared by the tree's Tables node and the table browser.
 */
export class TableCatalogCache {
  private readonly entries = new Map<string, { tables?: Promise<TableEntry[]>; columns: Map<string, Promise<TableColumnInfo[]>> }>();

  constructor(
    private readonly sql: Pick<SqlPort, 'run'>,
    /** Commits remembered (oldest forgotten first). */
    private readonly maxCommits = 64,
  ) {}

  /** How many statements were sent (for tests: a commit is never asked twice). */
  requests = 0;

  private run(hostId: string, db: { owner: string; name: string }, commit: string, sql: string): Promise<QueryResult> {
    return this.sql.run({ hostId, db, ref: commit }, sql, { limit: CATALOG_ROW_LIMIT });
  }

  tables(hostId: string, db: { owner: string; name: string }, commit: string): Promise<TableEntry[]> {
    const e = this.entry(hostId, db, commit);
    if (!e.tables) {
      this.requests++;
      const p = this.run(hostId, db, commit, SHOW_FULL_TABLES).then(parseFullTables);
      e.tables = p;
      p.catch(() => {
        if (e.tables === p) delete e.tables;
      });
    }
    return e.tables;
  }

  columns(hostId: string, db: { owner: string; name: string }, commit: string, table: string): Promise<TableColumnInfo[]> {
    const e = this.entry(hostId, db, commit);
    let p = e.columns.get(table);
    if (!p) {
      this.requests++;
      const q = this.run(hostId, db, commit, buildDescribe(table)).then((r) => parseColumnsOf(table, r));
      p = q;
      e.columns.set(table, q);
      q.catch(() => {
        if (e.columns.get(table) === q) e.columns.delete(table);
      });
    }
    return p;
  }

  private entry(hostId: string, db: { owner: string; name: string }, commit: string) {
    const key = `${hostId}\u0000${db.owner}/${db.name}\u0000${commit}`;
    let e = this.entries.get(key);
    if (e) {
      // Most recently used last, so the oldest is the first key.
      this.entries.delete(key);
    } else {
      e = { columns: new Map() };
      while (this.entries.size >= this.maxCommits) this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, e);
    return e;
  }
}
