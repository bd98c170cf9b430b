// DoltLite (the hub's engine: SQLite with Dolt inside) in memory, for tests that must see the
// SQL a module builds actually run. Cells come back as the hub sends them: text, NULL or
// `<binary>`, read with sqlite3_column_text so 64-bit integers keep every digit.
import init from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { Sqlite3, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';

export type EngineCell = string | null;

const SQLITE_BLOB = 4;
const SQLITE_NULL = 5;

let engine: Promise<Sqlite3> | undefined;
let seq = 0;

export class SqliteEngine {
  private constructor(
    private readonly sqlite3: Sqlite3,
    private readonly db: Sqlite3Db,
  ) {}

  static async open(): Promise<SqliteEngine> {
    engine ??= init({ print: () => undefined, printErr: () => undefined });
    const sqlite3 = await engine;
    return new SqliteEngine(sqlite3, new sqlite3.oo1.DB(`/test-${process.pid}-${++seq}.db`, 'c'));
  }

  exec(sql: string, opts?: { bind?: unknown[] }): void {
    if (opts) this.db.exec(sql, opts);
    else this.db.exec(sql);
  }

  /** Every row of a query, cells as text. */
  rows(sql: string): EngineCell[][] {
    const stmt = this.db.prepare(sql);
    const { capi } = this.sqlite3;
    const out: EngineCell[][] = [];
    try {
      while (stmt.step()) {
        const row: EngineCell[] = [];
        for (let i = 0; i < stmt.columnCount; i++) {
          const t = capi.sqlite3_column_type(stmt.pointer, i);
          row.push(t === SQLITE_NULL ? null : t === SQLITE_BLOB ? '<binary>' : capi.sqlite3_column_text(stmt.pointer, i));
        }
        out.push(row);
      }
    } finally {
      stmt.finalize();
    }
    return out;
  }

  close(): void {
    this.db.close();
  }
}
