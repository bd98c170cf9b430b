// runExport asks for the next page while it writes this one: reads and writes overlap, the file
// still holds every page in order, and a page asked for ahead that fails fails the export (no file).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExportWriter } from '../../../../src/core/export/exportWriters';
import { createPendingFile, runExport } from '../../../../src/core/export/exportRun';
import type { Cell } from '../../../../src/shared/wire';

const COLUMNS = [
  { name: 'id', type: 'bigint' },
  { name: 'v', type: 'text' },
];
const PAGES: Cell[][][] = [
  [
    ['1', 'a'],
    ['2', null],
  ],
  [['3', 'c,d']],
  [['4', 'e']],
];

describe('runExport (core/export/exportRun)', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'vdb-exportrun-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('asks for page k+1 before page k is written, and writes every page in order', async () => {
    const events: string[] = [];
    async function* pages(): AsyncGenerator<Cell[][]> {
      for (let k = 0; k < PAGES.length; k++) {
        events.push(`read ${k}`);
        await new Promise((r) => setImmediate(r));
        yield PAGES[k]!;
      }
    }
    const target = join(dir, 'overlap.csv');
    const file = await createPendingFile(target);
    const csv = createExportWriter('csv', COLUMNS, file);
    let page = 0;
    const writer = {
      begin: () => csv.begin(),
      end: () => csv.end(),
      get rowsWritten() {
        return csv.rowsWritten;
      },
      async writeRows(rows: Cell[][]): Promise<void> {
        const k = page++;
        events.push(`write ${k} start`);
        await new Promise((r) => setTimeout(r, 5));
        await csv.writeRows(rows);
        events.push(`write ${k} end`);
      },
    };
    assert.equal(await runExport({ pages: pages(), writer, file }), 4);
    for (let k = 0; k + 1 < PAGES.length; k++) {
      assert.ok(events.indexOf(`read ${k + 1}`) < events.indexOf(`write ${k} end`), `page ${k + 1} asked for during write ${k}: ${events}`);
    }
    assert.equal(readFileSync(target, 'utf8'), 'id,v\r\n1,a\r\n2,\r\n3,"c,d"\r\n4,e\r\n');
  });

  it('a page asked for ahead that fails while the page before is written fails the export, leaving no file', async () => {
    async function* pages(): AsyncGenerator<Cell[][]> {
      yield PAGES[0]!;
      throw new Error('the second page failed');
    }
    const target = join(dir, 'failed.csv');
    const file = await createPendingFile(target);
    const csv = createExportWriter('csv', COLUMNS, file);
    const writer = {
      begin: () => csv.begin(),
      end: () => csv.end(),
      get rowsWritten() {
        return csv.rowsWritten;
      },
      async writeRows(rows: Cell[][]): Promise<void> {
        // Long enough for the failure to come first: it must not be an unhandled rejection.
        await new Promise((r) => setTimeout(r, 20));
        await csv.writeRows(rows);
      },
    };
    await assert.rejects(runExport({ pages: pages(), writer, file }), /the second page failed/);
    assert.equal(existsSync(target), false);
    assert.equal(existsSync(file.tempPath), false);
  });
});
