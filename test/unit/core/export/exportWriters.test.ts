import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Cell, QueryColumn } from '../../../../src/shared/wire';
import { toCsv, toJson, toMarkdown } from '../../../../src/shared/queryResultFormat';
import { ColumnStore } from '../../../../src/shared/columnStore';
import { createExportWriter, type ExportSink, type StreamFormat } from '../../../../src/core/export/exportWriters';
import { ExportCancelled, createPendingFile, runExport } from '../../../../src/core/export/exportRun';
import { SqliteEngine } from '../../../helpers/sqliteEngine';
import { HOSTILE_TEXT } from '../sql/hostileText';

const columns: QueryColumn[] = [
  { name: 'id', type: 'bigint', is_primary_key: true },
  { name: 'label', type: 'varchar(100)' },
  { name: 'price', type: 'decimal(10,2)' },
  { name: 'data', type: 'blob' },
  { name: 'id', type: 'int' },
];

function rowsOf(n: number): Cell[][] {
  return Array.from({ length: n }, (_, i) => [
    String(9007199254740990n + BigInt(i)),
    i % 9 === 0 ? null : (HOSTILE_TEXT[i % HOSTILE_TEXT.length] as string),
    i % 4 === 0 ? null : `${i}.50`,
    i % 3 === 0 ? null : '<binary>',
    String(i),
  ]);
}

class StringSink implements ExportSink {
  chunks: string[] = [];
  async write(chunk: string): Promise<void> {
    this.chunks.push(chunk);
  }
  get text(): string {
    return this.chunks.join('');
  }
}

async function exportPaged(format: StreamFormat, rows: Cell[][], pageSize: number, tableName?: string): Promise<StringSink> {
  const sink = new StringSink();
  const w = createExportWriter(format, columns, sink, { tableName, rowsPerInsert: 7 });
  await w.begin();
  for (let i = 0; i < rows.length; i += pageSize) {
    const page = rows.slice(i, i + pageSize);
    // Alternate row arrays and the compact store: the writer reads either.
    await w.writeRows(i % 2 ? ColumnStore.fromRows(page, columns.length) : page);
  }
  await w.end();
  assert.equal(w.rowsWritten, rows.length);
  return sink;
}

describe('streamed export writers', () => {
  const rows = rowsOf(95);

  it('CSV in pages equals the whole-result CSV and reads back to the same cells (NULL empty, "" quoted)', async () => {
    const sink = await exportPaged('csv', rows, 10);
    assert.equal(sink.text, toCsv(columns, rows));
    assert.equal(sink.chunks.length, 1 + 10, 'a header chunk, then one chunk per page');
    const back = parseCsv(sink.text, { relax_column_count: false }) as string[][];
    assert.deepEqual(back[0], ['id', 'label', 'price', 'data', 'id']);
    assert.deepEqual(
      back.slice(1),
      rows.map((r) => r.map((c) => c ?? '')),
    );
    assert.match(sink.text, /,<binary>,/);
  });

  it('JSON array keeps every value a string or null, with unique keys for repeated names', async () => {
    const sink = await exportPaged('json', rows, 13);
    assert.equal(sink.text, toJson(columns, rows));
    const parsed = JSON.parse(sink.text) as Record<string, Cell>[];
    assert.equal(parsed.length, rows.length);
    assert.deepEqual(Object.keys(parsed[0]!), ['id', 'label', 'price', 'data', 'id_2']);
    assert.equal(parsed[3]!.id, '9007199254740993', '64-bit ids stay exact strings');
    assert.deepEqual(
      parsed.map((o) => Object.values(o)),
      rows,
    );
  });

  it('JSON array of no rows is []', async () => {
    assert.equal((await exportPaged('json', [], 10)).text, '[]\n');
  });

  it('JSON lines: one compact object per line', async () => {
    const sink = await exportPaged('jsonl', rows, 20);
    const lines = sink.text.split('\n');
    assert.equal(lines.pop(), '');
    assert.equal(lines.length, rows.length);
    assert.deepEqual(
      lines.map((l) => Object.values(JSON.parse(l) as object)),
      rows,
    );
  });

  it('Markdown in pages equals the whole-result table', async () => {
    const sink = await exportPaged('markdown', rows, 30);
    assert.equal(sink.text, toMarkdown(columns, rows));
  });

  it('SQL INSERT statements load back into a table with the same cells, quoted through the one quoting home', async () => {
    const sink = await exportPaged('sql', rows, 10, 'ex`port');
    assert.match(sink.text, /^-- Binary values are not available through the API: they are written as NULL\.\n/);
    assert.match(
      sink.text,
      /INSERT INTO `ex``port` \(`id`, `label`, `price`, `data`, `id`\) VALUES\n {2}\(9007199254740990, NULL, NULL, NULL, 0\)/,
    );
    const db = await SqliteEngine.open();
    try {
      db.exec('CREATE TABLE `ex``port` (`id` bigint, label varchar(100), price decimal(10,2), data blob, id2 int)');
      // Same column names as the export: rename the last to match the duplicate `id` in the statement.
      db.exec(sink.text.replace(/`data`, `id`\)/g, '`data`, `id2`)'));
      const back = db.rows('SELECT `id`, label, price, data, id2 FROM `ex``port`');
      assert.deepEqual(
        back,
        rows.map((r) => [r[0], r[1], r[2] === null ? null : r[2]!.replace(/\.50$/, '.5'), null, r[4]]),
      );
    } finally {
      db.close();
    }
  });
});

describe('running an export into a file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vdb-export-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function* pages(n: number, size: number, opts: { failAt?: number; onPage?: (i: number) => void } = {}): AsyncGenerator<Cell[][]> {
    const all = rowsOf(n);
    for (let i = 0, p = 0; i < n; i += size, p++) {
      opts.onPage?.(p);
      if (p === opts.failAt) throw new Error('server error on page ' + p);
      yield all.slice(i, i + size);
    }
  }

  it('writes every page, reports progress, and only then puts the file under its name', async () => {
    const target = join(dir, 'out.csv');
    const file = await createPendingFile(target);
    const progress: number[] = [];
    const n = await runExport({
      pages: pages(95, 20, { onPage: () => assert.equal(existsSync(target), false) }),
      writer: createExportWriter('csv', columns, file),
      file,
      onProgress: (r) => progress.push(r),
    });
    assert.equal(n, 95);
    assert.deepEqual(progress, [20, 40, 60, 80, 95]);
    assert.equal(await readFile(target, 'utf8'), toCsv(columns, rowsOf(95)));
    assert.deepEqual(await readdir(dir), ['out.csv']);
  });

  it('a cancelled export leaves no file, and an existing file under the name untouched', async () => {
    const target = join(dir, 'keep.json');
    await writeFile(target, 'old content');
    const file = await createPendingFile(target);
    const ac = new AbortController();
    await assert.rejects(
      runExport({
        pages: pages(95, 10, { onPage: (p) => p === 3 && ac.abort() }),
        writer: createExportWriter('json', columns, file),
        file,
        signal: ac.signal,
      }),
      ExportCancelled,
    );
    assert.equal(await readFile(target, 'utf8'), 'old content');
    assert.deepEqual(await readdir(dir), ['keep.json']);
  });

  it('a page that fails mid-export removes the partial file and reports the failure', async () => {
    const target = join(dir, 'fail.sql');
    const file = await createPendingFile(target);
    await assert.rejects(
      runExport({ pages: pages(95, 10, { failAt: 4 }), writer: createExportWriter('sql', columns, file), file }),
      /server error on page 4/,
    );
    assert.deepEqual(await readdir(dir), []);
  });
});
