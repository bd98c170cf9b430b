// CI runs (`svc_ci` operations) recorded against a branch. The service runs its CI itself; the hub
// has no runner, so a run is recorded as it finished (the seed, the CLI), which gives the pull
// view's Checks section real operations to show.
import type { CiRunTarget, OperationError } from '../shared/wire';
import type { OperationRecord, Store } from './store';

export interface CiRunRecord extends CiRunTarget {
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  createdBy: string;
  /** Why a failed run failed (the job's message). */
  failure?: string;
}

export function recordCiOperation(store: Store, key: string, run: CiRunRecord): OperationRecord {
  const [owner, name] = key.split('/') as [string, string];
  return store.mutate((s) => {
    const t = new Date().toISOString();
    const op: OperationRecord = {
      id: `owners/${owner}/repos/${name}/jobs/${s.next_job_id++}`,
      db: key,
      type: 'svc_ci',
      status: run.status,
      created_at: t,
      updated_at: t,
      created_by: run.createdBy,
      ci: { branch: run.branch, commit_sha: run.commit_sha, workflow: run.workflow },
    };
    if (run.status === 'succeeded') op.result = {};
    if (run.status === 'failed') op.error = ciFailure(run.workflow, run.failure);
    s.operations.push(op);
    return op;
  });
}

function ciFailure(workflow: string, failure: string | undefined): OperationError {
  return { status: 422, code: 'OPERATION_FAILED', title: `CI workflow "${workflow}" failed`, detail: failure ?? '' };
}
