// A table's SQL patch (DOLT_PATCH) read page by page in statement order, for a streamed export:
// a page the server cut short or timed out on stops the export (no partial file is kept).
import { buildPatchQuery } from './doltQueries';
import type { ReviewRunner } from '../sql/sqlPort';
import { PartialDiffError } from './diffSource';
import type { RevisionPair } from './revisions';
import { parsePatchPage, patchScript, type PatchStatement } from './tableChanges';

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
