// DOLT_LOG(…, '--tables', …) through the hub's SQL endpoint: exactly the commits whose plain read of
// a named table differs from their first parent's (rows or columns, or the table appearing or
// going). Parents come from the plain dolt_commit_ancestors table; nothing trusts DOLT_LOG itself.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql } from '../helpers/hubSql';

const DB = 'alice/prices';

describe('hub DOLT_LOG --tables', function () {
  let hub: HubHandle;

  before(async function () {
    hub = await startHub({ seed: true });
    await hub.token('alice');
  });
  after(async () => hub?.stop());

  const { query, ok } = hubSql(() => hub, DB);
  /** A table's plain read at a commit as text (undefined where it does not exist). */
  const snapshot = async (table: string, ref: string): Promise<string | undefined> => {
    const d = await query(`SELECT * FROM ${table} ORDER BY 1`, ref);
    if (d.status !== 'success') return undefined;
    return JSON.stringify([d.columns.map((c) => c.name), d.rows]);
  };
  /** The commits of `ref`'s plain log that changed any of `tables` against their first parent. */
  const expected = async (ref: string, tables: string[]): Promise<string[]> => {
    const out: string[] = [];
    for (const [hash] of (await ok('SELECT commit_hash FROM dolt_log', ref)).rows) {
      const parent =
        (await ok(`SELECT parent_hash FROM dolt_commit_ancestors WHERE commit_hash = '${hash}' AND parent_index = 0`, ref)).rows[0]?.[0] ??
        null;
      for (const t of tables) {
        const before = parent === null ? undefined : await snapshot(t, parent);
        if ((await snapshot(t, hash!)) !== before) {
          out.push(hash!);
          break;
        }
      }
    }
    return out.sort();
  };
  const logged = async (args: string, ref: string): Promise<string[]> =>
    (await ok(`SELECT commit_hash FROM DOLT_LOG(${args})`, ref)).rows.map((r) => r[0]!).sort();

  it('keeps exactly the commits that changed the table, on the branch the query runs at', async () => {
    const want = await expected('main', ['suppliers']);
    assert.ok(want.length >= 3, 'the seed changes suppliers several times on main');
    assert.deepEqual(await logged("'--tables', 'suppliers'", 'main'), want);
    assert.deepEqual(await logged("'main', '--parents', '--tables', 'suppliers'", 'main'), want);
  });

  it('takes a comma-separated list, and a branch whose history is not the HEAD of the query', async () => {
    assert.deepEqual(await logged("'main', '--tables', 'products,stores'", 'main'), await expected('main', ['products', 'stores']));
    for (const branch of ['vale-rating', 'supplier-updates', 'more-stores']) {
      const want = await expected(branch, ['suppliers', 'stores']);
      assert.deepEqual(await logged(`'${branch}', '--tables', 'suppliers,stores'`, 'main'), want, branch);
    }
  });

  it('a table no commit changed gives no commits; a missing value is an error', async () => {
    assert.deepEqual(await logged("'--tables', 'no_such_table'", 'main'), []);
    const d = await query("SELECT * FROM DOLT_LOG('--tables')", 'main');
    assert.equal(d.status, 'error');
    assert.match(d.message ?? '', /--tables/);
  });
});
