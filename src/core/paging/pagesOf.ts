// Every row of a paged source in order, a page at a time: what a streamed export reads. Pure, so
// the export benchmark and unit tests use the very loop the extension runs.
import type { Cell } from '../../shared/wire';
import type { PageSource, PageView } from './pageServer';

/** Reads `source` in order, a page at a time, until a short page (or one marked as the end). */
export async function* pagesOf(source: PageSource, view: PageView, pageSize: number, signal: AbortSignal): AsyncGenerator<Cell[][]> {
  for (let start = 0; ; start += pageSize) {
    if (signal.aborted) return;
    const page = await source.read(start, start + pageSize, view, signal);
    if (page.rows.length > 0) yield page.rows;
    if (page.end || page.rows.length < pageSize) return;
  }
}
