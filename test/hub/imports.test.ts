// Imports over HTTP: upload sessions on a second origin with pre-signed expiring part URLs,
// createImport's integrity checks, the four operations, every file type, and bad files.
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HubServer } from '../../src/hub/hubServer';
import type { Logger } from '../../src/core/logger';
import { HUB_JS, runHubCli, startHub, waitForOperation, type HubHandle } from '../helpers/hub';
import { filePartsMd5, importFile, splitParts, startImport, upload } from './importFlow';

const quiet: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

describe('hub imports', function () {
  let hub: HubHandle;
  const DB = 'alice/imp';

  before(async function () {
    hub = await startHub({ users: ['alice', 'bob'] });
    const r = await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'imp', visibility: 'public' } });
    assert.equal(r.status, 201);
    await hub.token('bob');
  });
  after(async () => hub?.stop());

  const sql = async (q: string, ref = 'main'): Promise<any> => (await hub.fetch(`/databases/${DB}/sql`, { json: { ref, q } })).body.data;
  const head = async (branch = 'main'): Promise<string> =>
    (await hub.fetch(`/databases/${DB}/branches`)).body.data.find((b: any) => b.name === branch)?.head_commit_sha;

  describe('upload sessions and parts', () => {
    it('hands out pre-signed PUT URLs on another origin; a part PUT answers with an ETag', async () => {
      const s = await hub.fetch(`/databases/${DB}/imports/uploads`, {
        user: 'alice',
        json: { content_length: 10, num_parts: 2, file_type: 'csv' },
      });
      assert.equal(s.status, 201);
      const up = s.body.data;
      assert.equal(up.http_method, 'PUT');
      assert.deepEqual(up.headers, {});
      assert.deepEqual(
        up.parts.map((p: any) => p.part_number),
        [1, 2],
      );
      const partOrigin = new URL(up.parts[0].url).origin;
      assert.notEqual(partOrigin, hub.url, 'parts live on a different origin');
      assert.ok(up.token && up.contents_key);
      const res = await fetch(up.parts[0].url, { method: 'PUT', body: 'hello' });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
      const forged = up.parts[1].url.replace(/signature=[^&]+/, 'signature=AAAA');
      assert.equal((await fetch(forged, { method: 'PUT', body: 'x' })).status, 403);
      const otherPart = up.parts[0].url.replace('/1?', '/2?');
      assert.equal((await fetch(otherPart, { method: 'PUT', body: 'x' })).status, 403, 'a signature is for one part only');
    });

    it('validates the session request and needs write access', async () => {
      assert.equal(
        (
          await hub.fetch(`/databases/${DB}/imports/uploads`, {
            user: 'alice',
            json: { content_length: 10, num_parts: 1, file_type: 'docx' },
          })
        ).status,
        400,
      );
      assert.equal(
        (
          await hub.fetch(`/databases/${DB}/imports/uploads`, {
            user: 'alice',
            json: { content_length: 0, num_parts: 1, file_type: 'csv' },
          })
        ).status,
        400,
      );
      assert.equal(
        (await hub.fetch(`/databases/${DB}/imports/uploads`, { user: 'alice', json: { content_length: 10, num_parts: 1 } })).status,
        400,
      );
      assert.equal(
        (await hub.fetch(`/databases/${DB}/imports/uploads`, { user: 'bob', json: { content_length: 10, num_parts: 1, file_type: 'csv' } }))
          .status,
        403,
      );
      assert.equal(
        (await hub.fetch(`/databases/${DB}/imports/uploads`, { json: { content_length: 10, num_parts: 1, file_type: 'csv' } })).status,
        401,
      );
    });
  });

  // The hub runs in this process on a clock the test moves, so expiry is checked without waiting
  // for it (HubOptions.clock; the spawned hub above uses the real time).
  describe('upload expiry, on a clock the test moves', () => {
    const TTL_SECONDS = 600;
    let dir: string;
    let local: HubServer;
    let token: string;
    let time = Date.parse('2026-01-01T00:00:00Z');

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'vdb-ttl-'));
      await runHubCli(['user', 'add', 'alice', '--data', dir]);
      token = (await runHubCli(['token', 'create', '--user', 'alice', '--data', dir])).stdout.trim();
      local = new HubServer({
        dataDir: dir,
        host: '127.0.0.1',
        port: 0,
        pageSize: 50,
        maxRows: 1000,
        uploadTtlSeconds: TTL_SECONDS,
        logger: quiet,
        workerScript: HUB_JS,
        clock: () => time,
      });
      await local.start();
      assert.equal((await call('/databases', { owner: 'alice', name: 'ttl', visibility: 'public' })).status, 201);
    });
    after(async () => {
      await local?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function call(path: string, json: unknown): Promise<{ status: number; body: any }> {
      const res = await fetch(`${local.url}/api/v2${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(json),
      });
      return { status: res.status, body: await res.json() };
    }
    const newSession = async (): Promise<any> => {
      const s = await call('/databases/alice/ttl/imports/uploads', { content_length: 4, num_parts: 1, file_type: 'csv' });
      assert.equal(s.status, 201);
      return s.body.data;
    };
    const put = async (url: string): Promise<number> => (await fetch(url, { method: 'PUT', body: 'a,b\n' })).status;

    it('takes a part up to the TTL and refuses it after, with 403', async () => {
      const first = await newSession();
      time += (TTL_SECONDS - 1) * 1000;
      assert.equal(await put(first.parts[0].url), 200, 'one second before the TTL the part URL still works');
      const second = await newSession();
      time += (TTL_SECONDS + 1) * 1000;
      assert.equal(await put(second.parts[0].url), 403, 'one second after the TTL it is refused');
    });
  });

  describe('createImport checks', () => {
    const csv = Buffer.from('id,name\n1,one\n2,two\n3,three\n');
    const body = (up: Awaited<ReturnType<typeof upload>>, over: Record<string, unknown> = {}): Record<string, unknown> => ({
      branch_name: 'main',
      table_name: 'checks',
      file_name: 'checks.csv',
      file_size: up.file_size,
      file_type: 'csv',
      import_operation: 'create',
      token: up.token,
      contents_key: up.contents_key,
      completed_parts: up.completed_parts,
      file_parts_md5: up.file_parts_md5,
      primary_keys: ['id'],
      ...over,
    });

    it('answers 400 on a wrong size, missing or wrong ETags, a wrong file_parts_md5 or key, and unknown fields', async () => {
      const up = await upload(hub, DB, csv, 'csv', 3);
      const expect400 = async (over: Record<string, unknown>, field: RegExp): Promise<void> => {
        const r = await hub.fetch(`/databases/${DB}/imports`, { user: 'alice', json: body(up, over) });
        assert.equal(r.status, 400, JSON.stringify(over));
        assert.equal(r.body.code, 'VALIDATION_FAILED');
        assert.match(r.body.detail, field);
      };
      await expect400({ file_size: csv.length + 1 }, /file_size/);
      await expect400({ completed_parts: up.completed_parts.slice(0, 2) }, /completed_parts/);
      await expect400(
        { completed_parts: up.completed_parts.map((p, i) => (i === 1 ? { ...p, etag: '"00000000000000000000000000000000"' } : p)) },
        /ETag/,
      );
      await expect400({ file_parts_md5: filePartsMd5(splitParts(csv, 2)) }, /file_parts_md5/);
      await expect400({ contents_key: 'uploads/x' }, /contents_key/);
      await expect400({ token: 'nope' }, /token/);
      await expect400({ file_type: 'psv' }, /file_type/);
      await expect400({ surprise: 1 }, /surprise/);
      const noPk = body(up);
      delete noPk['primary_keys'];
      const r = await hub.fetch(`/databases/${DB}/imports`, { user: 'alice', json: noPk });
      assert.equal(r.status, 400);
      assert.match(r.body.detail, /primary_keys/);
      // All of that left the session usable: the right body goes through, in any part order.
      const ok = await hub.fetch(`/databases/${DB}/imports`, {
        user: 'alice',
        json: body(up, { completed_parts: [...up.completed_parts].reverse() }),
      });
      assert.equal(ok.status, 202);
      const op = await waitForOperation(hub, ok.body.data.id);
      assert.equal(op.type, 'import');
      assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
      assert.deepEqual((await sql('SELECT name FROM checks ORDER BY id')).rows, [['one'], ['two'], ['three']]);
      // A session is used once.
      const again = await hub.fetch(`/databases/${DB}/imports`, { user: 'alice', json: body(up, { table_name: 'checks2' }) });
      assert.equal(again.status, 400);
    });

    it('404s an unknown branch and 409s an existing pull request branch', async () => {
      const up = await upload(hub, DB, csv, 'csv');
      assert.equal(
        (await hub.fetch(`/databases/${DB}/imports`, { user: 'alice', json: body(up, { branch_name: 'ghost', table_name: 'x1' }) })).status,
        404,
      );
      assert.equal(
        (
          await hub.fetch(`/databases/${DB}/imports`, {
            user: 'alice',
            json: body(up, { table_name: 'x1', pull_request_branch_name: 'main' }),
          })
        ).status,
        409,
      );
    });
  });

  describe('operations', () => {
    it('create infers MySQL-style types, applies primary_keys and commit_message', async () => {
      const data = 'id,name,price,born,active\n1,Ann,1.50,2001-02-03,true\n2,Ben,22.25,1999-12-31,false\n';
      const op = await importFile(hub, DB, 'main', 'people', 'create', 'csv', Buffer.from(data), {
        primary_keys: ['id'],
        commit_message: 'Add people',
      });
      assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
      assert.match(op.result.commit_sha, /^[0-9a-v]{32}$/);
      assert.equal(op.result.commit_sha, await head());
      const desc = await sql('DESCRIBE people');
      assert.deepEqual(
        desc.rows.map((r: any) => [r[0], r[1], r[3]]),
        [
          ['id', 'int', 'PRI'],
          ['name', 'varchar(16383)', ''],
          ['price', 'decimal(4,2)', ''],
          ['born', 'date', ''],
          ['active', 'tinyint(1)', ''],
        ],
      );
      assert.deepEqual((await sql('SELECT message FROM dolt_log LIMIT 1')).rows, [['Add people']]);
      const dup = await importFile(hub, DB, 'main', 'people', 'create', 'csv', Buffer.from(data), { primary_keys: ['id'] });
      assert.equal(dup.status, 'failed');
      assert.match(dup.error.detail, /already exists/);
    });

    it('update upserts, replace truncates then inserts, overwrite replaces the table', async () => {
      let op = await importFile(hub, DB, 'main', 'people', 'update', 'csv', Buffer.from('id,name\n2,Benjamin\n3,Cat\n'));
      assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
      assert.deepEqual((await sql('SELECT id, name, price FROM people ORDER BY id')).rows, [
        ['1', 'Ann', '1.50'],
        ['2', 'Benjamin', '22.25'],
        ['3', 'Cat', null],
      ]);
      op = await importFile(hub, DB, 'main', 'people', 'replace', 'csv', Buffer.from('id,name,price\n7,Gus,3\n'));
      assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
      assert.deepEqual((await sql('SELECT id, name, price FROM people ORDER BY id')).rows, [['7', 'Gus', '3.00']]);
      op = await importFile(hub, DB, 'main', 'people', 'overwrite', 'csv', Buffer.from('code,label\nA,Alpha\n'), {
        primary_keys: ['code'],
      });
      assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
      assert.deepEqual((await sql('SELECT * FROM people')).rows, [['A', 'Alpha']]);
      const missing = await importFile(hub, DB, 'main', 'nobody', 'update', 'csv', Buffer.from('id\n1\n'));
      assert.equal(missing.status, 'failed');
      assert.match(missing.error.detail, /does not exist/);
    });

    it('applies column_map and lands on a new branch with a pull request when asked', async () => {
      const before = await head();
      const op = await importFile(hub, DB, 'main', 'people', 'update', 'csv', Buffer.from('Code,Name\nB,Beta\n'), {
        column_map: { Code: 'code', Name: 'label' },
        pull_request_branch_name: 'import-beta',
      });
      assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
      assert.equal(typeof op.result.pull_id, 'number');
      const pull = (await hub.fetch(`/databases/${DB}/pulls/${op.result.pull_id}`)).body.data;
      assert.equal(pull.state, 'open');
      assert.equal(pull.from_branch.branch_name, 'import-beta');
      assert.equal(pull.to_branch.branch_name, 'main');
      assert.equal(await head(), before, 'the base branch is untouched');
      assert.deepEqual((await sql('SELECT * FROM people ORDER BY code', 'import-beta')).rows, [
        ['A', 'Alpha'],
        ['B', 'Beta'],
      ]);
    });

    it('assembles a file of 12 parts in order, without a listener per part (no MaxListenersExceededWarning)', async () => {
      const rows = Array.from({ length: 40 }, (_, i) => [String(i + 1), `city number ${i + 1}`]);
      const data = Buffer.from(`id,city\n${rows.map((r) => r.join(',')).join('\n')}\n`);
      const outputBefore = hub.output().length;
      const op = await importFile(hub, DB, 'main', 'cities_parts', 'create', 'csv', data, { primary_keys: ['id'], numParts: 12 });
      assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
      assert.deepEqual((await sql('SELECT id, city FROM cities_parts ORDER BY id')).rows, rows, 'every row of every part, in order');
      // Node prints process warnings to the hub's stderr, which the handle records.
      assert.doesNotMatch(hub.output().slice(outputBefore), /MaxListenersExceededWarning/);
    });

    it('imports psv, json, yaml, sql and xlsx files', async function () {
      this.timeout(60000);
      const cases: [string, Buffer][] = [
        ['psv', Buffer.from('id|city\n1|Lisbon\n2|Porto\n')],
        [
          'json',
          Buffer.from(
            JSON.stringify([
              { id: 1, city: 'Lisbon' },
              { id: 2, city: 'Porto' },
            ]),
          ),
        ],
        ['yaml', Buffer.from('- id: 1\n  city: Lisbon\n- id: 2\n  city: Porto\n')],
        [
          'sql',
          Buffer.from("CREATE TABLE t (`id` int PRIMARY KEY, `city` varchar(20));\nINSERT INTO t VALUES (1, 'Lisbon'), (2, 'Porto');\n"),
        ],
        [
          'xlsx',
          await xlsx([
            ['id', 'city'],
            [1, 'Lisbon'],
            [2, 'Porto'],
          ]),
        ],
      ];
      for (const [type, data] of cases) {
        const op = await importFile(hub, DB, 'main', `cities_${type}`, 'create', type, data, { primary_keys: ['id'] });
        assert.equal(op.status, 'succeeded', `${type}: ${JSON.stringify(op.error)}`);
        assert.deepEqual(
          (await sql(`SELECT id, city FROM cities_${type} ORDER BY id`)).rows,
          [
            ['1', 'Lisbon'],
            ['2', 'Porto'],
          ],
          type,
        );
      }
      const sqlTypes = await sql('DESCRIBE cities_sql');
      assert.equal(sqlTypes.rows[1][1], 'varchar(20)', 'declared types of a sql file are kept');
    });
  });

  describe('bad files', () => {
    it('fails the operation naming the row and column, and commits nothing, for every file type', async function () {
      this.timeout(90000);
      await importFile(hub, DB, 'main', 'strict', 'create', 'csv', Buffer.from('id,n,d\n1,5,2020-01-01\n'), { primary_keys: ['id'] });
      const before = await head();
      const cases: { type: string; table: string; op: string; data: Buffer; expect: RegExp; pk?: string[] }[] = [
        { type: 'csv', table: 'bad_csv', op: 'create', data: Buffer.from('a,b\n1,2\n3,4,5\n'), expect: /row 2/, pk: ['a'] },
        {
          type: 'csv',
          table: 'strict',
          op: 'update',
          data: Buffer.from('id,n\n2,7\n3,seven\n'),
          expect: /row 2, column "n".*not an integer/,
        },
        { type: 'csv', table: 'strict', op: 'update', data: Buffer.from('id,d\n4,2020-13-45x\n'), expect: /row 1, column "d"/ },
        { type: 'csv', table: 'dupes', op: 'create', data: Buffer.from('id,x\n1,a\n1,b\n'), expect: /row 2.*id/, pk: ['id'] },
        { type: 'psv', table: 'bad_psv', op: 'create', data: Buffer.from('a|b\n1|2|3\n'), expect: /row 1/, pk: ['a'] },
        { type: 'json', table: 'bad_json', op: 'create', data: Buffer.from('[{"a": 1}, {"a": 2,'), expect: /JSON/, pk: ['a'] },
        { type: 'yaml', table: 'bad_yaml', op: 'create', data: Buffer.from('- a: 1\n- a: [unclosed\n'), expect: /YAML/, pk: ['a'] },
        { type: 'sql', table: 'bad_sql', op: 'create', data: Buffer.from('DELETE FROM t;\n'), expect: /SQL/, pk: ['a'] },
        { type: 'xlsx', table: 'bad_xlsx', op: 'create', data: Buffer.from('this is not a spreadsheet'), expect: /XLSX/, pk: ['a'] },
        { type: 'csv', table: 'nopk', op: 'create', data: Buffer.from('a,b\n1,2\n'), expect: /primary key/i, pk: [] },
        { type: 'csv', table: 'strict', op: 'update', data: Buffer.from('id,zzz\n1,2\n'), expect: /"zzz".*not in table/ },
      ];
      for (const c of cases) {
        const op = await importFile(hub, DB, 'main', c.table, c.op, c.type, c.data, { primary_keys: c.pk ?? [] });
        assert.equal(op.status, 'failed', `${c.type} ${c.table} should fail`);
        assert.ok(op.error.code && op.error.title, 'an OperationError');
        assert.match(op.error.detail, c.expect, `${c.type}: ${op.error.detail}`);
      }
      assert.equal(await head(), before, 'nothing was committed');
      assert.deepEqual((await sql('SELECT id, n FROM strict')).rows, [['1', '5']]);
      const tables = (await sql('SHOW TABLES')).rows.flat();
      for (const t of ['bad_csv', 'dupes', 'bad_psv', 'bad_json', 'bad_yaml', 'bad_sql', 'bad_xlsx', 'nopk'])
        assert.equal(tables.includes(t), false, t);
    });

    it('reports a started import as a 202 whose failure is polled, not a transport error', async () => {
      const r = await startImport(hub, DB, 'main', 'later', 'create', 'csv', Buffer.from('a\n'), { primary_keys: ['a'] });
      assert.equal(r.status, 202);
      const op = await waitForOperation(hub, r.body.data.id);
      assert.equal(op.status, 'failed');
      assert.match(op.error.detail, /no rows/);
    });
  });
});

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
