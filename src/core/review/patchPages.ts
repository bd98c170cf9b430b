// A table's SQL patch (DOLT_PATCH) read page by page in statement order, for a streamed export:
// a page the server cut short or timed out on stops the export (no partial file is kept).
// writePatchFile streams it into a file, reading the next page while it writes this one.
import { buildPatchQuery } from './doltQueries';
import type { ReviewRunner } from '../sql/sqlPort';
import { PartialDiffError } from './diffSource';
import type { RevisionPair } from './revisions';
import { parsePatchPage, patchScript, type PatchStatement } from './tableChanges';
import type { Cell } from '../../shared/wire';
import type { CellSource } from '../../shared/columnStore';
import { runExport, type PendingFile } from '../export/exportRun';
import type { ExportSink, ExportWriter } from '../export/exportWriters';

/** The patch's statements, a page at a time, as SQL text (one statement per line). */
export async function* patchPages(
  pair: RevisionPair,
  table: string,
  run: ReviewRunner,
  pageSize: number,
  signal: AbortSignal,
): AsyncGenerator<{ text: string; statements: number }> {
  let after: number | undefined;
  for (;;) {
    if (signal.aborted) return;
    const query = buildPatchQuery(pair, table, { pageSize, ...(after !== undefined ? { afterOrder: after } : {}) });
    const page = parsePatchPage(await run(query, { limit: pageSize + 1, signal }), pageSize);
    const items: PatchStatement[] = page.items;
    if (!page.completeness.complete) {
      // Cut at the server's row cap: go on after the last statement that came; a timeout stops.
      if (page.completeness.reason !== 'row_limit' || items.length === 0) {
        throw new PartialDiffError(
          `The server did not return the whole patch of ${table} (${page.completeness.message ?? page.completeness.reason}); nothing was saved.`,
        );
      }
    }
    if (items.length > 0) yield { text: patchScript(items), statements: items.length };
    const last = items[items.length - 1];
    if (!last || (page.completeness.complete && !page.hasMore)) return;
    after = last.order;
  }
}

/** Statements a patch export asks for at a time (also the row diff's export page). */
export const PATCH_EXPORT_PAGE = 5000;

/**
 * Streams the table's patch into `file` through runExport (src/core/export/exportRun.ts): the next
 * page is asked for while this one is written, the file appears only when every statement is in,
 * and a cancel or failure removes it. Resolves with the statement count.
 */
export function writePatchFile(o: {
  pair: RevisionPair;
  table: string;
  run: ReviewRunner;
  file: PendingFile;
  signal: AbortSignal;
  pageSize?: number;
  onProgress?: (statements: number) => void;
}): Promise<number> {
  return runExport({
    pages: statementPages(patchPages(o.pair, o.table, o.run, o.pageSize ?? PATCH_EXPORT_PAGE, o.signal)),
    writer: new PatchWriter(o.file),
    file: o.file,
    signal: o.signal,
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
  });
}

/** Each page as rows of one cell: its script (patchScript), then its statement count. */
async function* statementPages(pages: AsyncIterable<{ text: string; statements: number }>): AsyncGenerator<Cell[][]> {
  for await (const p of pages) yield [[p.text, String(p.statements)]];
}

/** Writes each page's script as it comes; counts statements, not pages. */
class PatchWriter implements ExportWriter {
  rowsWritten = 0;
  constructor(private readonly sink: ExportSink) {}
  async begin(): Promise<void> {}
  async writeRows(rows: CellSource): Promise<void> {
    for (const [text, n] of rows as Cell[][]) {
      await this.sink.write(text ?? '');
      this.rowsWritten += Number(n);
    }
  }
  async end(): Promise<void> {}
}
