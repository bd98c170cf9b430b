import { strict as assert } from 'node:assert';
import type { MockAgent } from 'undici';
import { ApiError, ClientErrorCodes, HubClient } from '../../../src/api/index';
import { mockAgent, ORIGIN } from './fakes';

const db = { owner: 'acme', name: 'inventory' };
const TOKEN = 'secret-token-abcdef';

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

describe('HubClient errors', () => {
  let agent: MockAgent;
  let client: HubClient;
  beforeEach(() => {
    agent = mockAgent();
    client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent, token: TOKEN, maxRetries: 0 });
  });
  afterEach(async () => {
    await agent.close();
  });

  it('turns a Problem body into an ApiError with every field', async () => {
    agent.get(ORIGIN).intercept({ path: '/api/v2/databases/acme/inventory', method: 'GET' }).reply(404, {
      type: 'https://docs.test/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'No database acme/inventory',
      instance: '/api/v2/databases/acme/inventory',
      code: 'NOT_FOUND',
      request_id: 'req-42',
    });
    const err = await failure(client.getDatabase(db));
    assert.equal(err.status, 404);
    assert.equal(err.code, 'NOT_FOUND');
    assert.equal(err.title, 'Not found');
    assert.equal(err.detail, 'No database acme/inventory');
    assert.equal(err.requestId, 'req-42');
    assert.equal(err.type, 'https://docs.test/problems/not-found');
    assert.equal(err.instance, '/api/v2/databases/acme/inventory');
    assert.equal(err.method, 'GET');
    assert.equal(err.path, '/api/v2/databases/acme/inventory');
    assert.equal(err.isProblem, true);
    assert.match(err.message, /Not found: No database acme\/inventory/);
  });

  it('keeps an unknown error code verbatim', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/databases/acme/inventory/branches', method: 'POST' })
      .reply(409, { title: 'Exists', status: 409, code: 'BRANCH_ALREADY_EXISTS_V3', request_id: 'r' });
    const err = await failure(client.createBranch(db, { name: 'x', from: { branch: 'main' } }));
    assert.equal(err.code, 'BRANCH_ALREADY_EXISTS_V3');
    assert.equal(err.status, 409);
  });

  it('takes the request id from the x-request-id header when the body has none', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/user', method: 'GET' })
      .reply(401, { title: 'Sign in', status: 401, code: 'UNAUTHENTICATED' }, { headers: { 'x-request-id': 'hdr-7' } });
    const err = await failure(client.getCurrentUser());
    assert.equal(err.requestId, 'hdr-7');
    assert.equal(err.code, 'UNAUTHENTICATED');
  });

  it('gives an ApiError with the status and a short text excerpt for an HTML proxy page', async () => {
    const html = `<html><head><style>body{}</style></head><body><h1>502 Bad Gateway</h1><p>nginx</p>${'<p>filler</p>'.repeat(200)}</body></html>`;
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/user', method: 'GET' })
      .reply(502, html, { headers: { 'content-type': 'text/html' } });
    const err = await failure(client.getCurrentUser());
    assert.equal(err.status, 502);
    assert.equal(err.isProblem, false);
    assert.equal(err.code, 'INTERNAL');
    assert.ok(err.excerpt?.startsWith('502 Bad Gateway nginx'), err.excerpt);
    assert.ok((err.excerpt ?? '').length <= 201);
    assert.ok(!err.message.includes('<h1>'));
  });

  it('gives an ApiError for an empty error body', async () => {
    agent.get(ORIGIN).intercept({ path: '/api/v2/user', method: 'GET' }).reply(403, '');
    const err = await failure(client.getCurrentUser());
    assert.equal(err.status, 403);
    assert.equal(err.code, 'PERMISSION_DENIED');
    assert.match(err.title, /empty body/);
  });

  it('refuses a 2xx without data, and a 2xx that is not JSON', async () => {
    agent.get(ORIGIN).intercept({ path: '/api/v2/user', method: 'GET' }).reply(200, { username: 'flat-v1-shape' });
    const e1 = await failure(client.getCurrentUser());
    assert.equal(e1.code, ClientErrorCodes.malformedResponse);
    assert.equal(e1.status, 200);
    agent.get(ORIGIN).intercept({ path: '/api/v2/user', method: 'GET' }).reply(200, '<html>login</html>');
    const e2 = await failure(client.getCurrentUser());
    assert.equal(e2.code, ClientErrorCodes.malformedResponse);
    assert.equal(e2.excerpt, 'login');
  });

  it('refuses a list answer whose data is not a list', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/databases/acme/inventory/branches', method: 'GET' })
      .reply(200, { data: { name: 'main' } });
    const e1 = await failure(client.listBranches(db));
    assert.equal(e1.code, ClientErrorCodes.malformedResponse);
    agent.get(ORIGIN).intercept({ path: '/api/v2/databases/acme/inventory/forks', method: 'GET' }).reply(200, { data: 'none' });
    const e2 = await failure(client.listForks(db));
    assert.equal(e2.code, ClientErrorCodes.malformedResponse);
  });

  it('keeps unknown enum values (operation type, status, pull state, SQL status)', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/databases/acme/inventory/operations', method: 'GET' })
      .reply(200, { data: [{ id: 'o', type: 'dolt_ci', status: 'paused', created_at: 'x', cancelable: false, extra_field: 1 }] });
    const page = await client.listOperations(db);
    assert.equal(page.items[0]!.type, 'dolt_ci');
    assert.equal(page.items[0]!.status, 'paused');
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/databases/acme/inventory/pulls/1', method: 'GET' })
      .reply(200, { data: { pull_number: 1, title: 't', state: 'draft', created_at: 'x', creator: 'a' } });
    assert.equal((await client.getPull(db, 1)).state, 'draft');
  });

  it('refuses a redirect instead of following it', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/user', method: 'GET' })
      .reply(302, '', { headers: { location: 'https://evil.test/steal' } });
    const err = await failure(client.getCurrentUser());
    assert.equal(err.code, ClientErrorCodes.unexpectedRedirect);
    assert.equal(err.status, 302);
  });

  it('stops reading an oversized response (declared or streamed) with RESPONSE_TOO_LARGE', async () => {
    const small = new HubClient({ baseUrl: ORIGIN, dispatcher: agent, maxResponseBytes: 1024, maxRetries: 0 });
    const big = JSON.stringify({ data: { username: 'x'.repeat(5000), email_addresses: [] } });
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/user', method: 'GET' })
      .reply(200, big, { headers: { 'content-length': String(big.length) } });
    const e1 = await failure(small.getCurrentUser());
    assert.equal(e1.code, ClientErrorCodes.responseTooLarge);
    // No content-length: the limit is enforced while streaming.
    agent.get(ORIGIN).intercept({ path: '/api/v2/user', method: 'GET' }).reply(200, big);
    const e2 = await failure(small.getCurrentUser());
    assert.equal(e2.code, ClientErrorCodes.responseTooLarge);
    // Under the limit the same client works.
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/user', method: 'GET' })
      .reply(200, { data: { username: 'ok', email_addresses: [] } });
    assert.equal((await small.getCurrentUser()).username, 'ok');
  });

  it('a network failure is an ApiError with status 0 and NETWORK_ERROR', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/user', method: 'GET' })
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const err = await failure(client.getCurrentUser());
    assert.equal(err.status, 0);
    assert.equal(err.code, ClientErrorCodes.network);
  });

  it('never puts the token into an error message, even when the server echoes it', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/user', method: 'GET' })
      .reply(400, {
        title: `Bad header Bearer ${TOKEN}`,
        status: 400,
        code: 'VALIDATION_FAILED',
        detail: `token ${TOKEN} rejected`,
        request_id: 'r',
      });
    const err = await failure(client.getCurrentUser());
    assert.ok(!err.message.includes(TOKEN), err.message);
    assert.ok(!(err.detail ?? '').includes(TOKEN));
    agent.get(ORIGIN).intercept({ path: '/api/v2/user', method: 'GET' }).reply(500, `<pre>Authorization: Bearer ${TOKEN}</pre>`);
    const err2 = await failure(client.getCurrentUser());
    assert.ok(!err2.message.includes(TOKEN), err2.message);
    assert.ok(!(err2.excerpt ?? '').includes(TOKEN));
  });

  it('toProblem gives the wire shape back', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v2/user', method: 'GET' })
      .reply(422, { title: 'Dup', status: 422, code: 'UNPROCESSABLE', request_id: 'r9' });
    const err = await failure(client.getCurrentUser());
    assert.deepEqual(err.toProblem(), { title: 'Dup', status: 422, code: 'UNPROCESSABLE', request_id: 'r9' });
  });
});

