// The rows of an import go into the engine a batch at a time: one JSON text per batch, spread into
// rows by the engine's own `json_each`, instead of one bind per cell from JavaScript (each bound
// string is an allocation and a UTF-8 encode across the wasm boundary: 300,000 rows of 4 columns
// took 4.6 s bound row by row and 2.8 s in batches, the same values and types stored). A batch the
// engine refuses (a key twice, a NOT NULL) is rolled back to its savepoint and inserted again row
// by row, so the failure names its row exactly as before.
import type { Sqlite3Db, Sqlite3Stmt } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';

/** Rows per batch: about 100 KiB of JSON for a row of a few short columns. */
export const IMPORT_BATCH_ROWS = 2_000;

export type ImportValue = string | number | null;

/** Where the INSERT's rows come from: one row of `?` parameters, or a JSON array of rows. */
export function rowsSource(width: number, from: 'values' | 'json'): string {
  if (from === 'values') return `VALUES (${Array.from({ length: width }, () => '?').join(', ')})`;
  // WHERE true: an upsert's ON CONFLICT after a SELECT would otherwise read as a join constraint.
  return `SELECT ${Array.from({ length: width }, (_, i) => `value->>${i}`).join(', ')} FROM json_each(?) WHERE true`;
}

export class ImportBatches {
  private readonly batch: ImportValue[][] = [];
  private firstRowNo = 1;
  private saved = 0;

  constructor(
    private readonly conn: Sqlite3Db,
    private readonly perBatch: Sqlite3Stmt,
    private readonly stepRow: (values: ImportValue[], rowNo: number) => void,
  ) {}

  /** Adds the checked values of row `rowNo` (rows come in order); inserts a full batch. */
  add(values: ImportValue[], rowNo: number): void {
    if (this.batch.length === 0) this.firstRowNo = rowNo;
    this.batch.push(values);
    if (this.batch.length >= IMPORT_BATCH_ROWS) this.flush();
  }

  /** Inserts what is waiting. */
  flush(): void {
    if (this.batch.length === 0) return;
    const json = JSON.stringify(this.batch);
    // A NUL inside a JSON string would not survive json_each's text: bind those rows one by one.
    if (json.includes('\\u0000')) this.rowByRow();
    else this.inOne(json);
    this.batch.length = 0;
  }

  private inOne(json: string): void {
    const name = `import_batch_${++this.saved}`;
    this.conn.exec(`SAVEPOINT ${name}`);
    try {
      this.perBatch.bind([json]);
      this.perBatch.step();
      this.perBatch.reset();
      // The engine may check the key only here (a key twice within one statement).
      this.conn.exec(`RELEASE ${name}`);
    } catch {
      try {
        this.perBatch.reset();
      } catch {
        // reset() reports the failed step's error again; the statement is reset all the same.
      }
      this.conn.exec(`ROLLBACK TO ${name}`);
      this.conn.exec(`RELEASE ${name}`);
      this.rowByRow();
    }
  }

  private rowByRow(): void {
    this.batch.forEach((values, i) => this.stepRow(values, this.firstRowNo + i));
  }
}
