// Show History of a table and Show Row History (issue #15): the command logic, with the UI and the
// views injected so it is unit-tested with a scripted UI and a fake SQL client. No `vscode` here;
// historyRegistration.ts registers the commands and opens the row history panel.
//
// Table history is a quick pick of commits (like GitLens's file history quick pick and `git log
// -- <path>`): the commits that changed the table, newest first, read a page at a time at the
// ref's head pinned when the list opened ("Load more commits…" reads on at the same hash); picking
// one offers what to do with it.
import type { Cell, DatabaseRef } from '../shared/wire';
import type { Logger } from '../core/logger';
import { parseDatabaseTarget, type DatabaseTarget } from '../core/targets';
import type { RowHistoryRequest, TableHistoryRequest, ChangesRequest } from '../core/review/requests';
import { buildHashOfQuery, buildTableLogQuery } from '../core/review/doltQueries';
import { parseCommitPage, parseHashOf, type Commit } from '../core/review/commitLog';
import { isCommitHashText } from '../core/review/revisions';
import type { ReviewRunner, SqlPort } from '../core/sql/sqlPort';
import { Commands } from '../shared/ids';
import { loadRowHistory, type LoadedRowHistory } from '../core/review/rowHistoryView';
import { formatRelativeTime } from '../core/relativeTime';
import type { PickItem, Ui } from '../platform/ui';
import { isTreeNode } from '../tree/treeNodes';
import * as l10n from '../shared/l10n';

export const TABLE_HISTORY_PAGE = 50;

export interface HistoryEnv {
  readonly ui: Ui;
  readonly log: Logger;
  readonly sql: Pick<SqlPort, 'review'>;
  /** Whether a command is registered now (Show Changes comes from another feature). */
  hasCommand(id: string): Promise<boolean>;
  execute(id: string, ...args: unknown[]): Promise<unknown>;
  /** Commands on a commit, by id (src/shared/ids.ts). */
  readonly commands: { newSqlNotebookAtCommit: string };
  /** Opens the row history view on what was read. */
  openRowHistory(req: RowHistoryRequest, loaded: LoadedRowHistory): void | Promise<void>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The TableHistoryRequest an argument is, or a message saying what is wrong with it. */
export function tableHistoryRequestOf(arg: unknown): TableHistoryRequest | string {
  // A table of the tree's Tables node: its history at the branch or tag it was listed under.
  if (isTreeNode(arg) && arg.kind === 'table')
    return { target: { hostId: arg.hostId, db: arg.db }, ref: arg.parent.ref, table: arg.table.name };
  // The request's own shape ({ target: { hostId, db }, … }), or the target's fields inline.
  const target = isRecord(arg) ? (parseDatabaseTarget(arg['target']) ?? parseDatabaseTarget(arg)) : undefined;
  if (!target || !isRecord(arg)) return 'Show History needs a database, a ref and a table (run it on a table in the Versioned DB view).';
  if (typeof arg['ref'] !== 'string' || arg['ref'] === '') return 'Show History needs the branch, tag or commit to read the history at.';
  if (typeof arg['table'] !== 'string' || arg['table'] === '') return 'Show History needs a table name.';
  return { target, ref: arg['ref'], table: arg['table'] };
}

/** The RowHistoryRequest an argument is, or a message saying what is wrong with it. */
export function rowHistoryRequestOf(arg: unknown): RowHistoryRequest | string {
  const t = tableHistoryRequestOf(arg);
  if (typeof t === 'string') return t.replace('Show History', 'Show Row History');
  const a = arg as Record<string, unknown>;
  const key = a['key'];
  if (!isRecord(key) || Object.keys(key).length === 0) return "Show Row History needs the row's primary-key values.";
  for (const [k, v] of Object.entries(key)) if (v !== null && typeof v !== 'string') return `The key value of ${k} must be text or NULL.`;
  const column = a['column'];
  if (column !== undefined && typeof column !== 'string') return 'The column to blame must be a column name.';
  return { ...t, key: key as Record<string, Cell>, ...(column !== undefined ? { column } : {}) };
}

/** Show Changes on a commit node of the tree: the commit against its first parent, in the Changes view. */
export async function showCommitChanges(env: Pick<HistoryEnv, 'ui' | 'execute'>, node: unknown): Promise<ChangesRequest | undefined> {
  if (!isTreeNode(node) || node.kind !== 'commit') {
    void env.ui.info(l10n.t('Show Changes here works on a commit of a Commits list in the Versioned DB view.'));
    return undefined;
  }
  const request: ChangesRequest = { kind: 'commit', target: { hostId: node.hostId, db: node.db }, commit: node.commit.hash };
  await env.execute(Commands.showChanges, request);
  return request;
}

function dbText(db: DatabaseRef): string {
  return `${db.owner}/${db.name}`;
}

type Picked = { kind: 'commit'; commit: Commit } | { kind: 'more' };
type CommitAction = 'changes' | 'notebook' | 'copy';

/** A table's commits read a page at a time, at the head the ref had when the first page was read. */
class TableHistoryPages {
  readonly commits: Commit[] = [];
  hasMore = false;
  /** Said beside the list when the server cut a page short. */
  partial = '';
  private pinned: string | undefined;

  constructor(
    private readonly run: ReviewRunner,
    private readonly ref: string,
    private readonly table: string,
  ) {}

