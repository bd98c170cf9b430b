import { strict as assert } from 'node:assert';
import type { MockAgent } from 'undici';
import { HubClient } from '../../../src/api/index';
import type { OperationRef, User } from '../../../src/shared/wire';
import { headerRecord, mockAgent, ORIGIN, parseBody, type Captured } from './fakes';
import { aBranch, aDatabase, anOperation, aPull, aPullComment, aQueryResult, aRelease, aTag } from '../../builders/wire';

const db = { owner: 'acme', name: 'inventory' };
const base = '/api/v2/databases/acme/inventory';
const opRef: OperationRef = {
  id: 'owners/acme/repos/inventory/jobs/7',
  href: `${ORIGIN}/api/v2/operations/owners%2Facme%2Frepos%2Finventory%2Fjobs%2F7`,
};

const database = aDatabase({ ...db, fork_network_count: 3, star_count: 1, size_bytes: 4096 });
const branch = aBranch();
const tag = aTag({ message: 'first' });
const release = aRelease({ title: 'One' });
const pull = aPull({
  pull_number: 4,
  title: 'Fix',
  from_branch: { database: db, branch_name: 'fix' },
  to_branch: { database: db, branch_name: 'main' },
});
const comment = aPullComment();
const user: User = { username: 'ann', email_addresses: [{ address: 'a@x', is_primary: true, is_verified: true }] };
const operation = anOperation({ id: opRef.id, type: 'import', status: 'queued' });
const result = aQueryResult({ columns: [{ name: 'n', type: 'bigint' }], rows: [['1'], [null]] });

interface Case {
  name: string;
  call: (c: HubClient) => Promise<unknown>;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  data: unknown;
  meta?: unknown;
  expected?: unknown;
}

const cases: Case[] = [
  { name: 'getCurrentUser', call: (c) => c.getCurrentUser(), method: 'GET', path: '/api/v2/user', status: 200, data: user },
  {
    name: 'createDatabase',
    call: (c) => c.createDatabase({ owner: 'acme', name: 'inventory', visibility: 'public', description: 'd' }),
    method: 'POST',
    path: '/api/v2/databases',
    body: { owner: 'acme', name: 'inventory', visibility: 'public', description: 'd' },
    status: 201,
    data: database,
  },
  { name: 'getDatabase', call: (c) => c.getDatabase(db), method: 'GET', path: base, status: 200, data: database },
  {
    name: 'listBranches',
    call: (c) => c.listBranches(db),
    method: 'GET',
    path: `${base}/branches`,
    status: 200,
    data: [branch],
    meta: { next_page_token: 'p2' },
    expected: { items: [branch], nextPageToken: 'p2' },
  },
  {
    name: 'createBranch',
    call: (c) => c.createBranch(db, { name: 'dev', from: { branch: 'main' } }),
    method: 'POST',
    path: `${base}/branches`,
    body: { name: 'dev', from: { branch: 'main' } },
    status: 201,
    data: branch,
  },
  {
    name: 'listTags',
    call: (c) => c.listTags(db),
    method: 'GET',
    path: `${base}/tags`,
    status: 200,
    data: [tag],
    expected: { items: [tag] },
  },
  {
    name: 'createTag',
    call: (c) => c.createTag(db, { name: 'v1', from: { commit: 'b'.repeat(32) }, message: 'first' }),
    method: 'POST',
    path: `${base}/tags`,
    body: { name: 'v1', from: { commit: 'b'.repeat(32) }, message: 'first' },
    status: 201,
    data: tag,
  },
  {
    name: 'listForks',
    call: (c) => c.listForks(db),
    method: 'GET',
    path: `${base}/forks`,
    status: 200,
    data: [{ owner: 'bob', name: 'inventory' }],
  },
  {
    name: 'createFork',
    call: (c) => c.createFork(db, { owner: 'bob' }),
    method: 'POST',
    path: `${base}/forks`,
    body: { owner: 'bob' },
    status: 202,
    data: opRef,
  },
  {
    name: 'listReleases',
    call: (c) => c.listReleases(db, { pageToken: 'opaque/+=token' }),
    method: 'GET',
    path: `${base}/releases?page_token=opaque%2F%2B%3Dtoken`,
    status: 200,
    data: [release],
    meta: { next_page_token: '' },
    expected: { items: [release] },
  },
  {
    name: 'createRelease',
    call: (c) => c.createRelease(db, { tag: 'v1', title: 'One', commit_sha: 'b'.repeat(32), create_tag_if_not_exists: true }),
    method: 'POST',
    path: `${base}/releases`,
    body: { tag: 'v1', title: 'One', commit_sha: 'b'.repeat(32), create_tag_if_not_exists: true },
    status: 201,
    data: release,
  },
  {
    name: 'runSql',
    call: (c) => c.runSql(db, { ref: 'main', q: 'SELECT 1', limit: 10, timeoutMs: 5000 }),
    method: 'GET',
    path: `${base}/sql?ref=main&q=SELECT%201&limit=10&timeout_ms=5000`,
    status: 200,
    data: result,
  },
  {
    name: 'listPulls',
    call: (c) => c.listPulls(db),
    method: 'GET',
    path: `${base}/pulls`,
    status: 200,
    data: [pull],
    expected: { items: [pull] },
  },
  {
    name: 'createPull',
    call: (c) => c.createPull(db, { title: 'Fix', from_branch: pull.from_branch, to_branch: pull.to_branch }),
    method: 'POST',
    path: `${base}/pulls`,
    body: { title: 'Fix', from_branch: pull.from_branch, to_branch: pull.to_branch },
    status: 201,
    data: pull,
  },
  { name: 'getPull', call: (c) => c.getPull(db, 4), method: 'GET', path: `${base}/pulls/4`, status: 200, data: pull },
  {
    name: 'updatePull',
    call: (c) => c.updatePull(db, 4, { state: 'closed' }),
    method: 'PATCH',
    path: `${base}/pulls/4`,
    body: { state: 'closed' },
    status: 200,
    data: { ...pull, state: 'closed' },
  },
  {
    name: 'listPullComments',
    call: (c) => c.listPullComments(db, 4),
    method: 'GET',
    path: `${base}/pulls/4/comments`,
    status: 200,
    data: [comment],
  },
  {
    name: 'createPullComment',
    call: (c) => c.createPullComment(db, 4, { body: 'LGTM' }),
    method: 'POST',
    path: `${base}/pulls/4/comments`,
    body: { body: 'LGTM' },
    status: 201,
    data: comment,
  },
  { name: 'mergePull', call: (c) => c.mergePull(db, 4), method: 'POST', path: `${base}/pulls/4/merge`, body: {}, status: 202, data: opRef },
  {
    name: 'createImportUpload',
    call: (c) => c.createImportUpload(db, { content_length: 10, num_parts: 1, file_type: 'csv' }),
    method: 'POST',
    path: `${base}/imports/uploads`,
    body: { content_length: 10, num_parts: 1, file_type: 'csv' },
    status: 201,
    data: { token: 't', contents_key: 'k', parts: [{ part_number: 1, url: 'https://s3.test/p1?sig=x' }], http_method: 'PUT', headers: {} },
  },
  {
    name: 'createImport',
    call: (c) =>
      c.createImport(db, {
        branch_name: 'main',
        table_name: 't',
        file_name: 'f.csv',
        file_size: 10,
        file_type: 'csv',
        import_operation: 'create',
        token: 't',
        contents_key: 'k',
        completed_parts: [{ part_number: 1, etag: '"e1"' }],
        file_parts_md5: 'abc=',
        primary_keys: [],
      }),
    method: 'POST',
    path: `${base}/imports`,
    body: {
      branch_name: 'main',
      table_name: 't',
      file_name: 'f.csv',
      file_size: 10,
      file_type: 'csv',
      import_operation: 'create',
      token: 't',
      contents_key: 'k',
      completed_parts: [{ part_number: 1, etag: '"e1"' }],
      file_parts_md5: 'abc=',
      primary_keys: [],
    },
    status: 202,
    data: opRef,
  },
  {
    name: 'listOperations',
    call: (c) => c.listOperations(db),
    method: 'GET',
    path: `${base}/operations`,
    status: 200,
    data: [operation],
    expected: { items: [operation] },
  },
  {
    name: 'getOperation',
    call: (c) => c.getOperation(opRef.id),
    method: 'GET',
    path: '/api/v2/operations/owners%2Facme%2Frepos%2Finventory%2Fjobs%2F7',
    status: 200,
    data: operation,
  },
];

