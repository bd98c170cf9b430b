// The statements of an SQL file one by one, split as the file streams in (a UTF-8 BOM dropped),
// for the import readers (sqlReader.ts, sqlDeletes.ts).
import { createReadStream, type ReadStream } from 'node:fs';
import { SqlStatementSplitter, type SqlStatement } from './sqlStatements';

/** The file's statements one by one, split as the file streams in (a UTF-8 BOM dropped). */
export class StatementSource {
  private readonly file: ReadStream;
  private readonly chunks: AsyncIterator<string>;
  private readonly splitter = new SqlStatementSplitter();
  private readonly queue: SqlStatement[] = [];
  private ended = false;
  private closed = false;
  private bomChecked = false;

  constructor(
    filePath: string,
    signal: AbortSignal | undefined,
    /** Turns a splitter's error into the reader's. */
    private readonly translate: (err: unknown) => unknown,
  ) {
    this.file = createReadStream(filePath, { encoding: 'utf8', ...(signal ? { signal } : {}) });
    this.chunks = this.file[Symbol.asyncIterator]() as AsyncIterator<string>;
  }

  /** The next statement; undefined at the end of the file. */
  async next(): Promise<SqlStatement | undefined> {
    while (this.queue.length === 0) {
      if (this.ended) return undefined;
      try {
        const r = await this.chunks.next();
        if (r.done) {
          this.ended = true;
          this.queue.push(...this.splitter.end());
        } else {
          this.queue.push(...this.splitter.push(this.stripBom(r.value)));
        }
      } catch (err) {
        throw this.translate(err);
      }
    }
    return this.queue.shift();
  }

  /** Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.file.destroy();
  }

  private stripBom(s: string): string {
    if (this.bomChecked) return s;
    this.bomChecked = true;
    return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
  }
}
