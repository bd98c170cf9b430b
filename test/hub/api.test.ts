// The hub over HTTP: envelopes, Problems, routing, validation, auth (spec section 5),
// pagination, databases and the user.
import assert from 'node:assert/strict';
import { startHub, type HubHandle } from '../helpers/hub';

describe('hub API: envelope, errors, auth, pagination, databases', function () {
  let hub: HubHandle;

  before(async function () {
    hub = await startHub({ seed: true, args: ['--page-size', '2'] });
    await hub.token('alice');
    await hub.token('bob');
    await hub.token('carol');
  });
  after(async () => hub?.stop());

  function assertProblem(r: { status: number; headers: Headers; body: any }, status: number, code: string): void {
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.status, status);
    assert.equal(r.body.code, code);
    assert.equal(typeof r.body.title, 'string');
    assert.match(r.body.request_id, /^[0-9a-f-]{36}$/);
    assert.equal(r.headers.get('x-request-id'), r.body.request_id);
  }

  it('wraps a single resource in { data } without meta and sends a request id', async () => {
    const r = await hub.fetch('/databases/alice/prices');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['data']);
    assert.equal(r.body.data.owner, 'alice');
    assert.equal(r.body.data.name, 'prices');
    assert.equal(r.body.data.visibility, 'public');
    assert.equal(r.body.data.fork_network_count, 0);
    assert.equal(r.body.data.star_count, 0);
    assert.ok(r.body.data.size_bytes > 1000);
    assert.equal(r.body.data.parent, undefined);
    assert.ok(r.headers.get('x-request-id'));
  });

  it('answers unknown paths with a 404 Problem and unsupported methods with 405 + Allow', async () => {
    assertProblem(await hub.fetch('/nope'), 404, 'NOT_FOUND');
    assertProblem(await hub.fetch('/databases/alice/prices/nope'), 404, 'NOT_FOUND');
    const r = await hub.fetch('/databases/alice/prices', { method: 'DELETE' });
    assertProblem(r, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(r.headers.get('allow'), 'GET');
    const r2 = await hub.fetch('/databases/alice/prices/branches', { method: 'PUT', user: 'alice', json: {} });
    assertProblem(r2, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(r2.headers.get('allow'), 'GET, POST');
  });

  it('rejects malformed JSON, wrong types, unknown fields and bad names with 400 naming the field', async () => {
    const bad = await hub.fetch('/databases', { user: 'alice', body: '{"owner":', headers: { 'content-type': 'application/json' } });
    assertProblem(bad, 400, 'VALIDATION_FAILED');
    const wrongType = await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 5, visibility: 'public' } });
    assertProblem(wrongType, 400, 'VALIDATION_FAILED');
    assert.match(wrongType.body.detail, /"name"/);
    const unknown = await hub.fetch('/databases', {
      user: 'alice',
      json: { owner: 'alice', name: 'x1', visibility: 'public', color: 'red' },
    });
    assertProblem(unknown, 400, 'VALIDATION_FAILED');
    assert.match(unknown.body.detail, /"color"/);
    const badName = await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: '-bad', visibility: 'public' } });
    assertProblem(badName, 400, 'VALIDATION_FAILED');
    assert.match(badName.body.detail, /"name"/);
    const noVis = await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'novis' } });
    assertProblem(noVis, 400, 'VALIDATION_FAILED');
    assert.match(noVis.body.detail, /"visibility"/);
    // Nothing half-created.
    assertProblem(await hub.fetch('/databases/alice/novis', { user: 'alice' }), 404, 'NOT_FOUND');
  });

  it('creates a database (201), refuses a duplicate (409), and lets org roles decide', async () => {
    const r = await hub.fetch('/databases', {
      user: 'alice',
      json: { owner: 'alice', name: 'fresh_db', description: 'Fresh', visibility: 'public' },
    });
    assert.equal(r.status, 201);
    assert.deepEqual(
      { owner: r.body.data.owner, name: r.body.data.name, description: r.body.data.description, visibility: r.body.data.visibility },
      { owner: 'alice', name: 'fresh_db', description: 'Fresh', visibility: 'public' },
    );
    const branches = await hub.fetch('/databases/alice/fresh_db/branches');
    assert.deepEqual(
      branches.body.data.map((b: any) => b.name),
      ['main'],
    );
    assertProblem(
      await hub.fetch('/databases', { user: 'alice', json: { owner: 'alice', name: 'fresh_db', visibility: 'public' } }),
      409,
      'CONFLICT',
    );
    assertProblem(await hub.fetch('/databases', { json: { owner: 'alice', name: 'anon', visibility: 'public' } }), 401, 'UNAUTHENTICATED');
    assertProblem(
      await hub.fetch('/databases', { user: 'bob', json: { owner: 'alice', name: 'bobs', visibility: 'public' } }),
      403,
      'PERMISSION_DENIED',
    );
    // acme: bob is a writer (may create), carol a reader (may not).
    assert.equal(
      (await hub.fetch('/databases', { user: 'bob', json: { owner: 'acme', name: 'bob_made', visibility: 'private' } })).status,
      201,
    );
    assertProblem(
      await hub.fetch('/databases', { user: 'carol', json: { owner: 'acme', name: 'carol_made', visibility: 'public' } }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('hides private databases from outsiders with 404 and shows them to members', async () => {
    assertProblem(await hub.fetch('/databases/alice/notes'), 404, 'NOT_FOUND');
    assertProblem(await hub.fetch('/databases/alice/notes', { user: 'bob' }), 404, 'NOT_FOUND');
    assertProblem(await hub.fetch('/databases/alice/notes/sql?ref=main&q=select%201', { user: 'bob' }), 404, 'NOT_FOUND');
    assertProblem(await hub.fetch('/databases/alice/notes/branches'), 404, 'NOT_FOUND');
    assert.equal((await hub.fetch('/databases/alice/notes', { user: 'alice' })).status, 200);
    // org members (any role) read org-private databases
    assert.equal((await hub.fetch('/databases/acme/payroll', { user: 'carol' })).status, 200);
    assertProblem(await hub.fetch('/databases/acme/payroll'), 404, 'NOT_FOUND');
  });

  it('answers 401 for a missing or invalid token where one is required, and 403 without permission', async () => {
    assertProblem(await hub.fetch('/user'), 401, 'UNAUTHENTICATED');
    assertProblem(await hub.fetch('/user', { authorization: 'Bearer not-a-real-token' }), 401, 'UNAUTHENTICATED');
    assertProblem(await hub.fetch('/databases/alice/prices', { authorization: 'Basic abc' }), 401, 'UNAUTHENTICATED');
    assertProblem(
      await hub.fetch('/databases/alice/prices/branches', { json: { name: 'x', from: { branch: 'main' } } }),
      401,
      'UNAUTHENTICATED',
    );
    assertProblem(
      await hub.fetch('/databases/alice/prices/branches', { user: 'bob', json: { name: 'x', from: { branch: 'main' } } }),
      403,
      'PERMISSION_DENIED',
    );
    // carol reads acme/warehouse but cannot write to it
    assertProblem(
      await hub.fetch('/databases/acme/warehouse/branches', { user: 'carol', json: { name: 'x', from: { branch: 'main' } } }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('returns the authenticated user without internal fields', async () => {
    const r = await hub.fetch('/user', { user: 'bob' });
    assert.equal(r.status, 200);
    assert.equal(r.body.data.username, 'bob');
    assert.deepEqual(r.body.data.email_addresses, [{ address: 'bob@example.com', is_primary: true, is_verified: true }]);
    assert.equal(JSON.stringify(r.body).includes('password'), false);
    assert.equal(JSON.stringify(r.body).includes('token'), false);
  });

  it('defaults SQL limit to 1000 rows', async () => {
    const q = encodeURIComponent('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1500) SELECT x FROM c');
    const r = await hub.fetch(`/databases/alice/prices/sql?ref=main&q=${q}`);
    assert.equal(r.body.data.status, 'row_limit');
    assert.equal(r.body.data.rows.length, 1000);
    assert.deepEqual(r.body.data.rows[999], ['1000']);
  });

  it('paginates with opaque cursors and refuses forged or foreign tokens with 400', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const r = await hub.fetch(`/databases/alice/prices/branches${token ? `?page_token=${encodeURIComponent(token)}` : ''}`);
      assert.equal(r.status, 200);
      assert.ok(r.body.meta, 'list responses carry meta');
      assert.ok(r.body.data.length <= 2);
      seen.push(...r.body.data.map((b: any) => b.name));
      token = r.body.meta.next_page_token;
      pages++;
    } while (token);
    assert.ok(pages >= 2);
    assert.deepEqual(seen, ['experiment', 'main', 'more-stores', 'prices-2025', 'supplier-updates', 'vale-rating']);

    const first = await hub.fetch('/databases/alice/prices/branches');
    const good = first.body.meta.next_page_token as string;
    const [payload, mac] = good.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload as string, 'base64url').toString()), o: 0 }),
    ).toString('base64url');
    assertProblem(await hub.fetch(`/databases/alice/prices/branches?page_token=${forgedPayload}.${mac}`), 400, 'VALIDATION_FAILED');
    assertProblem(await hub.fetch('/databases/alice/prices/branches?page_token=garbage'), 400, 'VALIDATION_FAILED');
    // A token for another list is refused too.
    assertProblem(await hub.fetch(`/databases/alice/prices/pulls?page_token=${encodeURIComponent(good)}`), 400, 'VALIDATION_FAILED');
  });
});