describe('HubClient endpoints', () => {
  let agent: MockAgent;
  beforeEach(() => {
    agent = mockAgent();
  });
  afterEach(async () => {
    await agent.close();
  });

  for (const tc of cases) {
    it(`${tc.name}: ${tc.method} ${tc.path.split('?')[0]} and unwraps the envelope`, async () => {
      const seen: Captured[] = [];
      agent
        .get(ORIGIN)
        .intercept({ path: tc.path, method: tc.method })
        .reply((opts) => {
          seen.push({ method: opts.method, path: opts.path, headers: headerRecord(opts.headers), body: parseBody(opts.body) });
          return { statusCode: tc.status, data: JSON.stringify(tc.meta ? { data: tc.data, meta: tc.meta } : { data: tc.data }) };
        });
      const client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent, token: 'tok-123456' });
      const got = await tc.call(client);
      assert.deepEqual(got, tc.expected ?? tc.data);
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.method, tc.method);
      assert.equal(seen[0]!.path, tc.path);
      assert.deepEqual(seen[0]!.body, tc.body);
      assert.equal(seen[0]!.headers['authorization'], 'Bearer tok-123456');
      if (tc.body !== undefined) assert.match(seen[0]!.headers['content-type'] ?? '', /application\/json/);
    });
  }

  it('covers every public endpoint method of HubClient', () => {
    const methods = Object.getOwnPropertyNames(HubClient.prototype).filter(
      (m) => m !== 'constructor' && !['get', 'send', 'list', 'origin', 'waitForOperation', 'uploadImport'].includes(m),
    );
    const tested = new Set(cases.map((c) => c.name));
    for (const m of methods) assert.ok(tested.has(m), `${m} has no endpoint case`);
    assert.equal(methods.length, 23);
  });

  it('appends /api/v2 under a site root that has a path', async () => {
    agent.get(ORIGIN).intercept({ path: '/hub/root/api/v2/user', method: 'GET' }).reply(200, { data: user });
    const client = new HubClient({ baseUrl: `${ORIGIN}/hub/root/`, dispatcher: agent });
    assert.deepEqual(await client.getCurrentUser(), user);
  });

  it('rejects a site URL that is not http(s) or carries credentials', () => {
    assert.throws(() => new HubClient({ baseUrl: 'ftp://x.test' }), /http or https/);
    assert.throws(() => new HubClient({ baseUrl: 'not a url' }), /valid site URL/);
    assert.throws(() => new HubClient({ baseUrl: 'https://u:p@x.test' }), /credentials/);
  });
});
