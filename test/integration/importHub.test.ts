// The extension's import path (src/commands/importFile.ts with the real HubClient) against the
// real hub: every file type × every operation, the pull request path, and the failures — a bad
// row past the preview, a file changed after the preview, an expired upload, a cancel mid-upload.
// Runs in the extension host (npm run test:integration); needs no UI, so the questions are
// answered by a script. Each run works in a fresh database of its own.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { HubClient, UploadError } from '../../src/api/index';
import { runOperation } from '../../src/commands/operationsRunner';
import { importFile, type ImportDeps, type ImportFlowResult } from '../../src/commands/importFile';
import type { ImportFileKind } from '../../src/core/import/tableReader';
import { silentLogger } from '../../src/core/logger';
import type { DatabaseRef, QueryResult } from '../../src/shared/wire';
import { ScriptedUi, type Reply } from '../helpers/scriptedUi';
import { integrationConfig } from './testEnv';
import * as vscode from 'vscode';
import { SqlPort } from '../../src/core/sql/sqlPort';
import { MemoryMemento } from './memoryMemento';

/** Answers each question by the start of its title; a reported error fails the test. */
const importUi = (script: Record<string, Reply>): ScriptedUi => new ScriptedUi(script, { errors: 'throw' });

type Row = Record<string, string | number | null>;

