// writePatchFile: the patch read a page at a time (buildPatchQuery after the last statement_order)
// and written through runExport; the file holds every statement once, in order, and a page that
// fails leaves no file.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPendingFile } from '../../../../src/core/export/exportRun';
import { writePatchFile } from '../../../../src/core/review/patchPages';
import { twoDot } from '../../../../src/core/review/revisions';
import type { ReviewRunner } from '../../../../src/core/sql/sqlPort';
import type { QueryResult } from '../../../../src/shared/wire';

const PATCH = Array.from({ length: 23 }, (_, i) => ({ order: i + 1, statement: `UPDATE \`t\` SET \`v\` = ${i} WHERE \`id\` = ${i + 1}` }));
const COLUMNS = ['statement_order', 'statement'].map((name) => ({ name, type: '' }));

/** Answers buildPatchQuery's pages from PATCH: the statements after the cursor, LIMIT of them. */
function patchRunner(failAfter?: number): { run: ReviewRunner; asked: number[] } {
  const asked: number[] = [];
  const run: ReviewRunner = async (q) => {
    const after = Number(/statement_order > (\d+)/.exec(q.sql)?.[1] ?? 0);
    const limit = Number(/LIMIT (\d+)/.exec(q.sql)?.[1]);
    asked.push(after);
    if (failAfter !== undefined && after >= failAfter) throw new Error('the server went away');
    const rows = PATCH.filter((s) => s.order > after)
      .slice(0, limit)
      .map((s) => [String(s.order), s.statement]);
    return { columns: COLUMNS, rows, status: 'success' } satisfies QueryResult;
  };
  return { run, asked };
}

describe('writePatchFile (core/review/patchPages)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'vdb-patch-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every statement once, in order, one a line ending in ;, reading on after the last one', async () => {
    const { run, asked } = patchRunner();
    const target = join(dir, 't.sql');
    const file = await createPendingFile(target);
    const n = await writePatchFile({
      pair: twoDot('a'.repeat(32), 'b'.repeat(32)),
      table: 't',
      run,
      file,
      signal: new AbortController().signal,
      pageSize: 5,
    });
    assert.equal(n, PATCH.length);
    assert.equal(readFileSync(target, 'utf8'), PATCH.map((s) => `${s.statement};\n`).join(''));
    assert.deepEqual(asked, [0, 5, 10, 15, 20]);
  });

  it('a page that fails fails the export and leaves no file', async () => {
    const { run } = patchRunner(10);
    const target = join(dir, 't.sql');
    const file = await createPendingFile(target);
    await assert.rejects(
      writePatchFile({
        pair: twoDot('a'.repeat(32), 'b'.repeat(32)),
        table: 't',
        run,
        file,
        signal: new AbortController().signal,
        pageSize: 5,
      }),
      /went away/,
    );
    assert.equal(existsSync(target), false);
    assert.deepEqual(readdirSync(dir), [], 'no partial file is left');
  });
});
