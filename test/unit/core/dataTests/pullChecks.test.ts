import { strict as assert } from 'node:assert';
import {
  ciRunsFor,
  compareRuns,
  mergeWarnings,
  mustAskAgain,
  type PullChecks,
  type SideRun,
} from '../../../../src/core/dataTests/pullChecks';
import type { TestOutcome } from '../../../../src/core/dataTests/dataTests';
import { renderChecksSection } from '../../../../src/core/pullChecksPage';
import type { Operation } from '../../../../src/shared/wire';

const pass: TestOutcome = { status: 'pass' };
const fail = (message: string): TestOutcome => ({ status: 'fail', message });
const ran = (o: Record<string, TestOutcome>): SideRun => ({ kind: 'ran', commit: 'abcdef0123', outcomes: new Map(Object.entries(o)) });
const op = (id: string, status: string, branch: string | undefined, extra: Partial<Operation> = {}): Operation => ({
  id,
  type: 'svc_ci',
  status,
  created_at: '2026-01-01T00:00:00Z',
  cancelable: false,
  ...(branch ? { ci: { branch, commit_sha: 'c', workflow: `wf-${id}` } } : {}),
  ...extra,
});

describe('pull checks: tests at the merge base and the head', () => {
  it('classifies each test and puts newly failing first, then fixed, still failing, not run, passing, removed', () => {
    const base = ran({ keeps: pass, breaks: pass, mends: fail('x'), stays: fail('y'), gone: pass });
    const head = ran({ keeps: pass, breaks: fail('got 1'), mends: pass, stays: fail('y'), added: fail('new') });
    const got = compareRuns(base, head).map((t) => `${t.name}:${t.category}`);
    assert.deepEqual(got, [
      'added:newlyFailing',
      'breaks:newlyFailing',
      'mends:fixed',
      'stays:stillFailing',
      'keeps:passing',
      'gone:removed',
    ]);
  });

  it('a side that did not run makes every test not run with the reason, never passing', () => {
    const head: SideRun = { kind: 'notRun', reason: 'Timed out' };
    const tests = compareRuns(ran({ a: pass }), head);
    assert.deepEqual(
      tests.map((t) => t.category),
      ['notRun'],
    );
    const checks: PullChecks = { base: ran({ a: pass }), head, tests, ci: [] };
    assert.ok(mergeWarnings(checks).some((l) => /not run.*Timed out/.test(l)));
    const html = renderChecksSection({ kind: 'done', checks });
    // The head's cell (the row's last) says not run; the base's own PASS stays the base's.
    assert.match(html, /<td class="notrun">NOT RUN: Timed out<\/td><\/tr>/);
    assert.doesNotMatch(html, /PASS<\/td><\/tr>/);
  });

  it("keeps the CI runs of the pull's branch (and those that name no branch), and asks again for failed or running CI", () => {
    const ops = [
      op('1', 'succeeded', 'feat'),
      op('2', 'failed', 'feat', { error: { status: 422, code: 'OPERATION_FAILED', title: 't', detail: 'totals off' } }),
      op('3', 'failed', 'other'),
      op('4', 'running', undefined),
      { ...op('5', 'succeeded', 'feat'), type: 'merge' },
    ];
    const ci = ciRunsFor(ops, 'feat');
    assert.deepEqual(
      ci.map((r) => [r.operation.id, r.branchKnown]),
      [
        ['1', true],
        ['2', true],
        ['4', false],
      ],
    );
    const checks: PullChecks = { base: ran({}), head: ran({}), tests: [], ci };
    assert.equal(mustAskAgain(checks), true);
    const lines = mergeWarnings(checks);
    assert.ok(lines.some((l) => /Failed CI: wf-2 \(totals off\)/.test(l)));
    assert.ok(lines.some((l) => /CI still running: svc_ci/.test(l)));
    assert.equal(mustAskAgain({ ...checks, ci: ci.slice(0, 1) }), false);
  });

  it('names newly failing tests in the warnings; nothing to say for a clean pull', () => {
    const tests = compareRuns(ran({ a: pass, b: pass }), ran({ a: fail('m'), b: pass }));
    const checks: PullChecks = { base: ran({}), head: ran({}), tests, ci: [] };
    assert.deepEqual(mergeWarnings(checks), ["Newly failing tests (pass at the merge base, fail at the pull's head): a."]);
    assert.equal(mustAskAgain(checks), true);
    const clean = compareRuns(ran({ a: pass }), ran({ a: pass }));
    assert.deepEqual(mergeWarnings({ ...checks, tests: clean }), []);
  });

  it('escapes server text in the section', () => {
    const tests = compareRuns(ran({ '<b>x</b>': pass }), ran({ '<b>x</b>': fail('<img src=x>') }));
    const html = renderChecksSection({ kind: 'done', checks: { base: ran({}), head: ran({}), tests, ci: [] } });
    assert.doesNotMatch(html, /<img|<b>/);
  });
});
