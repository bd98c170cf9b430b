// Contract: the extension's API client (src/api) against the real hub (dist/hub.js), every method once.
// If the two disagree on a path, a field or a status, this is where it shows.
import assert from 'node:assert/strict';
import { ApiError, HubClient, collectAll } from '../../src/api/index';
import { startHub, type HubHandle } from '../helpers/hub';

describe('contract: HubClient against the hub', function () {
  this.timeout(120000);
  let hub: HubHandle;
  let alice: HubClient;
  let bob: HubClient;
  let anon: HubClient;
  const prices = { owner: 'alice', name: 'prices' };

  before(async () => {
    hub = await startHub({ seed: true, args: ['--page-size', '2'] });
    alice = new HubClient({ baseUrl: hub.url, token: await hub.token('alice') });
    bob = new HubClient({ baseUrl: hub.url, token: await hub.token('bob') });
    anon = new HubClient({ baseUrl: hub.url });
  });
  after(async () => hub?.stop());

  it('getCurrentUser, createDatabase, getDatabase', async () => {
    assert.equal((await alice.getCurrentUser()).username, 'alice');
    const created = await alice.createDatabase({ owner: 'alice', name: 'contract', visibility: 'private', description: 'c' });
    assert.equal(created.visibility, 'private');
    assert.equal((await alice.getDatabase({ owner: 'alice', name: 'contract' })).description, 'c');
    await assert.rejects(
      anon.getDatabase({ owner: 'alice', name: 'contract' }),
      (e: unknown) => e instanceof ApiError && e.status === 404 && e.code === 'NOT_FOUND' && !!e.requestId,
    );
    await assert.rejects(anon.getCurrentUser(), (e: unknown) => e instanceof ApiError && e.status === 401);
  });

  it('listBranches (paged), createBranch, listTags, createTag', async () => {
    const first = await anon.listBranches(prices);
    assert.equal(first.items.length, 2);
    assert.ok(first.nextPageToken);
    const all = await collectAll((pageToken) => anon.listBranches(prices, { pageToken }));
    assert.deepEqual(
      all.map((b) => b.name),
      ['experiment', 'main', 'more-stores', 'prices-2025', 'supplier-updates', 'vale-rating'],
    );
    const b = await alice.createBranch(prices, { name: 'contract-branch', from: { branch: 'main' } });
    assert.match(b.head_commit_sha, /^[0-9a-v]{32}$/);
    const tags = await collectAll((pageToken) => anon.listTags(prices, { pageToken }));
    assert.ok(tags.some((t) => t.name === 'v2' && t.message));
    const t = await alice.createTag(prices, { name: 'contract-tag', from: { commit: b.head_commit_sha }, message: 'm' });
    assert.equal(t.commit_sha, b.head_commit_sha);
  });

  it('runSql (GET and the long-query POST form)', async () => {
    const r = await anon.runSql(prices, { ref: 'main', q: 'SELECT name FROM products WHERE id = 1' });
    assert.equal(r.status, 'success');
    assert.deepEqual(r.rows, [['Apple']]);
    const long = await anon.runSql(prices, {
      ref: 'main',
      q: `SELECT count(*) FROM products WHERE name NOT IN (${Array.from({ length: 900 }, (_, i) => `'x${i}'`).join(',')})`,
    });
    assert.deepEqual(long.rows, [['5']]);
    const limited = await anon.runSql(prices, { ref: 'main', q: 'SELECT id FROM products', limit: 2, timeoutMs: 5000 });
    assert.equal(limited.status, 'row_limit');
  });

  it('listReleases, createRelease, listForks, createFork + waitForOperation, getOperation, listOperations', async () => {
    const releases = await collectAll((pageToken) => anon.listReleases(prices, { pageToken }));
    assert.equal(releases[0]?.tag, 'v2');
    const main = (await collectAll((pageToken) => anon.listBranches(prices, { pageToken }))).find((b) => b.name === 'main')!;
    const rel = await alice.createRelease(prices, {
      tag: 'contract-rel',
      title: 'Contract',
      commit_sha: main.head_commit_sha,
      create_tag_if_not_exists: true,
    });
    assert.equal(rel.commit_sha, main.head_commit_sha);
    assert.deepEqual(await anon.listForks({ owner: 'alice', name: 'inventory' }), [{ owner: 'bob', name: 'inventory' }]);
    const ref = await bob.createFork(prices, { owner: 'bob' });
    const op = await bob.waitForOperation(ref);
    assert.equal(op.status, 'succeeded');
    assert.deepEqual(op.result?.database, { owner: 'bob', name: 'prices' });
    assert.equal((await bob.getOperation(ref.id)).id, ref.id);
    const ops = await collectAll((pageToken) => anon.listOperations(prices, { pageToken }));
    assert.ok(ops.some((o) => o.id === ref.id));
  });

  it('listPulls, createPull, getPull, updatePull, listPullComments, createPullComment, mergePull', async () => {
    const pulls = await collectAll((pageToken) => anon.listPulls(prices, { pageToken }));
    assert.deepEqual(pulls.map((p) => p.state).sort(), ['closed', 'merged', 'open', 'open', 'open']);
    const pull = await alice.createPull(prices, {
      title: 'Contract pull',
      from_branch: { database: prices, branch_name: 'contract-branch' },
      to_branch: { database: prices, branch_name: 'main' },
    });
    assert.equal((await anon.getPull(prices, pull.pull_number)).title, 'Contract pull');
    assert.equal((await alice.updatePull(prices, pull.pull_number, { description: 'Edited' })).description, 'Edited');
    const c = await bob.createPullComment(prices, pull.pull_number, { body: 'LGTM' });
    assert.equal(c.author, 'bob');
    assert.deepEqual(
      (await anon.listPullComments(prices, pull.pull_number)).map((x) => x.body),
      ['LGTM'],
    );
    const op = await alice.waitForOperation(await alice.mergePull(prices, pull.pull_number));
    assert.equal(op.status, 'succeeded');
    assert.equal((await anon.getPull(prices, pull.pull_number)).state, 'merged');
  });

  it('createImportUpload, uploadImport, createImport', async () => {
    const session = await alice.createImportUpload(prices, { content_length: 3, num_parts: 1, file_type: 'csv' });
    assert.equal(session.parts.length, 1);
    const csv = Buffer.from('id,label\n1,one\n2,two\n');
    const uploaded = await alice.uploadImport({ db: prices, file: new Uint8Array(csv), fileType: 'csv', partSize: 16 });
    assert.equal(uploaded.completed_parts.length, 2);
    const ref = await alice.createImport(prices, {
      ...uploaded,
      branch_name: 'main',
      table_name: 'contract_import',
      file_name: 'labels.csv',
      import_operation: 'create',
      primary_keys: ['id'],
      pull_request_branch_name: 'contract-import',
    });
    const op = await alice.waitForOperation(ref);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    assert.equal(typeof op.result?.pull_id, 'number');
    const rows = await anon.runSql(prices, { ref: 'contract-import', q: 'SELECT label FROM contract_import ORDER BY id' });
    assert.deepEqual(rows.rows, [['one'], ['two']]);
  });
});
