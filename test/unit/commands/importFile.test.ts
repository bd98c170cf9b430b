import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFile, type ImportApi, type ImportDeps } from '../../../src/commands/importFile';
import { runOperation } from '../../../src/commands/operationsRunner';
import { OperationFailedError, UploadError } from '../../../src/api/errors';
import { silentLogger } from '../../../src/core/logger';
import type { Ui } from '../../../src/platform/ui';
import { ScriptedUi, type Reply } from '../../helpers/scriptedUi';
import type { CreateImportBody, DatabaseRef, Operation, QueryResult } from '../../../src/shared/wire';
import { aBranch, anOperation } from '../../builders/wire';
import { MemoryState, TEST_EXTENSION_URI } from '../../helpers/memoryFakes';
import { portOver } from '../../helpers/sqlPorts';

const db: DatabaseRef = { owner: 'alice', name: 'inventory' };

/** Each question answered by the start of its title: a list of replies answers successive asks. */
function titleScriptedUi(script: Record<string, Reply[]>): ScriptedUi {
  const byTitle: Record<string, Reply | readonly Reply[]> = {};
  for (const [title, replies] of Object.entries(script)) byTitle[title] = replies.length === 1 ? replies[0] : replies;
  return new ScriptedUi(byTitle, { errors: 'throw' });
}

class FakeHub implements ImportApi {
  tables: Record<string, { columns: string[]; keys: string[] }> = { people: { columns: ['id', 'first_name', 'age'], keys: ['id'] } };
  created: CreateImportBody[] = [];
  uploads = 0;
  failWith: Operation['error'] | undefined;
  expireUploads = 0;
  async listBranches() {
    return {
      items: [aBranch({ name: 'dev', head_commit_sha: 'd'.repeat(32) }), aBranch({ name: 'main', head_commit_sha: 'm'.repeat(32) })],
    };
  }
  async runSql(_db: DatabaseRef, q: { ref: string; q: string }): Promise<QueryResult> {
    if (q.q === 'SHOW TABLES') {
      return {
        columns: [{ name: 'Tables_in_inventory', type: 'text' }],
        rows: Object.keys(this.tables).map((t) => [t]),
        status: 'success',
      };
    }
    const m = /^DESCRIBE `(.+)`$/.exec(q.q);
    assert.ok(m, `unexpected SQL ${q.q}`);
    const t = this.tables[m[1]!]!;
    return {
      columns: ['Field', 'Type', 'Null', 'Key', 'Default', 'Extra'].map((name) => ({ name, type: 'text' })),
      rows: t.columns.map((c) => [c, 'text', 'YES', t.keys.includes(c) ? 'PRI' : '', null, '']),
      status: 'success',
    };
  }
  async uploadImport(o: Parameters<ImportApi['uploadImport']>[0]) {
    this.uploads++;
    if (this.expireUploads > 0) {
      this.expireUploads--;
      throw new UploadError('expired', 'The upload expired or was refused by storage; start the import again.', {
        partNumber: 1,
        status: 403,
      });
    }
    o.onProgress?.({ bytesSent: 0, totalBytes: 30, partsDone: 0, totalParts: 1 });
    o.onProgress?.({ bytesSent: 30, totalBytes: 30, partsDone: 1, totalParts: 1 });
    const { statSync } = await import('node:fs');
    const size = statSync(o.file as string).size;
    return {
      token: 'tok',
      contents_key: 'key',
      completed_parts: [{ part_number: 1, etag: '"e"' }],
      file_parts_md5: 'md5',
      file_size: size,
      file_type: o.fileType,
    };
  }
  async createImport(_db: DatabaseRef, body: CreateImportBody) {
    this.created.push(body);
    return { id: 'owners/alice/repos/inventory/jobs/1', href: 'http://hub/api/v2/operations/owners/alice/repos/inventory/jobs/1' };
  }
  async waitForOperation(ref: { id: string }): Promise<Operation> {
    if (this.failWith) throw new OperationFailedError(anOperation({ id: ref.id, type: 'import', status: 'failed', error: this.failWith }));
    return anOperation({ id: ref.id, type: 'import', status: 'succeeded', result: { pull_id: '7' } });
  }
}