  async readPage(signal?: AbortSignal): Promise<void> {
    this.pinned ??= isCommitHashText(this.ref) ? this.ref : parseHashOf(await this.run(buildHashOfQuery(this.ref), { signal }));
    const query = buildTableLogQuery(this.pinned, this.table, { pageSize: TABLE_HISTORY_PAGE, offset: this.commits.length });
    const page = parseCommitPage(await this.run(query, { signal, limit: TABLE_HISTORY_PAGE + 1 }), TABLE_HISTORY_PAGE);
    this.commits.push(...page.items);
    this.hasMore = page.hasMore || (!page.completeness.complete && page.items.length > 0);
    this.partial = page.completeness.complete
      ? ''
      : ` (the server sent part of a page: ${page.completeness.reason === 'timeout' ? 'timed out' : 'row limit'})`;
  }
}

function commitPickItems(pages: TableHistoryPages, now: number): PickItem<Picked>[] {
  const items: PickItem<Picked>[] = pages.commits.map((c) => ({
    label: `${c.isMerge ? '$(git-merge)' : '$(git-commit)'} ${c.subject || '(no message)'}`,
    description: [c.author, formatRelativeTime(c.time === undefined ? undefined : new Date(c.time).toISOString(), now), c.shortHash]
      .filter(Boolean)
      .join(' · '),
    value: { kind: 'commit', commit: c },
  }));
  if (pages.hasMore)
    items.push({
      label: l10n.t('$(more) Load more commits…'),
      description: l10n.t('{0} shown{1}', pages.commits.length, pages.partial),
      value: { kind: 'more' },
    });
  return items;
}

/** Show History on a table: a quick pick of the commits that changed it, then what to do with one. */
export async function showTableHistory(env: HistoryEnv, arg: unknown): Promise<Commit | undefined> {
  const req = tableHistoryRequestOf(arg);
  if (typeof req === 'string') return void env.ui.info(req);
  const { target, ref, table } = req;
  const pages = new TableHistoryPages(env.sql.review(target.hostId, target.db), ref, table);
  const read = async (what: string): Promise<boolean> => {
    try {
      await env.ui.withProgress(what, (_p, signal) => pages.readPage(signal));
      return true;
    } catch (e) {
      env.ui.error(e, { action: l10n.t('read the history of {0}', table), hostId: target.hostId });
      return false;
    }
  };
  if (!(await read(`Reading the history of ${table}…`))) return undefined;
  if (pages.commits.length === 0) return void env.ui.info(l10n.t('No commit on {0} changed {1}{2}.', ref, table, pages.partial));
  const title = `History of ${table} @ ${ref} in ${dbText(target.db)}`;
  const now = Date.now();
  for (;;) {
    const picked = await env.ui.pick(commitPickItems(pages, now), {
      title,
      placeholder: l10n.t('Commits that changed {0}, newest first; pick one', table),
    });
    if (!picked) return undefined;
    if (picked.kind === 'more') {
      await read(`Reading more of the history of ${table}…`);
      continue;
    }
    await commitActions(env, target, picked.commit, table);
    return picked.commit;
  }
}

/** What to do with a commit of a table's history. */
async function commitActions(env: HistoryEnv, target: DatabaseTarget, c: Commit, table: string): Promise<void> {
  const actions: PickItem<CommitAction>[] = [];
  if (await env.hasCommand(Commands.showChanges))
    actions.push({
      label: l10n.t('$(diff) Show Changes'),
      description: l10n.t('what {0} changed in {1}', c.shortHash, table),
      value: 'changes',
    });
  actions.push(
    { label: l10n.t('$(notebook) New SQL Notebook at This Commit'), value: 'notebook' },
    { label: l10n.t('$(copy) Copy Commit Hash'), description: c.hash, value: 'copy' },
  );
  const action = await env.ui.pick(actions, { title: `${c.shortHash} ${c.subject}`, placeholder: l10n.t('What to do with this commit') });
  switch (action) {
    case 'changes': {
      const request: ChangesRequest = { kind: 'commit', target, commit: c.hash, table };
      await env.execute(Commands.showChanges, request);
      return;
    }
    case 'notebook':
      await env.execute(env.commands.newSqlNotebookAtCommit, { hostId: target.hostId, db: target.db, ref: c.hash });
      return;
    case 'copy':
      await env.ui.copy(c.hash);
      void env.ui.info(l10n.t('Copied commit {0}.', c.shortHash));
      return;
    default:
      return;
  }
}

/** Show Row History: reads every version of the row (and the blamed cell) and opens the view. */
export async function showRowHistory(env: HistoryEnv, arg: unknown): Promise<LoadedRowHistory | undefined> {
  const req = rowHistoryRequestOf(arg);
  if (typeof req === 'string') {
    void env.ui.info(req);
    return undefined;
  }
  const run = env.sql.review(req.target.hostId, req.target.db);
  try {
    const loaded = await env.ui.withProgress(l10n.t('Reading the history of a row of {0}…', req.table), (_p, signal) =>
      loadRowHistory(
        run,
        { ref: req.ref, table: req.table, key: req.key, ...(req.column !== undefined ? { column: req.column } : {}) },
        { signal },
      ),
    );
    await env.openRowHistory(req, loaded);
    return loaded;
  } catch (e) {
    env.ui.error(e, { action: l10n.t('read the history of a row of {0}', req.table), hostId: req.target.hostId });
    return undefined;
  }
}
