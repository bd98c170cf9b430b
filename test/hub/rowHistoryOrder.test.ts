// Row History when commits share a second (issue #25): a script made eight commits with the same
// date, each setting one row's value, some commits touching only another row. The versions the view
// loads must follow the commit graph; the expected versions come from plain reads of the row at
// each commit of the branch's first-parent chain (dolt_commit_ancestors), never from the history
// query itself.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import init from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { serveHub, startHub, type HubHandle } from '../helpers/hub';
import { hubSql, hubSqlPort } from '../helpers/hubSql';
import type { Cell } from '../../src/shared/wire';
import { loadRowHistory } from '../../src/core/review/rowHistoryView';

const DB = 'alice/burst';
const DATE = '2026-03-01T10:00:00Z';
/** Per commit: the value of row 1 (undefined: the commit changes only row 2). */
const STEPS: (string | undefined)[] = ['a', 'b', undefined, 'a', 'c', undefined, 'b', 'd'];

async function buildDatabase(): Promise<Uint8Array> {
  const sqlite3 = await init();
  const db = new sqlite3.oo1.DB('/burst-gen.db', 'c');
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, v TEXT)');
  db.exec(`INSERT INTO items VALUES (1, 'start'), (2, '0')`);
  db.exec(`SELECT dolt_commit('-A', '-m', 'create', '--date', '${DATE}')`);
  STEPS.forEach((v, i) => {
    if (v === undefined) db.exec(`UPDATE items SET v = '${i}' WHERE id = 2`);
    else db.exec(`UPDATE items SET v = '${v}' WHERE id = 1`);
    db.exec(`SELECT dolt_commit('-A', '-m', 'step ${i}', '--date', '${DATE}')`);
  });
  const bytes = sqlite3.capi.sqlite3_js_db_export(db.pointer);
  db.close();
  return bytes;
}

describe('row history follows the commit graph when commits share a second', function () {
  this.timeout(120_000);
  let hub: HubHandle;
  const sql = hubSql(() => hub, DB);

  before(async () => {
    const first = await startHub({ users: ['alice'] });
    const made = await first.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'burst', visibility: 'private' } });
    assert.equal(made.status, 201);
    await first.stop({ keep: true });
    writeFileSync(join(first.dataDir, 'databases', 'alice', 'burst.db'), await buildDatabase());
    hub = await serveHub(first.dataDir, true);
  });
  after(async () => hub?.stop());

  /** The branch's commits newest first, walking first parents from the head. */
  const chain = async (): Promise<string[]> => {
    const head = (await sql.ok("SELECT commit_hash FROM dolt_log WHERE message = 'step 7'")).rows[0]![0]!;
    const out = [head];
    for (;;) {
      const at = out[out.length - 1]!;
      const p = (await sql.ok(`SELECT parent_hash FROM dolt_commit_ancestors WHERE commit_hash = '${at}' AND parent_index = 0`, at))
        .rows[0]?.[0];
      if (!p) return out;
      out.push(p);
    }
  };
  /** Row 1's value at a commit; undefined where the table or the row is not there. */
  const valueAt = async (commit: string): Promise<Cell | undefined> => {
    if (!(await sql.ok('SHOW TABLES', commit)).rows.some((r) => r[0] === 'items')) return undefined;
    return (await sql.ok('SELECT v FROM items WHERE id = 1', commit)).rows[0]?.[0];
  };

  it('every commit the script made has the same date', async () => {
    const dates = new Set(
      (await sql.ok("SELECT date FROM dolt_log WHERE message = 'create' OR message LIKE 'step %'")).rows.map((r) => r[0]),
    );
    assert.equal(dates.size, 1, `dates: ${[...dates].join(', ')}`);
  });

  it('the versions are the runs of plain reads at each commit, newest first, each introduced by the oldest commit of its run', async () => {
    const commits = await chain();
    // The script's commits, and the database's first commit before them.
    assert.equal(commits.length, STEPS.length + 2);
    const expected: { commit: string; v: Cell | undefined }[] = [];
    for (const c of commits) {
      const v = await valueAt(c);
      if (v === undefined) break;
      const last = expected[expected.length - 1];
      if (last && last.v === v) last.commit = c;
      else expected.push({ commit: c, v });
    }
    const loaded = await loadRowHistory(hubSqlPort(() => hub).review('hub', { owner: 'alice', name: 'burst' }), {
      ref: 'main',
      table: 'items',
      key: { id: '1' },
      column: 'v',
    });
    const vI = loaded.columns.findIndex((c) => c.name === 'v');
    assert.deepEqual(
      loaded.history.versions.map((x) => ({ commit: x.commit, v: x.cells[vI] })),
      expected,
    );
    // Blame names the commit that set the value the row has now.
    assert.equal(loaded.blame?.blame?.commit, expected[0]!.commit);
  });
});
