// An SQL import file of deletions: DELETE FROM t WHERE column = value [AND …] statements (the
// form sqlStatementParser.ts reads), streamed one by one. A file is one of deletions when its
// first statement that does something is a DELETE; a DELETE after that, or a row after a DELETE,
// is refused, so a file never mixes the two (the order of rows and deletions would matter).
import { ImportParseError } from '../importParseError';
import { translate } from './sqlReader';
import { parseStatement, type DeleteRows } from './sqlStatementParser';
import { StatementSource } from './sqlStatementSource';

export interface DeleteStatement extends DeleteRows {
  /** The file's line the statement starts on. */
  line: number;
}

export interface SqlDeleteFile {
  /** Every DELETE in file order; closes the file when done. */
  deletes(): AsyncGenerator<DeleteStatement>;
  close(): Promise<void>;
}

/** The file's deletions, or undefined when it is a file of rows (read it with openSqlReader). */
export async function openSqlDeletes(filePath: string, signal?: AbortSignal): Promise<SqlDeleteFile | undefined> {
  const source = new StatementSource(filePath, signal, translate);
  let first: DeleteStatement | undefined;
  try {
    first = await firstDelete(source, signal);
  } catch (err) {
    await source.close();
    throw err;
  }
  if (!first) {
    await source.close();
    return undefined;
  }
  const head = first;
  return {
    deletes: async function* () {
      try {
        yield head;
        for (;;) {
          signal?.throwIfAborted();
          const stmt = await source.next();
          if (!stmt) return;
          const parsed = parse(stmt.text, stmt.line);
          if (parsed.kind === 'ignored') continue;
          if (parsed.kind !== 'delete') throw mixed(stmt.line);
          yield { ...parsed, line: stmt.line };
        }
      } finally {
        await source.close();
      }
    },
    close: () => source.close(),
  };
}

/** The first DELETE when the first statement that does something is one. */
async function firstDelete(source: StatementSource, signal: AbortSignal | undefined): Promise<DeleteStatement | undefined> {
  for (;;) {
    signal?.throwIfAborted();
    const stmt = await source.next();
    if (!stmt) return undefined;
    const parsed = parse(stmt.text, stmt.line);
    if (parsed.kind === 'ignored') continue;
    return parsed.kind === 'delete' ? { ...parsed, line: stmt.line } : undefined;
  }
}

function parse(text: string, line: number): ReturnType<typeof parseStatement> {
  try {
    return parseStatement({ text, line });
  } catch (err) {
    throw translate(err);
  }
}

function mixed(line: number): ImportParseError {
  return new ImportParseError(
    'the file both deletes and inserts rows. A SQL import holds either rows (CREATE TABLE, INSERT) or deletions (DELETE … WHERE): send them as two imports.',
    { fileType: 'sql', reason: 'unsupported', line },
  );
}
