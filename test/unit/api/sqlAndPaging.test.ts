import { strict as assert } from 'node:assert';
import type { MockAgent } from 'undici';
import { collectAll, HubClient, MAX_GET_URL_LENGTH, paginate } from '../../../src/api/index';
import type { Branch } from '../../../src/shared/wire';
import { headerRecord, mockAgent, ORIGIN, parseBody, type Captured } from './fakes';
import { aBranch } from '../../builders/wire';

const db = { owner: 'acme', name: 'inventory' };

describe('runSql', () => {
  let agent: MockAgent;
  let client: HubClient;
  let seen: Captured[];
  beforeEach(() => {
    agent = mockAgent();
    client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent });
    seen = [];
  });
  afterEach(async () => {
    await agent.close();
  });

  function answer(method: string, data: unknown): void {
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.startsWith('/api/v2/databases/acme/inventory/sql'), method })
      .reply((opts) => {
        seen.push({ method: opts.method, path: opts.path, headers: headerRecord(opts.headers), body: parseBody(opts.body) });
        return { statusCode: 200, data: JSON.stringify({ data }) };
      });
  }

  it('sends a short query as GET with ref, q, limit and timeout_ms as query parameters', async () => {
    answer('GET', { columns: [], rows: [], status: 'success' });
    await client.runSql(db, { ref: 'feature/x', q: "SELECT * FROM t WHERE a = 'b&c'" });
    assert.equal(seen[0]!.method, 'GET');
    const url = new URL(ORIGIN + seen[0]!.path);
    assert.equal(url.searchParams.get('ref'), 'feature/x');
    assert.equal(url.searchParams.get('q'), "SELECT * FROM t WHERE a = 'b&c'");
    assert.equal(url.searchParams.has('limit'), false);
  });

  it('switches to POST with a JSON body (integers) when the GET URL would pass about 4 KB', async () => {
    answer('POST', { columns: [], rows: [], status: 'success' });
    const q = `SELECT '${'x'.repeat(MAX_GET_URL_LENGTH)}'`;
    await client.runSql(db, { ref: 'main', q, limit: 5, timeoutMs: 1000 });
    assert.equal(seen[0]!.method, 'POST');
    assert.equal(seen[0]!.path, '/api/v2/databases/acme/inventory/sql');
    assert.deepEqual(seen[0]!.body, { ref: 'main', q, limit: 5, timeout_ms: 1000 });
  });

  it('measures the encoded URL: a query that is short as text but long once escaped also goes by POST', async () => {
    answer('POST', { columns: [], rows: [], status: 'success' });
    // 1,400 characters, each 3 bytes in UTF-8 and 9 characters once percent-encoded.
    await client.runSql(db, { ref: 'main', q: `SELECT '${'€'.repeat(1400)}'` });
    assert.equal(seen[0]!.method, 'POST');
    answer('GET', { columns: [], rows: [], status: 'success' });
    await client.runSql(db, { ref: 'main', q: `SELECT '${'a'.repeat(3000)}'` });
    assert.equal(seen[1]!.method, 'GET');
  });

  it('returns a non-success SQL status as a result, not an exception', async () => {
    for (const status of ['error', 'timeout', 'row_limit', 'not_workspace', 'some_future_status']) {
      answer('GET', { columns: [], rows: [], status, message: `it was ${status}` });
      const r = await client.runSql(db, { ref: 'main', q: 'SELECT nope' });
      assert.equal(r.status, status);
      assert.equal(r.message, `it was ${status}`);
    }
  });

  it('keeps NULL cells as null and every other cell as the string sent', async () => {
    answer('GET', {
      columns: [
        { name: 'a', type: 'bigint' },
        { name: 'b', type: 'blob' },
      ],
      rows: [
        ['12345678901234567890', '<binary>'],
        [null, null],
      ],
      status: 'success',
    });
    const r = await client.runSql(db, { ref: 'main', q: 'SELECT a, b FROM t' });
    assert.deepEqual(r.rows, [
      ['12345678901234567890', '<binary>'],
      [null, null],
    ]);
  });
});

describe('pagination', () => {
  let agent: MockAgent;
  beforeEach(() => {
    agent = mockAgent();
  });
  afterEach(async () => {
    await agent.close();
  });

  const b = (name: string): Branch => aBranch({ name });

  it('paginate follows next_page_token verbatim until it is absent', async () => {
    const pool = agent.get(ORIGIN);
    const paths: string[] = [];
    const reply = (data: Branch[], meta?: object) => (opts: { path: string }) => {
      paths.push(opts.path);
      return { statusCode: 200, data: JSON.stringify(meta ? { data, meta } : { data }) };
    };
    pool
      .intercept({ path: '/api/v2/databases/acme/inventory/branches', method: 'GET' })
      .reply(reply([b('a'), b('b')], { next_page_token: 'c2Vjb25k/+=' }));
    pool
      .intercept({ path: '/api/v2/databases/acme/inventory/branches?page_token=c2Vjb25k%2F%2B%3D', method: 'GET' })
      .reply(reply([b('c')], { next_page_token: 'third' }));
    pool.intercept({ path: '/api/v2/databases/acme/inventory/branches?page_token=third', method: 'GET' }).reply(reply([b('d')]));
    const client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent });
    const names: string[] = [];
    for await (const br of paginate((pageToken) => client.listBranches(db, { pageToken }))) names.push(br.name);
    assert.deepEqual(names, ['a', 'b', 'c', 'd']);
    assert.equal(paths.length, 3);
  });

  it('an empty next_page_token ends the listing', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/databases/acme/inventory/tags', method: 'GET' })
      .reply(200, { data: [{ name: 'v1', commit_sha: 'c' }], meta: { next_page_token: '' } });
    const client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent });
    const all = await collectAll((pageToken) => client.listTags(db, { pageToken }));
    assert.deepEqual(
      all.map((t) => t.name),
      ['v1'],
    );
  });

  it('stops with an error when the server hands back a token it already gave', async () => {
    let calls = 0;
    const fetchPage = async (): Promise<{ items: number[]; nextPageToken: string }> => {
      calls++;
      return { items: [calls], nextPageToken: 'same' };
    };
    await assert.rejects(collectAll(fetchPage), /repeated a page token/);
    assert.equal(calls, 2);
  });

  it('fetches lazily: breaking out early requests no further page', async () => {
    let calls = 0;
    const fetchPage = async (t: string | undefined): Promise<{ items: string[]; nextPageToken?: string }> => {
      calls++;
      return t ? { items: ['z'] } : { items: ['x', 'y'], nextPageToken: 'n' };
    };
    for await (const item of paginate(fetchPage)) {
      assert.equal(item, 'x');
      break;
    }
    assert.equal(calls, 1);
  });
});
