import { strict as assert } from 'node:assert';
import { ApiError, OperationFailedError } from '../../../src/api/index';
import {
  describeError,
  isCancellation,
  missingPermission,
  type ApiErrorFields,
  type OperationFailedFields,
} from '../../../src/core/errorMessages';
import { anOperation } from '../../builders/wire';

// core declares what it reads of the api layer's errors (core sits below api): keep them in step.
const _apiErrorFits: ApiErrorFields = {} as ApiError;
const _operationFailedFits: OperationFailedFields = {} as OperationFailedError;
void _apiErrorFits;
void _operationFailedFits;

const apiError = (status: number, code: string, extra: Partial<{ method: string; path: string; detail: string; requestId: string }> = {}) =>
  new ApiError({
    status,
    code,
    title: 'T',
    method: extra.method ?? 'GET',
    path: extra.path ?? '/api/v2/databases/a/b',
    isProblem: true,
    ...extra,
  });

describe('describeError', () => {
  it('401 offers Sign in for the host the request went to, and Copy request id', () => {
    const p = describeError(apiError(401, 'UNAUTHENTICATED', { requestId: 'req-1' }), {
      action: 'load branches',
      hostId: 'h1',
      hostLabel: 'Hub',
    });
    assert.match(p!.message, /^Could not load branches: Hub needs you to sign in/);
    assert.deepEqual(p!.actions, [
      { kind: 'signIn', hostId: 'h1' },
      { kind: 'copyRequestId', requestId: 'req-1' },
    ]);
    assert.equal(p!.expected, true, 'a 401 is fixable by the user: a warning in the log, not an error');
    assert.equal(describeError(apiError(500, 'INTERNAL'))!.expected, false);
  });

  it('a text written for the request is kept with the failure: write it again, or copy it', () => {
    const again = () => undefined;
    const p = describeError(apiError(401, 'UNAUTHENTICATED'), {
      action: 'comment on #3',
      hostId: 'h1',
      unsent: { text: 'Long\ntext', again },
    });
    assert.match(p!.message, /^Could not comment on #3: .*What you wrote was not sent; it is kept here\.$/s);
    assert.deepEqual(p!.actions, [
      { kind: 'writeAgain', again },
      { kind: 'copyText', text: 'Long\ntext' },
      { kind: 'signIn', hostId: 'h1' },
    ]);
    // Without a way to ask again it can still be copied; a blank text or a cancellation says nothing of it.
    assert.deepEqual(describeError(apiError(500, 'INTERNAL'), { unsent: { text: 'x' } })!.actions, [{ kind: 'copyText', text: 'x' }]);
    assert.deepEqual(describeError(apiError(500, 'INTERNAL'), { unsent: { text: '  ' } })!.actions, []);
    // A blank text (an empty description) is not offered to copy, but the question still is.
    assert.deepEqual(describeError(apiError(500, 'INTERNAL'), { unsent: { text: '', again } })!.actions, [{ kind: 'writeAgain', again }]);
    assert.equal(describeError(Object.assign(new Error('c'), { name: 'AbortError' }), { unsent: { text: 'x' } }), undefined);
  });

  it('403 names the missing permission from the request', () => {
    const branch = describeError(apiError(403, 'PERMISSION_DENIED', { method: 'POST', path: '/api/v2/databases/acme/payroll/branches' }), {
      action: 'create branch x',
    });
    assert.match(branch!.message, /you need write access to acme\/payroll/);
    const fork = describeError(apiError(403, 'PERMISSION_DENIED', { method: 'POST', path: '/api/v2/databases/acme/payroll/forks' }));
    assert.match(fork!.message, /ownership of the namespace you fork into/);
    assert.match(missingPermission('POST', '/api/v2/databases'), /create databases under that owner/);
    assert.match(missingPermission('POST', '/databases/a/b/pulls/3/merge'), /write access to a\/b to merge/);
    assert.match(missingPermission('PATCH', '/databases/a/b/pulls/3'), /creator or have write access/);
  });

  it('keeps the server code and detail, and tolerates unknown codes', () => {
    const p = describeError(apiError(409, 'BRANCH_EXISTS', { detail: 'branch dev exists' }), { action: 'create branch dev' });
    assert.equal(
      p!.message,
      'Could not create branch dev: it already exists or conflicts with the current state. branch dev exists. (BRANCH_EXISTS)',
    );
  });

  it('transport failures say the host is unreachable', () => {
    const p = describeError(new ApiError({ status: 0, code: 'NETWORK_ERROR', title: 'x', method: 'GET', path: '/', isProblem: false }), {
      hostLabel: 'Local Hub',
    });
    assert.match(p!.message, /Local Hub is unreachable/);
  });

  it('a failed operation shows its OperationError title, detail and code', () => {
    const err = new OperationFailedError(
      anOperation({
        id: 'owners/a/repos/b/jobs/1',
        type: 'fork',
        status: 'failed',
        error: { status: 422, code: 'UNPROCESSABLE', title: 'Duplicate fork', detail: 'bob/b exists' },
      }),
    );
    assert.equal(describeError(err, { action: 'fork a/b' })!.message, 'Fork a/b failed: Duplicate fork — bob/b exists (UNPROCESSABLE)');
    assert.deepEqual(describeError(err)!.actions, [{ kind: 'showLog' }]);
    const withRequest = new OperationFailedError(err.operation, 'req-poll-3');
    assert.deepEqual(describeError(withRequest)!.actions, [{ kind: 'copyRequestId', requestId: 'req-poll-3' }, { kind: 'showLog' }]);
  });

  it('cancellation is not an error: nothing to show', () => {
    const abort = new DOMException('aborted', 'AbortError');
    assert.ok(isCancellation(abort));
    assert.ok(isCancellation(Object.assign(new Error('Canceled'), { name: 'Canceled' })));
    assert.equal(describeError(abort), undefined);
    assert.ok(!isCancellation(new Error('x')));
    assert.ok(!isCancellation(undefined));
  });
});