describe('importFile flow', () => {
  let dir: string;
  let hub: FakeHub;
  const refreshed: string[][] = [];
  const opened: number[] = [];
  const previews: string[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'import-flow-'));
    hub = new FakeHub();
    refreshed.length = 0;
    opened.length = 0;
    previews.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function deps(ui: Ui): ImportDeps {
    return {
      ui,
      log: silentLogger,
      clients: {
        hosts: () => [{ id: 'local', label: 'Local hub', siteUrl: 'http://127.0.0.1:1' } as never],
        host: () => ({ id: 'local' }) as never,
        labelOf: () => 'Local hub',
        clientFor: () => hub,
      },
      accounts: {
        activeAccount: () => ({ id: 'local#alice', hostId: 'local', username: 'alice', kind: 'token', signedInAt: '' }) as never,
      },
      databases: {
        list: () => [db],
        hostIds: () => ['local'],
        add: async () => undefined,
        remove: async () => undefined,
        has: () => true,
      } as never,
      tree: { refreshDatabase: (_h: string, _d: DatabaseRef, c?: readonly string[]) => void refreshed.push([...(c ?? [])]) } as never,
      operations: {
        run: (o) => runOperation({ start: o.start, waiter: o.client, signal: new AbortController().signal }),
        showFailure: async (_what, error) => {
          (ui as ScriptedUi).infos.push(`FAILED: ${error.detail ?? error.title}`);
        },
      },
      signIn: async () => undefined,
      sql: portOver(hub),
      extensionUri: TEST_EXTENSION_URI,
      workspaceState: new MemoryState(),
      pickFile: async () => undefined,
      showPreview: async (_t, md) => void previews.push(md),
      openPull: async (t) => void opened.push(t.pullNumber),
      now: () => new Date('2024-01-31T15:45:00Z'),
    };
  }

  it('new table from a CSV: detected type, inferred key, pull request by default', async () => {
    const file = join(dir, 'New Products.csv');
    writeFileSync(file, 'sku,name,price\nA1,Apple,1.50\nB2,Banana,0.25\n');
    const ui = titleScriptedUi({
      'Import New Products.csv: file type': ['csv'],
      'Import: branch': ['$(git-branch) main'],
      'Import: table': ['$(add) new_products'],
      'Import: operation': ['create'],
      'Import: primary key': [(labels) => labels.filter((l) => l === 'sku')],
      'Import: column map into new table': ['name', '$(check) Continue'],
      'Import: name of file column "name"': ['product_name'],
      'Commit message': [''],
      'Import: where should': ['$(git-pull-request) Open a pull request'],
      'Import: pull request branch': [''],
    });
    const result = await importFile(deps(ui), { filePath: file });
    assert.equal(result.kind, 'imported');
    assert.equal(result.kind === 'imported' && result.pullNumber, 7);
    // The detected type is offered first and labelled.
    const typePick = ui.picks.find((p) => p.title.includes('file type'))!;
    assert.equal(typePick.labels[0], 'csv');
    assert.match(typePick.details[0] ?? '', /Detected/);
    // Main listed first; the inferred key was preselected.
    assert.equal(ui.picks.find((p) => p.title === 'Import: branch')!.labels[0], '$(git-branch) main');
    assert.ok(ui.picks.find((p) => p.title.startsWith('Import: primary key'))!.labels.includes('[x] sku'));
    // What was sent.
    assert.equal(hub.created.length, 1);
    const body = hub.created[0]!;
    assert.equal(body.branch_name, 'main');
    assert.equal(body.table_name, 'new_products');
    assert.equal(body.file_name, 'New Products.csv');
    assert.equal(body.file_type, 'csv');
    assert.equal(body.import_operation, 'create');
    assert.deepEqual(body.primary_keys, ['sku']);
    assert.equal(body.pull_request_branch_name, 'import-new_products-20240131-154500');
    assert.equal(body.commit_message, 'Create table new_products from New Products.csv');
    // Only the renamed column travels in column_map.
    assert.deepEqual(body.column_map, { name: 'product_name' });
    assert.equal(body.token, 'tok');
    // Preview shown with inferred types; progress in bytes and parts; operations refreshed.
    assert.match(previews[0]!, /price<br>`decimal\(3,2\)`/);
    assert.ok(ui.progress.some((m) => /30 B of 30 B \(100%\) · part 1 of 1/.test(m)));
    assert.ok(refreshed.some((c) => c.includes('operations')));
    assert.ok(ui.infos.some((m) => /pull request #7 is open/.test(m)));
  });

  it('update into an existing table maps columns by name and sends only renames', async () => {
    const file = join(dir, 'people.json');
    writeFileSync(file, '[{"ID": 1, "First Name": "Ann", "age": 30}]');
    const ui = titleScriptedUi({
      'Import people.json: file type': ['json'],
      'Import: branch': ['$(git-branch) dev'],
      'Import: table': ['$(table) people'],
      'Import: operation': ['update'],
      'Import: column map': ['$(check) Continue'],
      'Commit message': ['Refresh people'],
      'Import: where should': ['$(git-commit) Commit directly to dev'],
    });
    const result = await importFile(deps(ui), { filePath: file });
    assert.equal(result.kind, 'imported');
    const body = hub.created[0]!;
    assert.equal(body.import_operation, 'update');
    assert.deepEqual(body.primary_keys, []);
    assert.deepEqual(body.column_map, { ID: 'id', 'First Name': 'first_name' });
    assert.equal(body.pull_request_branch_name, undefined);
    assert.equal(body.commit_message, 'Refresh people');
    // The existing table offers update first; create is marked unavailable.
    const ops = ui.picks.find((p) => p.title.startsWith('Import: operation'))!;
    assert.equal(ops.labels[0], 'update');
    assert.ok(ops.labels.includes('$(circle-slash) create'));
    assert.ok(ui.infos.some((m) => /on branch dev: commit dddddddd/.test(m)));
  });

  it('refuses an impossible operation and asks again', async () => {
    const file = join(dir, 'people.csv');
    writeFileSync(file, 'id,first_name,age\n1,a,2\n');
    const ui = titleScriptedUi({
      'Import people.csv: file type': ['csv'],
      'Import: branch': ['$(git-branch) main'],
      'Import: table': ['$(table) people'],
      'Import: operation': ['$(circle-slash) create', undefined],
    });
    const result = await importFile(deps(ui), { filePath: file });
    assert.equal(result.kind, 'cancelled');
    assert.ok(ui.infos.some((m) => /already exists: choose overwrite, update or replace/.test(m)));
    assert.equal(hub.uploads, 0);
  });

  it('blocks before upload when the header does not match and the key is missing', async () => {
    const file = join(dir, 'people.csv');
    writeFileSync(file, 'name,years\nAnn,30\n');
    const ui = titleScriptedUi({
      'Import people.csv: file type': ['csv'],
      'Import: branch': ['$(git-branch) main'],
      'Import: table': ['$(table) people'],
      'Import: operation': ['replace'],
      'Import: column map': ['$(check) Continue'],
    });
    const result = await importFile(deps(ui), { filePath: file });
    assert.equal(result.kind, 'blocked');
    assert.deepEqual(result.kind === 'blocked' && result.problems.map((p) => p.code), ['header-mismatch', 'primary-key-missing']);
    assert.match(ui.infos.at(-1)!, /Primary key column "id" of table people is missing from the file/);
    assert.equal(hub.uploads, 0);
  });

  it('stops at a bad file with the row and column, before asking about the server', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'id,name\n1,a\n2\n');
    const ui = titleScriptedUi({ 'Import bad.csv: file type': ['csv'] });
    await assert.rejects(importFile(deps(ui), { filePath: file }), /CSV row 2 \(line 3\), column "name"/);
    assert.equal(ui.picks.length, 1);
  });

  it('does not upload a file that changed after the preview', async () => {
    const file = join(dir, 'people.csv');
    writeFileSync(file, 'id,first_name,age\n1,a,2\n');
    const ui = titleScriptedUi({
      'Import people.csv: file type': ['csv'],
      'Import: branch': ['$(git-branch) main'],
      'Import: table': ['$(table) people'],
      'Import: operation': ['update'],
      'Import: column map': ['$(check) Continue'],
      'Commit message': [''],
      'Import: where should': [
        () => {
          writeFileSync(file, 'id,first_name,age\n1,a,2\n2,b,3\n');
          utimesSync(file, new Date(), new Date(Date.now() + 5000));
          return '$(git-commit) Commit directly to main';
        },
      ],
    });
    const result = await importFile(deps(ui), { filePath: file });
    assert.equal(result.kind, 'blocked');
    assert.match(ui.infos.at(-1)!, /changed after it was previewed/);
    assert.equal(hub.uploads, 0);
  });

  it('ends with the OperationError message when the import fails', async () => {
    hub.failWith = {
      status: 400,
      code: 'VALIDATION_FAILED',
      title: 'Bad row',
      detail: 'CSV row 2 (line 3), column "age": "x" is not an int',
    };
    const file = join(dir, 'people.csv');
    writeFileSync(file, 'id,first_name,age\n1,a,2\n');
    const ui = titleScriptedUi({
      'Import people.csv: file type': ['csv'],
      'Import: branch': ['$(git-branch) main'],
      'Import: table': ['$(table) people'],
      'Import: operation': ['update'],
      'Import: column map': ['$(check) Continue'],
      'Commit message': [''],
      'Import: where should': ['$(git-pull-request) Open a pull request'],
      'Import: pull request branch': ['import-people'],
    });
    const result = await importFile(deps(ui), { filePath: file });
    assert.equal(result.kind, 'failed');
    assert.ok(ui.infos.includes('FAILED: CSV row 2 (line 3), column "age": "x" is not an int'));
  });

  it('an expired upload offers to start again, and starting again imports', async () => {
    hub.expireUploads = 1;
    const file = join(dir, 'people.csv');
    writeFileSync(file, 'id,first_name,age\n1,a,2\n');
    const ui = titleScriptedUi({
      'Import people.csv: file type': ['csv'],
      'Import: branch': ['$(git-branch) main'],
      'Import: table': ['$(table) people'],
      'Import: operation': ['update'],
      'Import: column map': ['$(check) Continue'],
      'Commit message': [''],
      'Import: where should': ['$(git-commit) Commit directly to main'],
    });
    ui.infoAnswer = 'Start Again';
    const result = await importFile(deps(ui), { filePath: file });
    assert.equal(result.kind, 'imported');
    assert.equal(hub.uploads, 2);
    assert.equal(hub.created.length, 1);
    assert.ok(ui.infos.some((m) => /expired before it finished.*Start the upload again\?/.test(m)));
  });
});
