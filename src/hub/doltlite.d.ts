// The few parts of the DoltLite (sqlite3 WASM) JS API the hub uses. The package ships no types.
declare module '@dolthub/doltlite-wasm/sqlite3-node.mjs' {
  export interface Sqlite3Stmt {
    readonly pointer: number;
    readonly columnCount: number;
    getColumnName(i: number): string;
    step(): boolean;
    finalize(): void;
    bind(values: unknown[]): Sqlite3Stmt;
    bind(index: number, value: unknown): Sqlite3Stmt;
    clearBindings(): Sqlite3Stmt;
    getInt(i: number): number;
    reset(clearBindings?: boolean): Sqlite3Stmt;
  }
  export interface Sqlite3Db {
    readonly pointer: number;
    exec(sql: string, opts?: { bind?: unknown[] }): Sqlite3Db;
    prepare(sql: string): Sqlite3Stmt;
    selectValue(sql: string, bind?: unknown[]): unknown;
    selectValues(sql: string, bind?: unknown[]): unknown[];
    selectObjects(sql: string, bind?: unknown[]): Record<string, unknown>[];
    createFunction(
      name: string,
      fn: (ctx: number, ...args: unknown[]) => unknown,
      opts?: { arity?: number; deterministic?: boolean },
    ): Sqlite3Db;
    close(): void;
  }
  export interface Sqlite3Capi {
    sqlite3_js_db_export(db: number): Uint8Array;
    sqlite3_js_posix_create_file(path: string, data: Uint8Array | number, n?: number): void;
    sqlite3_malloc64(n: number | bigint): number;
    sqlite3_free(p: number): void;
    sqlite3_status64(op: number, pCurrent: number, pHighwater: number, reset: number): number;
    sqlite3_progress_handler(db: number, n: number, cb: ((arg: number) => number) | 0, arg: number): void;
    sqlite3_column_decltype(stmt: number, i: number): string | null;
    sqlite3_column_table_name(stmt: number, i: number): string | null;
    sqlite3_column_origin_name(stmt: number, i: number): string | null;
    sqlite3_column_type(stmt: number, i: number): number;
    sqlite3_column_text(stmt: number, i: number): string | null;
    sqlite3_column_int64(stmt: number, i: number): bigint | number;
    sqlite3_column_double(stmt: number, i: number): number;
    sqlite3_column_blob(stmt: number, i: number): number;
    sqlite3_column_bytes(stmt: number, i: number): number;
    sqlite3_bind_int64(stmt: number, i: number, v: bigint): number;
    sqlite3_bind_double(stmt: number, i: number, v: number): number;
    sqlite3_bind_null(stmt: number, i: number): number;
    sqlite3_bind_text(stmt: number, i: number, text: Uint8Array | string, n: number, destructor: number): number;
    sqlite3_result_text(ctx: number, text: number, n: number, destructor: number): void;
    readonly SQLITE_TRANSIENT: number;
    readonly SQLITE_WASM_DEALLOC: number;
    sqlite3_result_int64(ctx: number, v: bigint): void;
    sqlite3_result_double(ctx: number, v: number): void;
    sqlite3_changes(db: number): number;
    sqlite3_get_autocommit(db: number): number;
    sqlite3_set_authorizer(
      db: number,
      cb: ((user: number, code: number, a1: string | null, a2: string | null, a3: string | null, a4: string | null) => number) | 0,
      user: number,
    ): number;
    sqlite3_stmt_readonly(stmt: number): number;
    sqlite3_limit(db: number, id: number, value: number): number;
  }
  export interface Sqlite3 {
    capi: Sqlite3Capi;
    wasm: {
      memory: { buffer: ArrayBuffer };
      heap8u(): Uint8Array;
      alloc(n: number): number;
      peek64(p: number): bigint;
      /** The C library's own malloc and free: memory SQLite does not count against its heap limit. */
      exports: {
        malloc(n: number): number;
        free(p: number): void;
        /** The C functions themselves, without the JS wrapper's argument conversion and scoped allocation (diffCopyRead.ts). */
        sqlite3_column_type(stmt: number, i: number): number;
        sqlite3_column_double(stmt: number, i: number): number;
        sqlite3_column_text(stmt: number, i: number): number;
        sqlite3_column_bytes(stmt: number, i: number): number;
      };
    };
    WasmAllocError: new (...a: unknown[]) => Error;
    oo1: { DB: new (filename: string, flags: string) => Sqlite3Db };
    config: {
      warn: (...a: unknown[]) => void;
      error: (...a: unknown[]) => void;
      log: (...a: unknown[]) => void;
      debug: (...a: unknown[]) => void;
    };
  }
  const init: (opts?: {
    locateFile?: (file: string, dir: string) => string;
    print?: (...a: unknown[]) => void;
    printErr?: (...a: unknown[]) => void;
  }) => Promise<Sqlite3>;
  export default init;
}
