// What the extension host hands the grid (notebook output under QUERY_RESULT_MIME, or the
// SQL result panel), and the messages the grid sends back. Shared by host and renderer.
import type { QueryResult, QueryStatus } from './wire';
import * as l10n from './l10n';

/** Where a query ran. `ref` is what the user chose (branch, tag or commit). */
export interface QueryTarget {
  hostId: string;
  owner: string;
  name: string;
  ref: string;
}

export interface QueryOutput {
  /** Payload version, so a saved notebook from a newer build is recognised. */
  v: 1;
  result: QueryResult;
  sql: string;
  target: QueryTarget;
  /** Host label for display (e.g. "Local hub"). */
  hostLabel?: string;
  /** The commit the ref pointed at when the query ran (when the ref is a branch or tag). */
  commit?: string;
  /** ISO time the query finished. */
  ranAt: string;
  elapsedMs: number;
  /** The row limit that was asked for. */
  limit: number;
  /** Set by the host when the branch has moved since this ran (its head now). */
  movedTo?: string;
  /**
   * Set by a host that answers "Load All Rows" for this result (a single SELECT that ended at the
   * row limit, at a known commit): only then does the grid offer it.
   */
  canLoadAll?: boolean;
  /** Why Load All Rows is not offered for a row_limit result (not one SELECT, repeated column names …). */
  loadAllUnavailable?: string;
  /** Names this result in a notebook, so "Load All Rows" finds it (random, set by the host). */
  key?: string;
}

export function isQueryOutput(v: unknown): v is QueryOutput {
  if (!v || typeof v !== 'object') return false;
  const o = v as Partial<QueryOutput>;
  return (
    o.v === 1 &&
    !!o.result &&
    Array.isArray(o.result.columns) &&
    Array.isArray(o.result.rows) &&
    typeof o.result.status === 'string' &&
    !!o.target &&
    typeof o.target.ref === 'string'
  );
}

/** Messages the grid posts to the host. */
export type GridToHostMessage =
  | { type: 'copy'; text: string; format: string; rows: number }
  | { type: 'export'; format: 'csv' | 'json' | 'markdown'; content: string; suggestedName: string; rows: number }
  | { type: 'ready' }
  /** The panel got the focus (the user came back to it): a table browser looks whether its ref moved. */
  | { type: 'focused' };

/** Messages the host posts to the grid (panel webview only). */
export type HostToGridMessage =
  | { type: 'show'; output: QueryOutput }
  | { type: 'running'; sql: string; target: QueryTarget }
  | { type: 'exported'; path: string }
  | { type: 'copied'; rows: number };

export interface StatusBanner {
  severity: 'warning' | 'error' | 'info';
  title: string;
  /** The server's message, verbatim. */
  message: string;
  /** What the user can do about it. */
  advice: string;
}

/**
 * The banner for a non-success result: the server's own message plus what to do next.
 * Returns undefined for success without a message.
 */
export function statusBanner(result: Pick<QueryResult, 'status' | 'message' | 'rows'>, limit?: number): StatusBanner | undefined {
  const status: QueryStatus = result.status;
  const message = result.message ?? '';
  switch (status) {
    case 'success':
      return undefined;
    case 'row_limit': {
      const shown = result.rows.length;
      // Fewer rows than the limit asked for: the server's own cap applied, not the setting.
      const serverCap = !!limit && shown < limit;
      return {
        severity: 'warning',
        title: l10n.t('Showing the first {0} rows only', shown.toLocaleString('en-US')),
        message,
        advice: serverCap
          ? `The server stops every result at ${shown.toLocaleString('en-US')} rows (its cap), below your limit of ${(limit as number).toLocaleString('en-US')} ("versionedDb.sql.rowLimit"). ` +
            'Add a WHERE or LIMIT clause to see the rest.'
          : `The result has more rows than the limit${limit ? ` of ${limit.toLocaleString('en-US')}` : ''} ("versionedDb.sql.rowLimit"). ` +
            'Add a WHERE or LIMIT clause, or raise the setting (the server caps it).',
      };
    }
    case 'timeout':
      return {
        severity: 'warning',
        title: l10n.t('The query timed out'),
        message,
        advice:
          'Narrow the query (filter on an indexed column, select fewer rows) or raise "versionedDb.sql.timeoutMs" (the server caps it at 60000 ms).',
      };
    case 'error':
      return {
        severity: 'error',
        title: l10n.t('The query failed'),
        message,
        advice: 'Fix the SQL and run the cell again. Only read-only statements can run here.',
      };
    case 'not_workspace':
      return {
        severity: 'error',
        title: l10n.t('This ref cannot be queried'),
        message,
        advice: 'Pick a branch, a tag or a full commit hash with the target picker in the cell status bar.',
      };
    default:
      return {
        severity: 'warning',
        title: l10n.t('Query status: {0}', status),
        message,
        advice: 'The server reported a status this version does not know; the rows shown may be incomplete.',
      };
  }
}