async function writeFile(
  dir: string,
  table: string,
  type: ImportFileKind,
  rows: Row[],
  opts: { sqlCreate?: string } = {},
): Promise<string> {
  const ext = type === 'yaml' ? 'yaml' : type;
  const path = join(dir, `${table}.${ext}`);
  const columns = Object.keys(rows[0]!);
  const text = (v: string | number | null): string => (v === null ? '' : String(v));
  switch (type) {
    case 'csv':
    case 'psv': {
      const sep = type === 'csv' ? ',' : '|';
      writeFileSync(path, [columns.join(sep), ...rows.map((r) => columns.map((c) => text(r[c]!)).join(sep))].join('\n') + '\n');
      break;
    }
    case 'json':
      writeFileSync(path, JSON.stringify(rows, null, 1));
      break;
    case 'yaml':
      writeFileSync(
        path,
        rows.map((r) => columns.map((c, i) => `${i === 0 ? '- ' : '  '}${c}: ${JSON.stringify(r[c])}`).join('\n')).join('\n') + '\n',
      );
      break;
    case 'sql': {
      const lit = (v: string | number | null): string =>
        v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`;
      const inserts = `INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES\n${rows.map((r) => `(${columns.map((c) => lit(r[c]!)).join(', ')})`).join(',\n')};\n`;
      writeFileSync(path, (opts.sqlCreate ? `-- dump\n${opts.sqlCreate};\n` : '') + inserts);
      break;
    }
    case 'xlsx': {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('Sheet1');
      ws.addRow(columns);
      for (const r of rows) ws.addRow(columns.map((c) => r[c]));
      await wb.xlsx.writeFile(path);
      break;
    }
  }
  return path;
}

describe('import into the hub through the extension path', function () {
  this.timeout(180_000);
  const config = integrationConfig();
  const client = new HubClient({ baseUrl: config.hubUrl, token: config.token, logger: silentLogger });
  const db: DatabaseRef = { owner: 'alice', name: `imports_${Date.now().toString(36)}` };
  let dir: string;
  const opened: number[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'import-it-'));
    await client.createDatabase({ owner: db.owner, name: db.name, visibility: 'public', description: 'import integration tests' });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function deps(ui: ScriptedUi, api: ImportDeps['clients']['clientFor'] = () => client): ImportDeps {
    return {
      ui,
      log: silentLogger,
      clients: {
        hosts: () => [{ id: 'hub', label: 'Test Hub', siteUrl: config.hubUrl } as never],
        host: () => ({ id: 'hub' }) as never,
        labelOf: () => 'Test Hub',
        clientFor: api,
      },
      accounts: { activeAccount: () => ({ id: 'hub#alice', hostId: 'hub', username: 'alice', kind: 'token', signedInAt: '' }) as never },
      databases: {
        list: () => [db],
        hostIds: () => ['hub'],
        add: async () => undefined,
        remove: async () => undefined,
        has: () => true,
      } as never,
      tree: { refreshDatabase: () => undefined } as never,
      operations: {
        run: (o) => runOperation({ start: o.start, waiter: o.client, signal: new AbortController().signal }),
        showFailure: async (_what, error) => void ui.infos.push(`FAILED ${error.code}: ${error.detail ?? error.title}`),
      },
      signIn: async () => undefined,
      sql: new SqlPort(
        () => client,
        () => ({ timeoutMs: 30_000, rowLimit: 1000 }),
      ),
      extensionUri: vscode.Uri.file(__dirname),
      workspaceState: new MemoryMemento(),
      pickFile: async () => undefined,
      showPreview: async () => undefined,
      openPull: async (t) => void opened.push(t.pullNumber),
    };
  }

  async function sql(q: string, ref = 'main'): Promise<QueryResult> {
    const r = await client.runSql(db, { ref, q });
    assert.equal(r.status, 'success', `${q}: ${r.message}`);
    return r;
  }
  async function tables(ref = 'main'): Promise<string[]> {
    return (await sql('SHOW TABLES', ref)).rows.map((r) => r[0]!);
  }
  /** The table's rows as `id:name:price` text, numbers normalised. */
  async function contents(table: string, columns: string[], ref = 'main'): Promise<string[]> {
    const r = await sql(`SELECT ${columns.map((c) => `\`${c}\``).join(', ')} FROM \`${table}\` ORDER BY 1`, ref);
    return r.rows.map((row) => row.map((v) => (v === null ? 'NULL' : /^-?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : v)).join(':'));
  }

  function run(file: string, type: ImportFileKind, script: Record<string, Reply>, ui?: ScriptedUi): Promise<ImportFlowResult> {
    const name = file.split('/').pop()!;
    const u = ui ?? importUi({});
    const own = u.byTitle!;
    const defaults: Record<string, Reply> = {
      [`Import ${name}: file type`]: type,
      'Import: branch': '$(git-branch) main',
      'Commit message': '',
      'Import: where should': '$(git-commit) Commit directly to main',
      'Import: column map': '$(check) Continue',
    };
    // The UI's own answers win over the defaults; `script` wins over both.
    Object.assign(own, { ...defaults, ...own, ...script });
    return importFile(deps(u), { filePath: file });
  }

  const TYPES: ImportFileKind[] = ['csv', 'psv', 'xlsx', 'json', 'sql', 'yaml'];
  for (const type of TYPES) {
    it(`${type}: create, update, replace, overwrite`, async () => {
      const table = `fruit_${type}`;
      const cols = ['id', 'name', 'price'];
      // create: a new table with inferred (or, for sql, declared) types and the chosen key.
      let file = await writeFile(
        dir,
        table,
        type,
        [
          { id: 1, name: 'apple', price: '1.50' },
          { id: 2, name: 'banana', price: '0.25' },
        ],
        {
          sqlCreate: `CREATE TABLE \`${table}\` (\`id\` int NOT NULL, \`name\` varchar(64), \`price\` decimal(6,2), PRIMARY KEY (\`id\`))`,
        },
      );
      let result = await run(file, type, {
        'Import: table': `$(add) ${table}`,
        'Import: operation': 'create',
        'Import: primary key': ['id'],
      });
      assert.equal(result.kind, 'imported', JSON.stringify(result));
      assert.ok(result.kind === 'imported' && result.commit, 'a commit on main');
      assert.deepEqual(await contents(table, cols), ['1:apple:1.5', '2:banana:0.25']);
      const key = (await sql(`DESCRIBE \`${table}\``)).rows.filter((r) => r[3] === 'PRI').map((r) => r[0]);
      assert.deepEqual(key, ['id']);

      // update: upsert by key.
      file = await writeFile(dir, table, type, [
        { id: 2, name: 'banana', price: '0.30' },
        { id: 3, name: 'cherry', price: '4.00' },
      ]);
      result = await run(file, type, {
        'Import: table': `$(table) ${table}`,
        'Import: operation': 'update',
        'Import: column map': '$(check) Continue',
      });
      assert.equal(result.kind, 'imported', JSON.stringify(result));
      assert.deepEqual(await contents(table, cols), ['1:apple:1.5', '2:banana:0.3', '3:cherry:4']);

      // replace: empty the table, keep its schema, insert the file.
      file = await writeFile(dir, table, type, [{ id: 4, name: 'date', price: '2.00' }]);
      result = await run(file, type, {
        'Import: table': `$(table) ${table}`,
        'Import: operation': 'replace',
        'Import: column map': '$(check) Continue',
      });
      assert.equal(result.kind, 'imported', JSON.stringify(result));
      assert.deepEqual(await contents(table, cols), ['4:date:2']);

      // overwrite: the table is recreated from the file, new columns and all.
      file = await writeFile(dir, table, type, [
        { code: 'E', label: 'elder' },
        { code: 'F', label: 'fig' },
      ]);
      result = await run(file, type, {
        'Import: table': `$(table) ${table}`,
        'Import: operation': 'overwrite',
        'Import: primary key': ['code'],
      });
      assert.equal(result.kind, 'imported', JSON.stringify(result));
      assert.deepEqual(await contents(table, ['code', 'label']), ['E:elder', 'F:fig']);
      const columnsNow = (await sql(`DESCRIBE \`${table}\``)).rows.map((r) => r[0]);
      assert.deepEqual(columnsNow, ['code', 'label']);
    });
  }

  it('lands on a new branch and opens a pull request by default', async () => {
    const file = await writeFile(dir, 'orders', 'csv', [
      { order_id: 10, total: '9.99' },
      { order_id: 11, total: '5.00' },
    ]);
    const ui = importUi({
      'Import: table': '$(add) orders',
      'Import: operation': 'create',
      'Import: primary key': ['order_id'],
      // Rename one column on the way in: first pick it, then continue.
      'Import: column map into new table': (
        (step = 0) =>
        () =>
          step++ === 0 ? 'total' : '$(check) Continue'
      )(),
      'Import: name of file column "total"': 'amount',
      'Import: where should': '$(git-pull-request) Open a pull request',
      'Import: pull request branch': 'import-orders-it',
    });
    const result = await run(file, 'csv', {}, ui);
    assert.equal(result.kind, 'imported', JSON.stringify(result));
    const n = result.kind === 'imported' ? result.pullNumber : undefined;
    assert.ok(n, `a pull request number: ${JSON.stringify(result)} ${ui.infos.join(' | ')}`);
    const pull = await client.getPull(db, n);
    assert.equal(pull.state, 'open');
    assert.equal(pull.from_branch.branch_name, 'import-orders-it');
    assert.equal(pull.to_branch.branch_name, 'main');
    assert.ok(!(await tables('main')).includes('orders'), 'main is untouched until the merge');
    assert.deepEqual(await contents('orders', ['order_id', 'amount'], 'import-orders-it'), ['10:9.99', '11:5']);
    assert.ok(ui.infos.some((m) => m.includes(`pull request #${n} is open`)));
  });

  it('a bad row past the preview fails the operation with its row and column, committing nothing', async () => {
    const lines = ['id,name'];
    for (let i = 1; i <= 150; i++) lines.push(`${i},n${i}`);
    lines.push('151,"unclosed');
    const file = join(dir, 'broken.csv');
    writeFileSync(file, lines.join('\n') + '\n');
    const before = (await client.listBranches(db)).items.find((b) => b.name === 'main')!.head_commit_sha;
    const ui = importUi({ 'Import: table': '$(add) broken', 'Import: operation': 'create', 'Import: primary key': ['id'] });
    const result = await run(file, 'csv', {}, ui);
    assert.equal(result.kind, 'failed', JSON.stringify(result));
    assert.match(ui.infos.find((m) => m.startsWith('FAILED')) ?? '', /row 151/);
    assert.ok(!(await tables()).includes('broken'));
    const after = (await client.listBranches(db)).items.find((b) => b.name === 'main')!.head_commit_sha;
    assert.equal(after, before);
  });

  it('does not upload a file changed between preview and upload', async () => {
    const file = await writeFile(dir, 'changing', 'csv', [{ id: 1, v: 'a' }]);
    const opsBefore = (await client.listOperations(db)).items.length;
    const result = await run(file, 'csv', {
      'Import: table': '$(add) changing',
      'Import: operation': 'create',
      'Import: primary key': ['id'],
      'Import: where should': () => {
        writeFileSync(file, 'id,v\n1,a\n2,b\n');
        utimesSync(file, new Date(), new Date(Date.now() + 10_000));
        return '$(git-commit) Commit directly to main';
      },
    });
    assert.equal(result.kind, 'blocked');
    assert.equal((await client.listOperations(db)).items.length, opsBefore);
    assert.ok(!(await tables()).includes('changing'));
  });

  it('an expired upload says to start again and imports nothing', async () => {
    const file = await writeFile(dir, 'expired', 'csv', [{ id: 1, v: 'a' }]);
    // Storage refuses a part URL whose signature no longer holds, as it does once it expires.
    const tampered = new HubClient({ baseUrl: config.hubUrl, token: config.token, logger: silentLogger });
    const createSession = tampered.createImportUpload.bind(tampered);
    tampered.createImportUpload = async (...args) => {
      const session = await createSession(...args);
      const expired = (url: string): string => {
        const u = new URL(url);
        if (u.searchParams.has('expires')) u.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 60));
        else u.searchParams.set('signature', 'expired');
        return u.toString();
      };
      return { ...session, parts: session.parts.map((p) => ({ ...p, url: expired(p.url) })) };
    };
    const ui = importUi({
      'Import expired.csv: file type': 'csv',
      'Import: branch': '$(git-branch) main',
      'Import: table': '$(add) expired',
      'Import: operation': 'create',
      'Import: primary key': ['id'],
      'Import: column map': '$(check) Continue',
      'Commit message': '',
      'Import: where should': '$(git-commit) Commit directly to main',
    });
    const result = await importFile(
      deps(ui, () => tampered),
      { filePath: file },
    );
    assert.equal(result.kind, 'uploadExpired', JSON.stringify(result));
    assert.ok(
      ui.infos.some((m) => /upload of expired\.csv expired before it finished.*nothing was imported\. Start the upload again\?/.test(m)),
      ui.infos.join(' | '),
    );
    assert.ok(!(await tables()).includes('expired'));
    // Storage really refused the tampered part: the client's error says so.
    await assert.rejects(
      tampered.uploadImport({ db, file, fileType: 'csv' }),
      (err: unknown) => err instanceof UploadError && err.reason === 'expired',
    );
  });

  it('cancelling mid-upload leaves nothing behind', async () => {
    // ~12 MB: three 5 MiB parts, so there is a "mid".
    const lines = ['id,payload'];
    const pad = 'x'.repeat(110);
    for (let i = 1; i <= 100_000; i++) lines.push(`${i},${pad}`);
    const file = join(dir, 'cancelled.csv');
    writeFileSync(file, lines.join('\n') + '\n');
    const opsBefore = (await client.listOperations(db)).items.length;
    const branchesBefore = (await client.listBranches(db)).items.map((b) => b.name).sort();
    const ui = importUi({ 'Import: table': '$(add) cancelled', 'Import: operation': 'create', 'Import: primary key': ['id'] });
    ui.onProgress = (message, abort) => {
      if (/part [1-9]\d* of/.test(message) && !/part 0 of/.test(message)) abort();
    };
    const result = await run(
      file,
      'csv',
      { 'Import: where should': '$(git-pull-request) Open a pull request', 'Import: pull request branch': '' },
      ui,
    );
    assert.equal(result.kind, 'cancelled');
    assert.ok(
      ui.progress.some((m) => /part 1 of 3/.test(m)),
      ui.progress.join(' | '),
    );
    assert.ok(ui.infos.some((m) => /cancelled; nothing was imported/.test(m)));
    assert.equal((await client.listOperations(db)).items.length, opsBefore);
    assert.deepEqual((await client.listBranches(db)).items.map((b) => b.name).sort(), branchesBefore);
    assert.ok(!(await tables()).includes('cancelled'));
  });
});
