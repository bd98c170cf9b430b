// Imports insert their rows a batch at a time (src/hub/importBatches.ts): what lands must be what
// row-by-row inserts gave, across batch boundaries, for create, update (upsert) and replace; a bad
// row in a later batch is still named by its number, and nothing is committed.
import assert from 'node:assert/strict';
import { IMPORT_BATCH_ROWS } from '../../src/hub/importBatches';
import { startHub, type HubHandle } from '../helpers/hub';
import { importFile } from './importFlow';

const N = IMPORT_BATCH_ROWS * 2 + 500;
/** The name of row i: quotes, commas, non-ASCII and a NUL now and then, as a CSV field. */
const nameOf = (i: number): string => (i % 997 === 0 ? `nul\u0000${i}` : i % 3 === 0 ? `"q""uote, ${i}"` : `ä-${i}`);
/** The name as stored (the CSV field unquoted). */
const storedName = (i: number): string => (i % 997 === 0 ? `nul\u0000${i}` : i % 3 === 0 ? `q"uote, ${i}` : `ä-${i}`);
const priceOf = (i: number): string => ((i % 991) + 0.25).toFixed(2);

function csv(ids: number[], name: (i: number) => string = nameOf): Buffer {
  const lines = ids.map((i) => `${i},${name(i)},${i % 10 === 0 ? '' : priceOf(i)}`);
  return Buffer.from(`id,name,price\n${lines.join('\n')}\n`);
}

describe('hub imports in batches', function () {
  this.timeout(120_000);
  let hub: HubHandle;
  const DB = 'alice/batches';

  before(async () => {
    hub = await startHub({ users: ['alice'] });
    const r = await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'batches', visibility: 'public' } });
    assert.equal(r.status, 201);
  });
  after(async () => hub?.stop());

  const sql = async (q: string, ref = 'main'): Promise<any> => {
    const r = await hub.fetch(`/databases/${DB}/sql`, { json: { ref, q } });
    assert.equal(r.body.data.status, 'success', JSON.stringify(r.body.data));
    return r.body.data.rows;
  };
  const head = async (): Promise<string> =>
    (await hub.fetch(`/databases/${DB}/branches`)).body.data.find((b: any) => b.name === 'main')?.head_commit_sha;
  const ids = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, k) => from + k);
  /** Rows at ids around every batch boundary and the NUL rows, read by plain SELECT. */
  const probe = [
    1,
    2,
    997,
    IMPORT_BATCH_ROWS - 1,
    IMPORT_BATCH_ROWS,
    IMPORT_BATCH_ROWS + 1,
    2 * IMPORT_BATCH_ROWS,
    2 * IMPORT_BATCH_ROWS + 1,
    N,
  ];
  const read = async (): Promise<unknown[][]> => sql(`SELECT id, name, price FROM items WHERE id IN (${probe.join(', ')}) ORDER BY id`);

  it('create: every row of every batch, values and NULLs as in the file', async () => {
    const op = await importFile(hub, DB, 'main', 'items', 'create', 'csv', csv(ids(1, N)), { primary_keys: ['id'] });
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    const sum = ids(1, N).reduce((s, i) => s + (i % 10 === 0 ? 0 : Number(priceOf(i)) * 100), 0) / 100;
    const [count, idSum, prices, priceSum] = (await sql('SELECT count(*), sum(id), count(price), sum(price) FROM items'))[0];
    assert.deepEqual([count, idSum, prices], [String(N), String((N * (N + 1)) / 2), String(N - Math.floor(N / 10))]);
    assert.equal(Number(priceSum), sum);
    assert.deepEqual(
      await read(),
      probe.map((i) => [String(i), storedName(i), i % 10 === 0 ? null : priceOf(i)]),
    );
  });

  it('update upserts across batches; replace keeps only the file', async () => {
    const upd = ids(IMPORT_BATCH_ROWS - 10, N + 10);
    let op = await importFile(
      hub,
      DB,
      'main',
      'items',
      'update',
      'csv',
      csv(upd, (i) => `u${i}`),
    );
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    assert.deepEqual(await sql('SELECT count(*) FROM items'), [[String(N + 10)]]);
    assert.deepEqual(
      await read(),
      probe.map((i) => [String(i), i >= IMPORT_BATCH_ROWS - 10 ? `u${i}` : storedName(i), i % 10 === 0 ? null : priceOf(i)]),
    );
    op = await importFile(hub, DB, 'main', 'items', 'replace', 'csv', csv(ids(5, IMPORT_BATCH_ROWS + 5)));
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    assert.deepEqual(await sql('SELECT min(id), max(id), count(*) FROM items'), [
      ['5', String(IMPORT_BATCH_ROWS + 5), String(IMPORT_BATCH_ROWS + 1)],
    ]);
  });

  it('a key twice in a later batch fails naming that row, and nothing is committed', async () => {
    const before = await head();
    const dupAt = IMPORT_BATCH_ROWS + 1234; // the file's row number of the repeated key
    const rows = ids(1, N);
    rows[dupAt - 1] = 17;
    const op = await importFile(hub, DB, 'main', 'again', 'create', 'csv', csv(rows), { primary_keys: ['id'] });
    assert.equal(op.status, 'failed');
    assert.match(op.error.detail, new RegExp(`row ${dupAt}\\b.*primary key value appears twice`));
    assert.equal(await head(), before);
    assert.equal((await sql('SHOW TABLES')).flat().includes('again'), false);
  });
});
