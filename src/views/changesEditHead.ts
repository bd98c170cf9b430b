// Where a pull's tables can be edited: the branch the pull is from, in the database that holds it
// (the fork, for a pull across forks). Only an open pull takes suggested changes (issue #23): the
// Changes view of such a pull offers "Edit at <branch>", which opens the table browser there, and
// Propose Changes… from that browser commits onto the pull's branch or opens a pull into it.
import type { Pull } from '../shared/wire';
import type { QueryTarget } from '../shared/queryResultOutput';

export interface PullBranch {
  branch: string;
  target: QueryTarget;
}

export function pullBranchOf(pull: Pick<Pull, 'state' | 'from_branch'>, hostId: string): PullBranch | undefined {
  if (pull.state !== 'open') return undefined;
  const { database, branch_name } = pull.from_branch;
  return { branch: branch_name, target: { hostId, owner: database.owner, name: database.name, ref: branch_name } };
}