describe('ApiError path', () => {
  it('drops the query (SQL text, page tokens) from path and message', async () => {
    const agent = mockAgent();
    try {
      agent
        .get(ORIGIN)
        .intercept({ path: (p) => p.startsWith('/api/v2/databases/acme/inventory/sql?'), method: 'GET' })
        .reply(400, { title: 'Bad ref', status: 400, code: 'VALIDATION_FAILED', request_id: 'r' });
      const client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent });
      const err = await failure(client.runSql(db, { ref: 'nope', q: 'SELECT secret_column FROM payroll' }));
      assert.equal(err.path, '/api/v2/databases/acme/inventory/sql');
      assert.ok(!err.message.includes('payroll'), err.message);
    } finally {
      await agent.close();
    }
  });
});

describe('token redaction with a token function', () => {
  it('scrubs a token obtained from a function out of messages too', async () => {
    const agent = mockAgent();
    try {
      const fnToken = 'oauth-access-XYZ987654';
      agent
        .get(ORIGIN)
        .intercept({ path: '/api/v2/user', method: 'GET' })
        .reply(401, { title: 'Invalid token', status: 401, code: 'UNAUTHENTICATED', detail: `token=${fnToken}`, request_id: 'r' });
      const client = new HubClient({ baseUrl: ORIGIN, dispatcher: agent, token: async () => fnToken });
      const err = await failure(client.getCurrentUser());
      assert.equal(err.detail, 'token=[REDACTED]');
      assert.ok(!err.message.includes(fnToken));
    } finally {
      await agent.close();
    }
  });
});
