// Helpers for the scenarios about the database's tests (not a scenario: the runner only takes NN-name.mjs).
import { plainRows } from './changesHelpers.mjs';

/**
 * PASS or FAIL of each test of `db` at `ref`, judged here from a plain run of its query (never
 * through dolt_test_run, which is what the extension shows): name → { pass, group, query }.
 */
export async function judgedTests(ctx, db, ref) {
  const tests = await plainRows(ctx, db, ref, 'SELECT * FROM dolt_tests');
  const out = new Map();
  for (const t of tests) {
    const rows = await plainRows(ctx, db, ref, t.test_query);
    const got = t.assertion_type === 'expected_rows' ? rows.length : Number(Object.values(rows[0] ?? {})[0]);
    const want = Number(t.assertion_value);
    const pass = { '==': got === want, '!=': got !== want, '<': got < want, '<=': got <= want, '>': got > want, '>=': got >= want }[
      t.assertion_comparator
    ];
    out.set(t.test_name, { pass, group: t.test_group, query: t.test_query });
  }
  return out;
}
