// kill -9 in the middle of an import and of a merge: after a restart every commit that was
// acknowledged is still there with its rows, and nothing of the cut-off write is visible (no new
// branch, no moved head, no partial table). Expected rows come from the CSV the test wrote, read
// back table by table at each branch.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { serveHub, startHub, waitForOperation, type HubHandle } from '../helpers/hub';
import { waitFor } from '../helpers/waitFor.cjs';
import { importCsv, startImport } from './importFlow';

const DB = 'alice/kill';
const N = 30000;
/** Whole tables in one answer. */
const ARGS = ['--max-rows', '100000'];

function csv(rows: string[][]): string {
  return rows.map((r) => r.join(',')).join('\n') + '\n';
}

describe('hub: kill -9 during an import and a merge', function () {
  this.timeout(300000);
  let hub: HubHandle;
  let dataDir: string;

  before(async () => {
    hub = await startHub({ users: ['alice'], args: ARGS });
    dataDir = hub.dataDir;
    assert.equal(
      (await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'kill', visibility: 'private' } })).status,
      201,
    );
  });
  after(async () => {
    await hub?.stop({ keep: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  const sql = async (q: string, ref = 'main'): Promise<string[][]> => {
    const r = await hub.fetch(`/databases/${DB}/sql`, { user: 'alice', json: { ref, q, limit: 100000 } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.status, 'success', r.body.data.message);
    return r.body.data.rows;
  };
  const branches = async (): Promise<{ name: string; head_commit_sha: string }[]> =>
    (await hub.fetch(`/databases/${DB}/branches`, { user: 'alice' })).body.data;

  /** Everything a reader can see: branches with heads, the commits of each, every table's rows at each branch. */
  async function snapshot(): Promise<unknown> {
    const out: Record<string, unknown> = {};
    for (const b of await branches()) {
      const tables = (
        await sql(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'dolt_%' AND name NOT LIKE 'sqlite_%' ORDER BY name",
          b.name,
        )
      ).map((r) => r[0] as string);
      const rows: Record<string, string[][]> = {};
      for (const t of tables) rows[t] = await sql(`SELECT * FROM "${t}" ORDER BY 1`, b.name);
      out[b.name] = { head: b.head_commit_sha, log: await sql('SELECT commit_hash FROM dolt_log', b.name), rows };
    }
    return out;
  }

  /** Waits until the operation runs, then kills the hub and serves the same folder again. */
  async function killWhileRunning(opId: string): Promise<void> {
    await waitFor(
      'the operation to run',
      async () => {
        const op = (await hub.fetch(`/operations/${encodeURIComponent(opId)}`, { user: 'alice' })).body.data;
        if (op.status !== 'running')
          assert.equal(op.status, 'queued', `the operation ended (${op.status}) before it could be killed; make it bigger`);
        return op.status === 'running';
      },
      { timeoutMs: 60_000, intervalMs: 5 },
    );
    await hub.kill();
    hub = await serveHub(dataDir, false, ARGS);
  }

  async function assertInterrupted(opId: string): Promise<void> {
    const op = (await hub.fetch(`/operations/${encodeURIComponent(opId)}`, { user: 'alice' })).body.data;
    assert.equal(op.status, 'failed');
    assert.match(op.error.detail, /stopped before this operation finished/);
  }

  const base = Array.from({ length: N }, (_, i) => [String(i), `v-${i}`, `w-${i}`]);

  it('keeps every committed row and shows nothing of an import killed mid-way', async () => {
    await importCsv(hub, DB, 'main', 'items', 'create', csv([['id', 'v', 'w'], ...base]), { primary_keys: ['id'] });
    const before = await snapshot();
    // The independent expectation: the rows of the CSV itself.
    assert.deepEqual(await sql('SELECT id, v, w FROM items ORDER BY id'), base);
    const more = Array.from({ length: N }, (_, i) => [String(N + i), `new-${i}`, 'x']);
    const r = await startImport(hub, DB, 'main', 'items', 'update', 'csv', Buffer.from(csv([['id', 'v', 'w'], ...more])), {
      pull_request_branch_name: 'import-pr',
    });
    assert.equal(r.status, 202, r.text);
    await killWhileRunning(r.body.data.id);
    await assertInterrupted(r.body.data.id);
    assert.deepEqual(await snapshot(), before);
    assert.equal(
      (await branches()).some((b) => b.name === 'import-pr'),
      false,
      'no half-made pull request branch',
    );
  });

  it('keeps both sides and shows nothing of a merge killed mid-way', async () => {
    // Two branches that each changed every row, in different columns: a real three-way merge.
    assert.equal(
      (await hub.fetch(`/databases/${DB}/branches`, { user: 'alice', json: { name: 'feature', from: { branch: 'main' } } })).status,
      201,
    );
    await importCsv(hub, DB, 'feature', 'items', 'update', csv([['id', 'v'], ...base.map((r) => [r[0] as string, `feature-${r[0]}`])]));
    await importCsv(hub, DB, 'main', 'items', 'update', csv([['id', 'w'], ...base.map((r) => [r[0] as string, `main-${r[0]}`])]));
    const pr = await hub.fetch(`/databases/${DB}/pulls`, {
      user: 'alice',
      json: {
        title: 'Feature',
        from_branch: { database: { owner: 'alice', name: 'kill' }, branch_name: 'feature' },
        to_branch: { database: { owner: 'alice', name: 'kill' }, branch_name: 'main' },
      },
    });
    assert.equal(pr.status, 201, pr.text);
    const before = await snapshot();
    assert.deepEqual(await sql("SELECT count(*) FROM items WHERE v = 'feature-' || id", 'feature'), [[String(N)]]);
    assert.deepEqual(await sql("SELECT count(*) FROM items WHERE w = 'main-' || id AND v = 'v-' || id"), [[String(N)]]);
    const m = await hub.fetch(`/databases/${DB}/pulls/${pr.body.data.pull_number}/merge`, { method: 'POST', user: 'alice' });
    assert.equal(m.status, 202, m.text);
    await killWhileRunning(m.body.data.id);
    await assertInterrupted(m.body.data.id);
    assert.deepEqual(await snapshot(), before);
    assert.equal((await hub.fetch(`/databases/${DB}/pulls/${pr.body.data.pull_number}`, { user: 'alice' })).body.data.state, 'open');
    // And the database still merges cleanly afterwards.
    const again = await hub.fetch(`/databases/${DB}/pulls/${pr.body.data.pull_number}/merge`, { method: 'POST', user: 'alice' });
    assert.equal(again.status, 202);
    const merged = await waitForOperation(hub, again.body.data.id, 'alice', 240_000);
    assert.equal(merged.status, 'succeeded', JSON.stringify(merged.error));
    assert.deepEqual(await sql("SELECT count(*) FROM items WHERE v = 'feature-' || id AND w = 'main-' || id"), [[String(N)]]);
  });
});
