// A `sql` import of DELETE statements, as Propose Changes… sends a change set's deleted rows: the
// hub deletes exactly the rows the statements match, on the named branch and table only, in one
// commit; anything else in such a file (other tables, functions, procedures, PRAGMA, ATTACH, rows
// mixed with deletions, a DELETE with no WHERE) fails the operation naming the line and writes
// nothing. Expected rows come from plain reads of the branch before the import.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';
import { importCsv, importFile } from './importFlow';

describe('hub sql imports of deletions', function () {
  let hub: HubHandle;
  const DB = 'alice/del';
  const TEXT_KEYS = ["it's", 'back\\slash', 'tab\there', 'line\nbreak', 'ünï €', '007'];

  before(async function () {
    hub = await startHub({ users: ['alice'] });
    const r = await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'del', visibility: 'public' } });
    assert.equal(r.status, 201);
    const csv = ['id,k,v', ...Array.from({ length: 8 }, (_, i) => `${i + 1},${i % 2 ? 'odd' : 'even'},${i * 10}`)].join('\n');
    await importCsv(hub, DB, 'main', 'items', 'create', `${csv}\n`, { primary_keys: ['id', 'k'] });
    const names = JSON.stringify(TEXT_KEYS.map((name, i) => ({ name, n: i })));
    const op = await importFile(hub, DB, 'main', 'names', 'create', 'json', Buffer.from(names), { primary_keys: ['name'] });
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    const b = await hub.fetch(`/databases/${DB}/branches`, { user: 'alice', json: { name: 'edits', from: { branch: 'main' } } });
    assert.equal(b.status, 201, b.text);
  });
  after(async () => hub?.stop());

  const rows = async (q: string, ref: string): Promise<string[][]> => {
    const r = await hub.fetch(`/databases/${DB}/sql`, { json: { ref, q } });
    assert.equal(r.status, 200, r.text);
    return r.body.data.rows;
  };
  const head = async (branch: string): Promise<string> =>
    (await hub.fetch(`/databases/${DB}/branches`)).body.data.find((b: { name: string }) => b.name === branch)?.head_commit_sha;
  const deleteFile = async (branch: string, table: string, text: string): Promise<{ status: string; error?: { detail: string } }> =>
    importFile(hub, DB, branch, table, 'update', 'sql', Buffer.from(text), { commit_message: 'delete rows' });

  it('deletes exactly the rows matched by key, on the branch only, in one commit', async () => {
    const before = await rows('SELECT id, k, v FROM items ORDER BY id', 'edits');
    const mainHead = await head('main');
    const branchHead = await head('edits');
    const op = await deleteFile(
      'edits',
      'items',
      "-- two rows\nDELETE FROM `items` WHERE `id` = 2 AND `k` = 'odd';\nDELETE FROM items WHERE id = '5' AND k = \"even\";\nDELETE FROM items WHERE id = 99 AND k = 'none';\n",
    );
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    const expected = before.filter((r) => !((r[0] === '2' && r[1] === 'odd') || (r[0] === '5' && r[1] === 'even')));
    assert.equal(expected.length, before.length - 2);
    assert.deepEqual(await rows('SELECT id, k, v FROM items ORDER BY id', 'edits'), expected);
    assert.equal(await head('main'), mainHead, 'main is untouched');
    const log = await rows(`SELECT commit_hash, message FROM dolt_log LIMIT 2`, 'edits');
    assert.equal(log[0]?.[1], 'delete rows');
    assert.equal(log[1]?.[0], branchHead, 'one commit on top of the branch head');
  });

  it('matches text keys with quotes, backslashes, tabs, newlines, unicode and leading zeros exactly', async () => {
    const gone = ["it's", 'back\\slash', 'tab\there', 'line\nbreak', 'ünï €', '007'];
    const mysqlLiteral = (s: string): string =>
      `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\t/g, '\\t')}'`;
    const text = gone.map((k) => `DELETE FROM names WHERE name = ${mysqlLiteral(k)};`).join('\n');
    const op = await deleteFile('edits', 'names', text);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    assert.deepEqual(await rows('SELECT name FROM names', 'edits'), []);
    assert.equal((await rows('SELECT count(*) FROM names', 'main'))[0]?.[0], String(TEXT_KEYS.length), 'main keeps every name');
  });

  it('refuses anything but DELETE … WHERE column = value on the import table, naming the line, and writes nothing', async () => {
    const before = await head('edits');
    const cases: [string, RegExp][] = [
      ['DELETE FROM items;', /without WHERE/],
      ['DELETE FROM names WHERE name = 1;', /this import writes table items only/],
      ["DELETE FROM items WHERE id = 1 AND k = 'odd' OR 1 = 1;", /goes on after the last value/],
      ['DELETE FROM items WHERE id = (SELECT 1);', /not a literal/],
      ["DELETE FROM items WHERE id = dolt_branch('x');", /not a literal/],
      ['DELETE FROM items WHERE nope = 1;', /no column "nope"/],
      ["DELETE FROM items WHERE id = 'one';", /not an integer/],
      ["ATTACH DATABASE 'x.db' AS x;", /ATTACH statement/],
      ['PRAGMA writable_schema = 1;', /PRAGMA statement/],
      ["SELECT dolt_reset('--hard');", /SELECT statement/],
      ["CALL dolt_checkout('main');", /CALL statement/],
      ["DELETE FROM items WHERE id = 1 AND k = 'odd';\nINSERT INTO items VALUES (1, 'odd', 5);", /both deletes and inserts/],
      ["INSERT INTO items (id, k, v) VALUES (1, 'odd', 5);\nDELETE FROM items WHERE id = 1 AND k = 'odd';", /both inserts and deletes/],
      ["DELETE FROM items WHERE id = 3 AND k = 'even';\nDELETE FROM items WHERE id = 'x' AND k = 'even';", /line 2/],
    ];
    for (const [text, expect] of cases) {
      const op = await deleteFile('edits', 'items', text);
      assert.equal(op.status, 'failed', `should fail: ${text}`);
      assert.match(op.error?.detail ?? '', expect, `${text}: ${op.error?.detail}`);
    }
    const replace = await importFile(
      hub,
      DB,
      'edits',
      'items',
      'replace',
      'sql',
      Buffer.from("DELETE FROM items WHERE id = 1 AND k = 'odd';"),
    );
    assert.equal(replace.status, 'failed');
    assert.match(replace.error.detail, /import_operation "update"/);
    assert.equal(await head('edits'), before, 'nothing was committed');
    assert.equal(
      (await rows("SELECT count(*) FROM items WHERE id = 3 AND k = 'even'", 'edits'))[0]?.[0],
      '1',
      'the first statement rolled back',
    );
  });
});
