// The database's own tests (Dolt's `dolt_tests` table, run by the read-only table function
// `dolt_test_run`): the SQL that lists and runs them, and what their answers mean. A run that did
// not finish (timeout, a cut result, an error of the whole run) is "not run" with the reason: never
// a pass, never a fail. No vscode; the tree and the pull view's Checks read through here.
import type { QueryResult } from '../../shared/wire';
import { sqlString } from '../sql/quote';

export interface DataTest {
  readonly name: string;
  /** Empty when the test has no group. */
  readonly group: string;
  readonly query: string;
  readonly assertionType: string;
  readonly comparator: string;
  readonly value: string;
}

/** All the tests, one group, or one test by name. */
export type TestScope =
  { readonly kind: 'all' } | { readonly kind: 'group'; readonly group: string } | { readonly kind: 'test'; readonly name: string };

export type TestOutcome =
  | { readonly status: 'pass' }
  | { readonly status: 'fail'; readonly message: string }
  | { readonly status: 'notRun'; readonly reason: string };

/**
 * Dolt's tests table: a system table that exists in every database (so `SHOW TABLES` leaves it
 * out) with a fixed schema, keyed by `test_name`, and versioned and writable like any table.
 */
export const TESTS_TABLE = 'dolt_tests';

export const LIST_TESTS_SQL =
  'SELECT test_name, test_group, test_query, assertion_type, assertion_comparator, assertion_value FROM dolt_tests ORDER BY test_group, test_name';

/** `dolt_test_run` for a scope; names and groups are literals, never spliced. */
export function runTestsSql(scope: TestScope): string {
  const arg = scope.kind === 'all' ? '*' : scope.kind === 'group' ? scope.group : scope.name;
  return `SELECT test_name, test_group_name, status, message FROM dolt_test_run(${sqlString(arg)})`;
}

/** The tests a `LIST_TESTS_SQL` answer names; a failed answer throws its message. */
export function readTests(result: QueryResult): DataTest[] {
  if (result.status !== 'success') {
    // A database with no tests table (an older Dolt) has no tests, not an error.
    if (/dolt_tests/i.test(result.message ?? '') && /(no such|doesn't exist|not found)/i.test(result.message ?? '')) return [];
    throw new Error(result.message || `Listing the tests failed (${result.status}).`);
  }
  return result.rows.map((r) => ({
    name: String(r[0] ?? ''),
    group: String(r[1] ?? ''),
    query: String(r[2] ?? ''),
    assertionType: String(r[3] ?? ''),
    comparator: String(r[4] ?? ''),
    value: String(r[5] ?? ''),
  }));
}

/**
 * The outcome of each test a run covered, by name. A run that did not finish leaves every test it
 * was asked for not run with the reason (`expected`: the names the scope covers).
 */
export function readRun(result: QueryResult, expected: readonly string[]): Map<string, TestOutcome> {
  const out = new Map<string, TestOutcome>();
  if (result.status !== 'success') {
    const reason = notRunReason(result);
    for (const name of expected) out.set(name, { status: 'notRun', reason });
    return out;
  }
  for (const r of result.rows) {
    const name = String(r[0] ?? '');
    const status = String(r[2] ?? '').toUpperCase();
    const message = String(r[3] ?? '');
    out.set(name, status === 'PASS' ? { status: 'pass' } : { status: 'fail', message: message || 'The assertion failed.' });
  }
  for (const name of expected) if (!out.has(name)) out.set(name, { status: 'notRun', reason: 'The run did not report this test.' });
  return out;
}

function notRunReason(result: QueryResult): string {
  switch (result.status) {
    case 'timeout':
      return `Timed out: ${result.message || 'the run took longer than the SQL timeout'}`;
    case 'row_limit':
      return `Hit the row cap: ${result.message || 'the answer was cut'}`;
    default:
      return result.message || `The run failed (${result.status}).`;
  }
}

/** The names a scope covers among `tests`. */
export function namesIn(tests: readonly DataTest[], scope: TestScope): string[] {
  if (scope.kind === 'all') return tests.map((t) => t.name);
  if (scope.kind === 'group') return tests.filter((t) => t.group === scope.group).map((t) => t.name);
  return tests.filter((t) => t.name === scope.name).map((t) => t.name);
}

/** "expected_rows == 0" as a reader says it. */
export function describeAssertion(t: DataTest): string {
  return `${t.assertionType} ${t.comparator} ${t.value}`;
}

/** One line for an outcome: PASS, FAIL: message, NOT RUN: reason. */
export function outcomeText(o: TestOutcome): string {
  return o.status === 'pass' ? 'PASS' : o.status === 'fail' ? `FAIL: ${o.message}` : `NOT RUN: ${o.reason}`;
}
