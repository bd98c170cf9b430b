// One "Load All Rows" result being served: the user's query paged at the commit it ran at
// (QueryPageSource) behind a PageServer, plus the streamed export of every row. The notebook's
// renderer messaging and the SQL result panel each hold sessions and hand them the grid's
// messages; whoever holds one disposes it with the output, cell, notebook or panel it belongs to.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../core/logger';
import { describeError } from '../core/errorMessages';
import { looksLikeCommit, targetLabel } from '../core/sql/refs';
import { PageServer } from '../core/paging/pageServer';
import { QueryPageError, QueryPageSource, loadAllPlan } from '../core/paging/querySource';
import { DEFAULT_PAGE_SIZE, type GridPagingMessage, type HostPagingMessage, type PagedOutput } from '../shared/gridPaging';
import type { QueryOutput } from '../shared/queryResultOutput';
import { exportStreamed } from '../platform/streamedExport';
import { normalizeResult } from './queryRunner';
import type { SqlPort } from '../core/sql/sqlPort';
import * as l10n from '../shared/l10n';

export interface LoadAllDeps {
  /** Pages at the pinned commit through the one SQL port. */
  sql: Pick<SqlPort, 'run'>;
  labelOf(hostId: string): string;
  log: Logger;
}

/** The commit a result's pages are read at: the one it ran at, or the ref when it is a commit. */
export function pinnedCommit(o: Pick<QueryOutput, 'commit' | 'target'>): string | undefined {
  return o.commit ?? (looksLikeCommit(o.target.ref) ? o.target.ref : undefined);
}

/** What the host adds to a result so the grid offers Load All Rows, or says why it cannot. */
export function loadAllFields(o: QueryOutput): Pick<QueryOutput, 'canLoadAll' | 'loadAllUnavailable'> {
  if (o.result.status !== 'row_limit') return {};
  const plan = loadAllPlan({ sql: o.sql, status: o.result.status, columns: o.result.columns, commit: pinnedCommit(o) });
  return plan.ok ? { canLoadAll: true } : { loadAllUnavailable: plan.reason };
}

const shortHash = (h: string): string => h.slice(0, 8);

export class LoadAllSession {
  readonly output: PagedOutput;
  private readonly server: PageServer;
  private totalRows: number | undefined;
  private disposed = false;
  /** The last export started (resolves with the path written, or undefined), for tests. */
  lastExport: Promise<string | undefined> | undefined;

  private constructor(
    private readonly result: QueryOutput,
    private readonly source: QueryPageSource,
    commit: string,
    post: (m: HostPagingMessage) => void,
    private readonly deps: LoadAllDeps,
  ) {
    const t = result.target;
    const firstLine = result.sql.trim().split('\n')[0] ?? '';
    this.output = {
      v: 1,
      kind: 'paged',
      sourceId: `loadall-${randomUUID()}`,
      columns: result.result.columns,
      target: { ...t },
      commit,
      title: firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine,
      pageSize: DEFAULT_PAGE_SIZE,
      // Sorted and filtered on the server, by wrapping the query (src/core/paging/querySource.ts).
      serverSort: true,
      serverFilter: true,
      note: `Every row of the query at ${t.ref === commit ? shortHash(commit) : `${t.ref} (${shortHash(commit)})`}, read a page at a time in the query's order.`,
    };
    const context = {
      action: l10n.t('read rows of the query at {0}', targetLabel(t)),
      hostId: t.hostId,
      hostLabel: deps.labelOf(t.hostId),
    };
    this.server = new PageServer({
      sourceId: this.output.sourceId,
      source,
      post: (m) => {
        if (m.type === 'page.total') this.totalRows = m.totalRows;
        post(m);
      },
      describeError: (e) => (e instanceof QueryPageError ? e.message : (describeError(e, context)?.message ?? String(e))),
      onError: (e) => deps.log.warn(`load all rows at ${targetLabel(t)}: ${e instanceof Error ? e.message : String(e)}`),
    });
  }

  /**
   * Starts serving `result`'s rows, or says why it cannot (the same checks that decide whether
   * the grid offers Load All Rows; a message can come from an old or a tampered output).
   */
  static start(result: QueryOutput, post: (m: HostPagingMessage) => void, deps: LoadAllDeps): LoadAllSession | { refused: string } {
    const plan = loadAllPlan({
      sql: result.sql,
      status: result.result.status,
      columns: result.result.columns,
      commit: pinnedCommit(result),
    });
    if (!plan.ok) return { refused: plan.reason };
    const t = result.target;
    const at = { hostId: t.hostId, db: { owner: t.owner, name: t.name }, ref: plan.commit };
    const source = new QueryPageSource({
      query: plan.query,
      columnCount: result.result.columns.length,
      columns: result.result.columns,
      run: async (sql, opts) => normalizeResult(await deps.sql.run(at, sql, opts)),
    });
    const session = new LoadAllSession(result, source, plan.commit, post, deps);
    deps.log.info(`load all rows at ${targetLabel(t)} (${shortHash(plan.commit)})`);
    return session;
  }

  get sourceId(): string {
    return this.output.sourceId;
  }

  /** Starts counting the rows (the grid shows the total when it comes). */
  begin(): void {
    this.server.start();
  }

  /**
   * A grid message about this session's rows: pages, cancels, sort/filter (refused), export.
   * Returns false when the message is about another source.
   */
  handle(m: GridPagingMessage): boolean {
    if (this.disposed) return false;
    if (this.server.handle(m)) return true;
    if (m.type === 'export.stream' && m.sourceId === this.sourceId) {
      this.lastExport = this.exportAll(m.format);
      return true;
    }
    return false;
  }

  private async exportAll(format: Extract<GridPagingMessage, { type: 'export.stream' }>['format']): Promise<string | undefined> {
    const t = this.result.target;
    // Pages as large as the first response (a size the server is known to answer), so a big
    // export sends few statements; one page is all that is held at a time.
    const pageSize = Math.max(DEFAULT_PAGE_SIZE, Math.min(this.result.result.rows.length, 10_000));
    const view = this.server.view;
    return exportStreamed(
      {
        columns: this.output.columns,
        format,
        suggestedName: `${t.name}-${t.ref}-${shortHash(this.output.commit)}`,
        tableName: 'result',
        source: this.source,
        // The rows as the grid shows them now: its sort and filters.
        view,
        pageSize,
        ...(this.totalRows !== undefined && view.sort.length === 0 && view.filters.length === 0 ? { totalRows: this.totalRows } : {}),
      },
      this.deps.log,
    );
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.server.dispose();
  }
}
