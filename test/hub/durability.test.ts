// The CLI as a process, and what survives: restarts, kills mid-import and mid-write, and
// concurrent writers on one database.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HUB_JS, REPO_ROOT, runHubCli, serveHub, startHub, waitForOperation, type HubHandle } from '../helpers/hub';
import { waitFor } from '../helpers/waitFor.cjs';
import { startImport, importCsv } from './importFlow';

describe('hub CLI and durability', function () {
  this.timeout(120000);

  describe('command line', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'vdb-cli-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('adds users and organizations, prints only the token, and refuses bad input', async () => {
      await runHubCli(['user', 'add', 'dora', '--data', dir, '--email', 'dora@example.com', '--password', 'pw']);
      await runHubCli(['user', 'add', 'eve', '--data', dir]);
      await runHubCli(['org', 'add', 'team', '--member', 'dora:owner', '--member', 'eve:reader', '--data', dir]);
      const { stdout } = await runHubCli(['token', 'create', '--user', 'dora', '--data', dir]);
      assert.match(stdout, /^vdbp_[A-Za-z0-9_-]{20,}\n$/);
      await assert.rejects(runHubCli(['token', 'create', '--user', 'nobody', '--data', dir]), /No user named "nobody"/);
      await assert.rejects(runHubCli(['user', 'add', 'dora', '--data', dir]), /already/);
      await assert.rejects(runHubCli(['org', 'add', 'x', '--member', 'dora:king', '--data', dir]), /ROLE|owner\|writer\|reader/);
      await assert.rejects(runHubCli(['frobnicate', '--data', dir]), (e: any) => e.code === 2);
      await assert.rejects(runHubCli(['serve', '--data', dir, '--port', 'abc']), /--port/);
    });

    it('fails fast with a clear message when the engine cannot load (sqlite3.wasm missing)', async () => {
      const bare = mkdtempSync(join(tmpdir(), 'vdb-nowasm-'));
      copyFileSync(HUB_JS, join(bare, 'hub.js'));
      try {
        const res = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
          const child = spawn(process.execPath, [join(bare, 'hub.js'), 'serve', '--data', dir, '--port', '0'], {
            cwd: bare,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          let err = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.stderr.on('data', (d: Buffer) => (err += d.toString()));
          child.on('exit', (code) => resolve({ code, out, err }));
        });
        assert.equal(res.code, 1);
        assert.equal(res.out.includes('Hub listening'), false);
        assert.match(res.err, /database engine could not start: sqlite3\.wasm is missing/);
      } finally {
        rmSync(bare, { recursive: true, force: true });
      }
    });

    it('logs requests with --verbose but never the token', async () => {
      const h = await serveHub(dir, false, ['--verbose']);
      try {
        const token = await h.token('dora');
        const r = await h.fetch('/user', { authorization: `Bearer ${token}` });
        assert.equal(r.status, 200);
        await h.fetch('/user', { authorization: 'Bearer wrong-secret-value' });
        const rid = r.headers.get('x-request-id') as string;
        // Both requests logged (the refused one too), so the checks below read every line they wrote.
        await waitFor(
          () => `both requests in the log:\n${h.output()}`,
          () => h.output().includes(`GET /api/v2/user 200`) && h.output().includes(rid) && h.output().includes('GET /api/v2/user 401'),
        );
        assert.equal(h.output().includes(token), false);
        assert.equal(h.output().includes('wrong-secret-value'), false);
      } finally {
        await h.stop();
      }
    });

    it('serves from any working directory and from a copy of dist/ without node_modules, printing exactly one line', async () => {
      const bare = mkdtempSync(join(tmpdir(), 'vdb-bare-'));
      copyFileSync(HUB_JS, join(bare, 'hub.js'));
      copyFileSync(join(REPO_ROOT, 'dist', 'sqlite3.wasm'), join(bare, 'sqlite3.wasm'));
      const child = spawn(process.execPath, [join(bare, 'hub.js'), 'serve', '--data', dir, '--port', '0'], {
        cwd: tmpdir(),
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NODE_PATH: '' },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      await waitFor(
        () => `its first line (out: ${out}, err: ${err})`,
        () => out.includes('\n') || child.exitCode !== null,
        { timeoutMs: 30_000 },
      );
      assert.match(out, /^Hub listening on http:\/\/127\.0\.0\.1:\d+\n$/, err);
      const url = out.trim().replace('Hub listening on ', '');
      const token = (await runHubCli(['token', 'create', '--user', 'dora', '--data', dir])).stdout.trim();
      // The token created while serving works at once; the org role lets dora create under it.
      const created = await fetch(`${url}/api/v2/databases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ owner: 'team', name: 'd1', visibility: 'private' }),
      });
      assert.equal(created.status, 201);
      const q = await fetch(`${url}/api/v2/databases/team/d1/sql?ref=main&q=${encodeURIComponent('select 40 + 2 as answer')}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.deepEqual(((await q.json()) as any).data.rows, [['42']]);
      const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGINT');
      assert.equal(await exit, 0);
      assert.equal(out.trim().split('\n').length, 1, 'exactly one line on stdout');
      rmSync(bare, { recursive: true, force: true });
    });
  });

  describe('restarts and kills', () => {
    let hub: HubHandle;
    let dataDir: string;
    const DB = 'alice/dur';

    before(async () => {
      hub = await startHub({ users: ['alice'] });
      dataDir = hub.dataDir;
      assert.equal(
        (await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'dur', visibility: 'private' } })).status,
        201,
      );
      await importCsv(hub, DB, 'main', 'items', 'create', 'id,v\n1,a\n2,b\n', { primary_keys: ['id'] });
    });
    after(async () => {
      await hub?.stop({ keep: true });
      rmSync(dataDir, { recursive: true, force: true });
    });

    const headOf = async (h: HubHandle): Promise<string> =>
      (await h.fetch(`/databases/${DB}/branches`, { user: 'alice' })).body.data.find((b: any) => b.name === 'main').head_commit_sha;

    it('takes concurrent writers on one database without losing any', async () => {
      const names = Array.from({ length: 8 }, (_, i) => `b${i}`);
      const results = await Promise.all([
        ...names.map((n) => hub.fetch(`/databases/${DB}/branches`, { user: 'alice', json: { name: n, from: { branch: 'main' } } })),
        ...names.map((n) => hub.fetch(`/databases/${DB}/tags`, { user: 'alice', json: { name: `t-${n}`, from: { branch: 'main' } } })),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        results.map(() => 201),
      );
      const imports = await Promise.all(
        [3, 4, 5, 6].map((id) => startImport(hub, DB, 'main', 'items', 'update', 'csv', Buffer.from(`id,v\n${id},x${id}\n`))),
      );
      const ops = await Promise.all(imports.map((r) => waitForOperation(hub, r.body.data.id)));
      assert.deepEqual(
        ops.map((o) => o.status),
        ['succeeded', 'succeeded', 'succeeded', 'succeeded'],
      );
      const branches = (await hub.fetch(`/databases/${DB}/branches?`, { user: 'alice' })).body.data.map((b: any) => b.name);
      for (const n of names) assert.ok(branches.includes(n), n);
      const rows = (
        await hub.fetch(`/databases/${DB}/sql`, { user: 'alice', json: { ref: 'main', q: 'SELECT id FROM items ORDER BY id' } })
      ).body.data.rows;
      assert.deepEqual(rows.flat(), ['1', '2', '3', '4', '5', '6']);
    });

    it('keeps everything across a clean restart', async () => {
      const before = await hub.fetch(`/databases/${DB}/operations`, { user: 'alice' });
      await hub.stop({ keep: true });
      hub = await serveHub(dataDir);
      const after = await hub.fetch(`/databases/${DB}/operations`, { user: 'alice' });
      assert.deepEqual(after.body.data, before.body.data);
      assert.equal((await hub.fetch(`/databases/${DB}`, { user: 'alice' })).body.data.visibility, 'private');
    });

    it('marks an import cut off by a kill as failed on restart, and the database keeps its last commit', async () => {
      const head = await headOf(hub);
      const lines = ['id,v'];
      for (let i = 100; i < 60100; i++) lines.push(`${i},value-${i}`);
      const r = await startImport(hub, DB, 'main', 'items', 'update', 'csv', Buffer.from(lines.join('\n') + '\n'));
      assert.equal(r.status, 202);
      const id = r.body.data.id as string;
      // Wait until it is really running, then pull the plug.
      await waitFor(
        'the import to run',
        async () => {
          const op = (await hub.fetch(`/operations/${encodeURIComponent(id)}`, { user: 'alice' })).body.data;
          assert.notEqual(op.status, 'succeeded', 'the import finished before it could be killed; make it bigger');
          return op.status === 'running';
        },
        { timeoutMs: 60_000, intervalMs: 10 },
      );
      await hub.kill();
      hub = await serveHub(dataDir);
      const op = (await hub.fetch(`/operations/${encodeURIComponent(id)}`, { user: 'alice' })).body.data;
      assert.equal(op.status, 'failed');
      assert.match(op.error.detail, /stopped before this operation finished/);
      assert.equal(await headOf(hub), head);
      const count = (await hub.fetch(`/databases/${DB}/sql`, { user: 'alice', json: { ref: 'main', q: 'SELECT count(*) FROM items' } }))
        .body.data.rows;
      assert.deepEqual(count, [['6']]);
    });

    it('leaves every database at a committed state when killed in the middle of writes', async () => {
      for (let round = 0; round < 3; round++) {
        const created: string[] = [];
        const writes = Array.from({ length: 12 }, (_, i) => `k${round}-${i}`).map(async (n) => {
          const res = await hub
            .fetch(`/databases/${DB}/branches`, { user: 'alice', json: { name: n, from: { branch: 'main' } } })
            .catch(() => undefined);
          if (res?.status === 201) created.push(n);
        });
        // Kill at a different point each round: after 1, 5, then 9 of the 12 writes were acknowledged.
        await waitFor(`${1 + round * 4} acknowledged writes`, () => created.length >= 1 + round * 4, { timeoutMs: 60_000, intervalMs: 1 });
        await hub.kill();
        await Promise.all(writes);
        hub = await serveHub(dataDir);
        const branches = await hub.fetch(`/databases/${DB}/branches?`, { user: 'alice' });
        assert.equal(branches.status, 200);
        const names: string[] = branches.body.data.map((b: any) => b.name);
        for (const n of created) assert.ok(names.includes(n), `acknowledged branch ${n} survived`);
        const q = await hub.fetch(`/databases/${DB}/sql`, { user: 'alice', json: { ref: 'main', q: 'SELECT count(*) FROM items' } });
        assert.deepEqual(q.body.data.rows, [['6']]);
      }
    });
  });
});
