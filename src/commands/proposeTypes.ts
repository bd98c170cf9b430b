// What Propose Changes… works with (src/commands/proposeChanges.ts, proposeSend.ts): which change
// set, what it needs of the change sets kept in the workspace and of the API, and what the person
// answered.
import type { HubClient } from '../api/index';
import { paginate } from '../api/pagination';
import type { ProposalInput } from '../core/changes/proposalFiles';
import type { ChangeSetScope } from '../core/changes/changeSetScope';

export type { ChangeSetScope };
import type { Logger } from '../core/logger';
import type { ChangesRequest } from '../core/review/requests';
import type { SqlPort } from '../core/sql/sqlPort';
import type { PullTarget } from '../core/targets';
import type { Ui } from '../platform/ui';
import type { Branch, Cell, DatabaseRef, PullSummary } from '../shared/wire';
import type { ImportApi } from './proposeImports';

/** What proposing needs of the change sets kept in the workspace. */
export interface ChangeSetAccess {
  snapshot(scope: ChangeSetScope): ProposalInput | undefined;
  remove(scope: ChangeSetScope): Promise<void>;
  /** Moves the change set onto `newBase`, given its edited rows as they are there (null: gone). */
  rebase(scope: ChangeSetScope, newBase: string, rowsAtNewBase: ReadonlyMap<string, Cell[] | null>): Promise<ProposalInput>;
}

export type ProposeApi = ImportApi &
  Pick<HubClient, 'listBranches' | 'createBranch' | 'createPull' | 'getPull' | 'listPulls' | 'createPullComment'>;

export interface ProposeEnv {
  readonly ui: Ui;
  readonly log: Logger;
  clientFor(hostId: string): ProposeApi;
  readonly sql: Pick<SqlPort, 'review' | 'at'>;
  readonly changeSets: ChangeSetAccess;
  refreshDatabase(hostId: string, db: DatabaseRef, what: ('branches' | 'pulls' | 'operations')[]): void;
  showPull(target: PullTarget): Promise<unknown>;
  showChanges(request: ChangesRequest): Promise<unknown>;
  readonly now?: () => Date;
}

/**
 * Where the edits go: a new branch made at the base commit and a pull request into `target`; or,
 * for the branch of an open pull request (a suggestion on that pull), a commit onto it.
 */
export type ProposalAnswers =
  | { readonly mode: 'pull'; readonly branch: string; readonly title: string; readonly description: string; readonly target: string }
  | {
      readonly mode: 'commit';
      readonly title: string;
      readonly pull: number;
      /** The comment said on the pull once committed (default: the counts), and the pull's database when not the branch's. */
      readonly note?: { readonly db: DatabaseRef; body(head: string): string };
    };

export const dbOf = (s: ChangeSetScope): DatabaseRef => ({ owner: s.owner, name: s.name });

export async function listAllBranches(client: ProposeApi, db: DatabaseRef, signal?: AbortSignal): Promise<Branch[]> {
  const out: Branch[] = [];
  for await (const b of paginate((pageToken) => client.listBranches(db, { pageToken }, signal ? { signal } : {}))) out.push(b);
  return out;
}

/** The open pull requests of the database whose changes come from `branch` of the same database. */
export async function openPullsFrom(client: ProposeApi, db: DatabaseRef, branch: string, signal?: AbortSignal): Promise<number[]> {
  const open: PullSummary[] = [];
  for await (const p of paginate((pageToken) => client.listPulls(db, { pageToken }, signal ? { signal } : {})))
    if (p.state === 'open') open.push(p);
  const out: number[] = [];
  for (const p of open) {
    const pull = await client.getPull(db, p.pull_number, signal ? { signal } : {});
    const from = pull.from_branch;
    if (from.branch_name === branch && from.database.owner === db.owner && from.database.name === db.name) out.push(p.pull_number);
  }
  return out;
}
