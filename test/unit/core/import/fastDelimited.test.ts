// The fast csv/psv reader (src/core/import/readers/fastDelimited.ts) must give exactly what
// csv-parse gives with the reader's options, records and errors alike, whatever the text and
// wherever the file's chunks split it: every file here is read both ways and compared.
import assert from 'node:assert/strict';
import {
  csvParseRecords,
  fileRecords,
  type BatchedRecordSource,
  type RecordSource,
} from '../../../../src/core/import/readers/delimitedReader';
import type { Cell } from '../../../../src/core/import/tableReader';
import { tempFiles } from './helpers';

async function all(src: RecordSource): Promise<{ records: Cell[][]; error?: string }> {
  const records: Cell[][] = [];
  try {
    for (let r = await src.next(); r; r = await src.next()) records.push(r);
  } catch (e) {
    return { records, error: (e as { code?: string }).code ?? String(e) };
  } finally {
    src.close();
  }
  return { records };
}

/** The records read in batches (nextBatch), now and then one record alone (next), as `pick` says. */
async function allBatched(src: BatchedRecordSource, pick: () => number): Promise<{ records: Cell[][]; error?: string }> {
  const records: Cell[][] = [];
  try {
    for (;;) {
      if (pick() < 0.3) {
        const r = await src.next();
        if (!r) break;
        records.push(r);
        continue;
      }
      const batch = await src.nextBatch();
      if (!batch) break;
      assert.ok(batch.length > 0, 'a batch is never empty');
      records.push(...batch);
    }
  } catch (e) {
    return { records, error: (e as { code?: string }).code ?? String(e) };
  } finally {
    src.close();
  }
  return { records };
}

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Text from pieces csv cares about: delimiters, quotes, line ends, multi-byte and plain text. */
function text(rand: () => number, pieces: string[], length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += pieces[Math.floor(rand() * pieces.length)];
  return s;
}

/** Well-formed csv: fields quoted now and then (with doubled quotes, delimiters and line ends inside). */
function wellFormed(rand: () => number, delimiter: string): string {
  const lines: string[] = [];
  const ends = ['\n', '\r\n', '\r'];
  for (let r = 0; r < 1 + Math.floor(rand() * 8); r++) {
    const fields: string[] = [];
    for (let f = 0; f < 1 + Math.floor(rand() * 4); f++) {
      const quoted = rand() < 0.4;
      const body = text(rand, quoted ? ['a', 'é', '""', delimiter, '\n', '\r\n', ' '] : ['a', 'é', ' ', '1'], Math.floor(rand() * 4));
      fields.push(quoted ? `"${body}"` : body);
    }
    lines.push(fields.join(delimiter) + (rand() < 0.2 ? ends[Math.floor(rand() * 3)] : ''));
  }
  return (rand() < 0.2 ? '\uFEFF' : '') + lines.join(ends[Math.floor(rand() * 3)]!) + (rand() < 0.5 ? '\n' : '');
}

describe('fast csv reader', () => {
  const files = tempFiles();
  after(() => files.cleanup());

  async function same(content: string | Buffer, delimiter = ','): Promise<void> {
    const path = files.write('f.csv', content);
    const expected = await all(csvParseRecords(path, delimiter, undefined, 0));
    for (const chunk of [1, 2, 3, 7, 1 << 20]) {
      const got = await all(fileRecords(path, delimiter, undefined, chunk));
      const what = `${JSON.stringify(content.toString())} in chunks of ${chunk}`;
      // csv-parse's stream drops the records of the chunk it fails in; the fast reader gives them
      // (so the error names the right row): compare the records both give, and the error.
      if (expected.error) assert.deepEqual(got.records.slice(0, expected.records.length), expected.records, what);
      assert.deepEqual(expected.error ? { ...got, records: expected.records } : got, expected, what);
      // In batches, mixed with single records: the same records and error as one at a time.
      if (chunk !== 3 && chunk !== 1 << 20) continue;
      const batched = await allBatched(fileRecords(path, delimiter, undefined, chunk), random(chunk));
      assert.deepEqual(batched, got, `${what}, in batches`);
    }
  }

  it('reads plain and quoted fields, NULLs, line ends and a BOM as csv-parse does', async () => {
    await same('a,b\n1,\n,""\n"x,""y""\n z",é\r\n\r\n\n3,4\r5,6');
    await same('\uFEFFa|b\n"p|q"|\n||\n', '|');
    await same('a,b\n1,2,\n"",\n');
  });

  it('leaves what is not well formed to csv-parse: the same records, then the same error', async () => {
    await same('a,b\n1,2\n3,x"y\n5,6\n');
    await same('a,b\n1,2\n"3" ,4\n');
    await same('a,b\n1,2\n"3,4\n');
    await same('a,b\n1,2\n"3"""');
    await same(Buffer.concat([Buffer.from('a,b\n1,'), Buffer.from([0xc3]), Buffer.from(',2\n')]));
    await same(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\n1,2\n', 'utf16le')]));
  });

  it('agrees on 400 generated files, well formed or not', async function () {
    // About 3 s alone, 8 s at a load average of 10 (each file read in many chunk sizes, with and
    // without batches): the suite's 10 s would make a busy machine's run fail on time, not on a record.
    this.timeout(60_000);
    const rand = random(28);
    for (let i = 0; i < 200; i++) await same(wellFormed(rand, i % 2 ? ',' : '|'), i % 2 ? ',' : '|');
    for (let i = 0; i < 200; i++) await same(text(rand, ['a', ',', '"', '""', '\n', '\r', '\r\n', ' ', 'é'], Math.floor(rand() * 20)));
  });
});
