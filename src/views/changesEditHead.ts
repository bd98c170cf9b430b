// What the Changes view pins for its request (pinInputOfRequest), and where a pull's tables can be edited: the branch the pull is from, in the database that holds it
// (the fork, for a pull across forks). Only an open pull takes suggested changes (issue #23): the
// Changes view of such a pull offers "Edit at <branch>", which opens the table browser there, and
// Propose Changes… from that browser commits onto the pull's branch or opens a pull into it.
import type { Pull } from '../shared/wire';
import type { QueryTarget } from '../shared/queryResultOutput';
import type { DbRef, HubClient } from '../api/index';
import { pinInputOfPull, type PinInput } from '../core/review/changesPin';
import type { ChangesRequest } from '../core/review/requests';

export interface PullBranch {
  branch: string;
  target: QueryTarget;
}

export function pullBranchOf(pull: Pick<Pull, 'state' | 'from_branch'>, hostId: string): PullBranch | undefined {
  if (pull.state !== 'open') return undefined;
  const { database, branch_name } = pull.from_branch;
  return { branch: branch_name, target: { hostId, owner: database.owner, name: database.name, ref: branch_name } };
}

/**
 * What the Changes view pins for a request: the pair to pin, the fork that holds a cross-fork
 * pull's head, and an open pull's branch (where its tables may be edited).
 */
export async function pinInputOfRequest(
  r: ChangesRequest,
  clientFor: (hostId: string) => Pick<HubClient, 'getPull'>,
): Promise<{ input: PinInput; fork?: DbRef; pullBranch?: PullBranch }> {
  switch (r.kind) {
    case 'refs':
      return { input: { kind: 'refs', from: r.from, to: r.to, threeDot: !!r.threeDot } };
    case 'commit':
      return { input: { kind: 'commit', commit: r.commit } };
    case 'pull': {
      const pull = await clientFor(r.target.hostId).getPull(r.target.db, r.target.pullNumber);
      const pullBranch = pullBranchOf(pull, r.target.hostId);
      return { ...pinInputOfPull(pull, r.target.db), ...(pullBranch ? { pullBranch } : {}) };
    }
    case 'changeSet':
      throw new Error('An unsent change set has no commits to pin.');
  }
}
