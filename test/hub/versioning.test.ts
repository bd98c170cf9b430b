// Branches, tags, releases, forks, pull requests, comments, merges and operations over HTTP.
import assert from 'node:assert/strict';
import { startHub, waitForOperation, type HubHandle } from '../helpers/hub';
import { importCsv } from './importFlow';

describe('hub versioning: branches, tags, releases, forks, pulls, merges, operations', function () {
  let hub: HubHandle;
  const P = '/databases/alice/prices';

  before(async function () {
    hub = await startHub({ seed: true });
    await hub.token('alice');
    await hub.token('bob');
    await hub.token('carol');
  });
  after(async () => hub?.stop());

  const head = async (db: string, branch: string): Promise<string> => {
    const r = await hub.fetch(`/databases/${db}/branches`);
    return r.body.data.find((b: any) => b.name === branch)?.head_commit_sha;
  };
  const sql = async (db: string, ref: string, q: string, user: string | null = 'alice'): Promise<any> =>
    (await hub.fetch(`/databases/${db}/sql`, { user, json: { ref, q } })).body.data;

  describe('branches and tags', () => {
    it('creates a branch from a branch or a commit (201), 409 on a duplicate, 404 on an unknown source', async () => {
      const mainHead = await head('alice/prices', 'main');
      const r = await hub.fetch(`${P}/branches`, { user: 'alice', json: { name: 'feature/x', from: { branch: 'main' } } });
      assert.equal(r.status, 201);
      assert.equal(r.body.data.name, 'feature/x');
      assert.equal(r.body.data.head_commit_sha, mainHead);
      const tags = (await hub.fetch(`${P}/tags`)).body.data;
      const v1 = tags.find((t: any) => t.name === 'v1');
      const fromCommit = await hub.fetch(`${P}/branches`, { user: 'alice', json: { name: 'at-v1', from: { commit: v1.commit_sha } } });
      assert.equal(fromCommit.status, 201);
      assert.equal(fromCommit.body.data.head_commit_sha, v1.commit_sha);
      assert.equal(
        (await hub.fetch(`${P}/branches`, { user: 'alice', json: { name: 'feature/x', from: { branch: 'main' } } })).status,
        409,
      );
      assert.equal((await hub.fetch(`${P}/branches`, { user: 'alice', json: { name: 'y', from: { branch: 'nope' } } })).status, 404);
      assert.equal(
        (await hub.fetch(`${P}/branches`, { user: 'alice', json: { name: 'y', from: { commit: '0'.repeat(32) } } })).status,
        404,
      );
      const both = await hub.fetch(`${P}/branches`, {
        user: 'alice',
        json: { name: 'y', from: { branch: 'main', commit: v1.commit_sha } },
      });
      assert.equal(both.status, 400);
      assert.match(both.body.detail, /from/);
      assert.equal(
        (await hub.fetch(`${P}/branches`, { user: 'alice', json: { name: 'bad..name', from: { branch: 'main' } } })).status,
        400,
      );
    });

    it('creates lightweight and annotated tags', async () => {
      const light = await hub.fetch(`${P}/tags`, { user: 'alice', json: { name: 'light', from: { branch: 'main' } } });
      assert.equal(light.status, 201);
      assert.equal(light.body.data.message, undefined);
      assert.equal(light.body.data.commit_sha, await head('alice/prices', 'main'));
      const annotated = await hub.fetch(`${P}/tags`, {
        user: 'alice',
        json: { name: 'annotated', from: { branch: 'prices-2025' }, message: 'Release candidate' },
      });
      assert.equal(annotated.status, 201);
      assert.equal(annotated.body.data.message, 'Release candidate');
      assert.equal(annotated.body.data.commit_sha, await head('alice/prices', 'prices-2025'));
      assert.equal((await hub.fetch(`${P}/tags`, { user: 'alice', json: { name: 'light', from: { branch: 'main' } } })).status, 409);
      const listed = (await hub.fetch(`${P}/tags`)).body.data.map((t: any) => t.name);
      assert.ok(listed.includes('light') && listed.includes('annotated'));
    });
  });

  describe('releases', () => {
    it('creates the tag only when asked, checks an existing tag points at the commit, 409 on duplicates', async () => {
      const mainHead = await head('alice/prices', 'main');
      const v1 = (await hub.fetch(`${P}/tags`)).body.data.find((t: any) => t.name === 'v1');
      const noTag = await hub.fetch(`${P}/releases`, { user: 'alice', json: { tag: 'r-missing', title: 'R', commit_sha: mainHead } });
      assert.equal(noTag.status, 404);
      const created = await hub.fetch(`${P}/releases`, {
        user: 'alice',
        json: { tag: 'r1', title: 'Release 1', commit_sha: mainHead, create_tag_if_not_exists: true, description: 'First' },
      });
      assert.equal(created.status, 201);
      assert.deepEqual(
        {
          tag: created.body.data.tag,
          title: created.body.data.title,
          commit_sha: created.body.data.commit_sha,
          description: created.body.data.description,
        },
        { tag: 'r1', title: 'Release 1', commit_sha: mainHead, description: 'First' },
      );
      assert.equal(created.body.data.created_at, created.body.data.updated_at);
      assert.equal((await hub.fetch(`${P}/tags`)).body.data.find((t: any) => t.name === 'r1')?.commit_sha, mainHead);
      // existing tag at another commit: refused even with create_tag_if_not_exists
      const mismatch = await hub.fetch(`${P}/releases`, {
        user: 'alice',
        json: { tag: 'v1', title: 'Old', commit_sha: mainHead, create_tag_if_not_exists: true },
      });
      assert.equal(mismatch.status, 409);
      const matching = await hub.fetch(`${P}/releases`, { user: 'alice', json: { tag: 'v1', title: 'Old', commit_sha: v1.commit_sha } });
      assert.equal(matching.status, 201);
      assert.equal(matching.body.data.description, undefined);
      assert.equal(
        (await hub.fetch(`${P}/releases`, { user: 'alice', json: { tag: 'r1', title: 'Again', commit_sha: mainHead } })).status,
        409,
      );
      assert.equal(
        (await hub.fetch(`${P}/releases`, { user: 'alice', json: { tag: 'r9', title: 'x', commit_sha: 'not-a-hash' } })).status,
        400,
      );
      assert.equal(
        (
          await hub.fetch(`${P}/releases`, {
            user: 'alice',
            json: { tag: 'r9', title: 'x', commit_sha: '0'.repeat(32), create_tag_if_not_exists: true },
          })
        ).status,
        404,
      );
      assert.equal((await hub.fetch(`${P}/releases`, { user: 'bob', json: { tag: 'r9', title: 'x', commit_sha: mainHead } })).status, 403);
      const list = (await hub.fetch(`${P}/releases`)).body.data.map((r: any) => r.tag);
      assert.ok(list.includes('r1') && list.includes('v1') && list.includes('v2'));
    });
  });

  describe('pull requests and comments', () => {
    it('numbers pulls sequentially, returns the canonical Pull, and validates to_branch', async () => {
      await hub.fetch(`${P}/branches`, { user: 'alice', json: { name: 'pr-a', from: { branch: 'main' } } });
      const body = (title: string) => ({
        title,
        from_branch: { database: { owner: 'alice', name: 'prices' }, branch_name: 'pr-a' },
        to_branch: { database: { owner: 'alice', name: 'prices' }, branch_name: 'main' },
      });
      const r = await hub.fetch(`${P}/pulls`, { user: 'bob', json: body('From bob') });
      assert.equal(r.status, 201);
      assert.equal(r.body.data.pull_number, 6, 'after the five seeded pulls');
      assert.equal(r.body.data.state, 'open');
      assert.equal(r.body.data.creator, 'bob');
      assert.deepEqual(r.body.data.to_branch, { database: { owner: 'alice', name: 'prices' }, branch_name: 'main' });
      assert.equal((await hub.fetch(`${P}/pulls`, { user: 'bob', json: body('Same branches') })).status, 409);
      const wrongTo = await hub.fetch(`${P}/pulls`, {
        user: 'alice',
        json: { ...body('x'), to_branch: { database: { owner: 'alice', name: 'notes' }, branch_name: 'main' } },
      });
      assert.equal(wrongTo.status, 400);
      assert.match(wrongTo.body.detail, /to_branch/);
      const noBranch = await hub.fetch(`${P}/pulls`, {
        user: 'alice',
        json: { ...body('x'), from_branch: { database: { owner: 'alice', name: 'prices' }, branch_name: 'ghost' } },
      });
      assert.equal(noBranch.status, 404);
      assert.equal((await hub.fetch(`${P}/pulls`, { json: body('anon') })).status, 401);
      const got = await hub.fetch(`${P}/pulls/6`);
      assert.equal(got.body.data.title, 'From bob');
      assert.equal((await hub.fetch(`${P}/pulls/999`)).status, 404);
      assert.equal((await hub.fetch(`${P}/pulls/abc`)).status, 400);
    });

    it('PATCHes title, description and open/closed, refuses merged, and only for the author or writers', async () => {
      const r = await hub.fetch(`${P}/pulls/6`, { method: 'PATCH', user: 'bob', json: { title: 'Renamed', description: 'Now with text' } });
      assert.equal(r.status, 200);
      assert.equal(r.body.data.title, 'Renamed');
      assert.equal(r.body.data.description, 'Now with text');
      assert.ok(r.body.data.from_branch);
      const closed = await hub.fetch(`${P}/pulls/6`, { method: 'PATCH', user: 'alice', json: { state: 'closed' } });
      assert.equal(closed.body.data.state, 'closed');
      const reopened = await hub.fetch(`${P}/pulls/6`, { method: 'PATCH', user: 'bob', json: { state: 'open' } });
      assert.equal(reopened.body.data.state, 'open');
      const merged = await hub.fetch(`${P}/pulls/6`, { method: 'PATCH', user: 'alice', json: { state: 'merged' } });
      assert.ok(merged.status >= 400 && merged.status < 500);
      assert.ok(merged.body.code && merged.body.request_id);
      assert.equal((await hub.fetch(`${P}/pulls/6`)).body.data.state, 'open');
      assert.equal((await hub.fetch(`${P}/pulls/6`, { method: 'PATCH', user: 'alice', json: {} })).status, 400);
      assert.equal((await hub.fetch(`${P}/pulls/6`, { method: 'PATCH', user: 'carol', json: { title: 'Hijack' } })).status, 403);
      assert.equal((await hub.fetch(`${P}/pulls/6`, { method: 'PATCH', user: 'alice', json: { state: 'weird' } })).status, 400);
    });

    it('adds comments (201, author and times from the server) and lists them in order', async () => {
      const r = await hub.fetch(`${P}/pulls/6/comments`, { user: 'carol', json: { body: 'I have **thoughts**.' } });
      assert.equal(r.status, 201);
      assert.equal(r.body.data.author, 'carol');
      assert.equal(r.body.data.body, 'I have **thoughts**.');
      assert.ok(r.body.data.comment_id);
      assert.equal(r.body.data.created_at, r.body.data.updated_at);
      assert.equal((await hub.fetch(`${P}/pulls/6/comments`, { user: 'carol', json: { body: 'x', author: 'alice' } })).status, 400);
      assert.equal((await hub.fetch(`${P}/pulls/6/comments`, { json: { body: 'anon' } })).status, 401);
      await hub.fetch(`${P}/pulls/6/comments`, { user: 'alice', json: { body: 'Second' } });
      const list = await hub.fetch(`${P}/pulls/6/comments`);
      assert.deepEqual(
        list.body.data.map((c: any) => [c.author, c.body]),
        [
          ['carol', 'I have **thoughts**.'],
          ['alice', 'Second'],
        ],
      );
      const seeded = await hub.fetch(`${P}/pulls/1/comments`);
      assert.equal(seeded.body.data.length, 2);
    });
  });

  describe('merges', () => {
    it('merges with a 202 operation: queued, then succeeded with the pull id; the target changes', async () => {
      const r = await hub.fetch(`${P}/pulls/1/merge`, { user: 'alice', json: {} });
      assert.equal(r.status, 202);
      assert.match(r.body.data.id, /^owners\/alice\/repos\/prices\/jobs\/\d+$/);
      assert.equal(new URL(r.body.data.href).origin, hub.url);
      const first = await fetch(r.body.data.href).then((x) => x.json() as Promise<any>);
      assert.ok(['queued', 'running', 'succeeded'].includes(first.data.status));
      assert.equal(first.data.type, 'merge');
      assert.equal(first.data.cancelable, false);
      const op = await waitForOperation(hub, r.body.data.id);
      assert.equal(op.status, 'succeeded', JSON.stringify(op));
      assert.equal(op.result.pull_id, 1);
      assert.equal((await hub.fetch(`${P}/pulls/1`)).body.data.state, 'merged');
      const rows = await sql('alice/prices', 'main', 'SELECT count(*) FROM prices_2025');
      assert.deepEqual(rows.rows, [['5']]);
      assert.equal(op.result.commit_sha, await head('alice/prices', 'main'));
      // merged pulls cannot be merged or reopened
      assert.equal((await hub.fetch(`${P}/pulls/1/merge`, { user: 'alice', json: {} })).status, 409);
      assert.equal((await hub.fetch(`${P}/pulls/1`, { method: 'PATCH', user: 'alice', json: { state: 'open' } })).status, 409);
    });

    it('rejects unknown fields in the merge body and merges only with write access', async () => {
      const extra = await hub.fetch(`${P}/pulls/6/merge`, { user: 'alice', json: { squash: true } });
      assert.equal(extra.status, 400);
      assert.match(extra.body.detail, /squash/);
      assert.equal((await hub.fetch(`${P}/pulls/6/merge`, { user: 'bob', json: {} })).status, 403);
      assert.equal((await hub.fetch(`${P}/pulls/6/merge`, { json: {} })).status, 401);
    });

    it('fails a conflicting merge with an OperationError naming the tables, leaving the target untouched', async () => {
      // Two branches change the same cell differently; merging one, then the other, conflicts.
      await hub.fetch(`${P}/branches`, { user: 'alice', json: { name: 'conflict-a', from: { branch: 'main' } } });
      await hub.fetch(`${P}/branches`, { user: 'alice', json: { name: 'conflict-b', from: { branch: 'main' } } });
      // Commits are not exposed over HTTP, so both sides change the row through an import.
      await importCsv(
        hub,
        'alice/prices',
        'conflict-a',
        'products',
        'update',
        'id,name,category,price,updated_at\n1,Apple A,fruit,0.51,\n',
      );
      await importCsv(
        hub,
        'alice/prices',
        'conflict-b',
        'products',
        'update',
        'id,name,category,price,updated_at\n1,Apple B,fruit,0.52,\n',
      );
      const mk = async (branch: string): Promise<number> =>
        (
          await hub.fetch(`${P}/pulls`, {
            user: 'alice',
            json: {
              title: branch,
              from_branch: { database: { owner: 'alice', name: 'prices' }, branch_name: branch },
              to_branch: { database: { owner: 'alice', name: 'prices' }, branch_name: 'main' },
            },
          })
        ).body.data.pull_number;
      const a = await mk('conflict-a');
      const b = await mk('conflict-b');
      const opA = await waitForOperation(hub, (await hub.fetch(`${P}/pulls/${a}/merge`, { user: 'alice', json: {} })).body.data.id);
      assert.equal(opA.status, 'succeeded');
      const before = await head('alice/prices', 'main');
      const opB = await waitForOperation(hub, (await hub.fetch(`${P}/pulls/${b}/merge`, { user: 'alice', json: {} })).body.data.id);
      assert.equal(opB.status, 'failed');
      assert.equal(opB.error.code, 'CONFLICT');
      assert.match(opB.error.detail, /products/);
      assert.equal(opB.result, undefined);
      assert.equal(await head('alice/prices', 'main'), before);
      assert.deepEqual((await sql('alice/prices', 'main', 'SELECT name FROM products WHERE id = 1')).rows, [['Apple A']]);
      assert.equal((await hub.fetch(`${P}/pulls/${b}`)).body.data.state, 'open');
    });
  });

  describe('forks', () => {
    it('forks with a 202 operation into the caller namespace, with full history, parent and network root', async () => {
      const r = await hub.fetch('/databases/alice/prices/forks', { user: 'carol', json: { owner: 'carol' } });
      assert.equal(r.status, 202);
      const op = await waitForOperation(hub, r.body.data.id, 'carol');
      assert.equal(op.type, 'fork');
      assert.equal(op.status, 'succeeded');
      assert.deepEqual(op.result, { database: { owner: 'carol', name: 'prices' } });
      const fork = (await hub.fetch('/databases/carol/prices')).body.data;
      assert.deepEqual(fork.parent, { owner: 'alice', name: 'prices' });
      assert.deepEqual(fork.network_root, { owner: 'alice', name: 'prices' });
      assert.equal(await head('carol/prices', 'main'), await head('alice/prices', 'main'));
      const logA = await sql('alice/prices', 'main', 'SELECT count(*) FROM dolt_log');
      const logC = await sql('carol/prices', 'main', 'SELECT count(*) FROM dolt_log');
      assert.deepEqual(logC.rows, logA.rows);
      assert.ok(Number(logC.rows[0][0]) >= 5, 'history came along');
      const tagsC = (await hub.fetch('/databases/carol/prices/tags')).body.data.map((t: any) => t.name);
      assert.ok(tagsC.includes('v1'));
    });

    it('refuses a second fork into the same owner (422) and a namespace the caller does not own (403)', async () => {
      assert.equal((await hub.fetch('/databases/alice/prices/forks', { user: 'carol', json: { owner: 'carol' } })).status, 422);
      assert.equal((await hub.fetch('/databases/alice/prices/forks', { user: 'carol', json: { owner: 'bob' } })).status, 403);
      assert.equal((await hub.fetch('/databases/alice/prices/forks', { user: 'carol', json: { owner: 'acme' } })).status, 403);
      assert.equal((await hub.fetch('/databases/alice/prices/forks', { json: { owner: 'carol' } })).status, 401);
      assert.equal((await hub.fetch('/databases/alice/notes/forks', { user: 'bob', json: { owner: 'bob' } })).status, 404);
    });

    it('counts the fork network transitively while /forks lists immediate children', async () => {
      const r = await hub.fetch('/databases/carol/prices/forks', { user: 'bob', json: { owner: 'bob' } });
      const op = await waitForOperation(hub, r.body.data.id, 'bob');
      assert.equal(op.status, 'succeeded');
      const bob = (await hub.fetch('/databases/bob/prices')).body.data;
      assert.deepEqual(bob.parent, { owner: 'carol', name: 'prices' });
      assert.deepEqual(bob.network_root, { owner: 'alice', name: 'prices' });
      const root = (await hub.fetch('/databases/alice/prices')).body.data;
      assert.equal(root.fork_network_count, 2);
      assert.equal(bob.fork_network_count, 2);
      assert.deepEqual((await hub.fetch('/databases/alice/prices/forks')).body.data, [{ owner: 'carol', name: 'prices' }]);
      assert.deepEqual((await hub.fetch('/databases/carol/prices/forks')).body.data, [{ owner: 'bob', name: 'prices' }]);
    });

    it('merges a cross-fork pull from a fork in the same network', async () => {
      const before = (await sql('alice/inventory', 'main', "SELECT description FROM stock WHERE sku = 'B-300'")).rows;
      assert.deepEqual(before, [['Sprokets']]);
      const pulls = (await hub.fetch('/databases/alice/inventory/pulls')).body.data;
      const pr = pulls.find((p: any) => p.title === 'Fix a typo in B-300');
      const full = (await hub.fetch(`/databases/alice/inventory/pulls/${pr.pull_number}`)).body.data;
      assert.deepEqual(full.from_branch.database, { owner: 'bob', name: 'inventory' });
      const op = await waitForOperation(
        hub,
        (await hub.fetch(`/databases/alice/inventory/pulls/${pr.pull_number}/merge`, { user: 'alice', json: {} })).body.data.id,
      );
      assert.equal(op.status, 'succeeded', JSON.stringify(op));
      assert.deepEqual((await sql('alice/inventory', 'main', "SELECT description FROM stock WHERE sku = 'B-300'")).rows, [['Sprockets']]);
      // No leftover remote in the target.
      assert.deepEqual((await sql('alice/inventory', 'main', 'SELECT count(*) FROM dolt_remotes')).rows, [['0']]);
      // A database outside the network cannot be the source.
      const outside = await hub.fetch('/databases/alice/inventory/pulls', {
        user: 'alice',
        json: {
          title: 'x',
          from_branch: { database: { owner: 'alice', name: 'prices' }, branch_name: 'main' },
          to_branch: { database: { owner: 'alice', name: 'inventory' }, branch_name: 'main' },
        },
      });
      assert.equal(outside.status, 400);
    });
  });

  describe('operations', () => {
    it('lists operations per database and polls by id with raw slashes or one %2F segment', async () => {
      const list = await hub.fetch(`${P}/operations`);
      assert.equal(list.status, 200);
      assert.ok(list.body.data.length >= 3);
      const op = list.body.data[0];
      assert.deepEqual(Object.keys(op).sort().slice(0, 5), ['cancelable', 'created_at', 'id', 'result', 'status'].sort().slice(0, 5));
      const raw = await hub.fetch(`/operations/${op.id}`);
      const enc = await hub.fetch(`/operations/${encodeURIComponent(op.id)}`);
      assert.equal(raw.status, 200);
      assert.deepEqual(raw.body.data, enc.body.data);
      assert.equal((await hub.fetch('/operations/owners/alice/repos/prices/jobs/99999')).status, 404);
      // operations on a private database are hidden from outsiders
      const priv = await hub.fetch('/databases/alice/notes/operations');
      assert.equal(priv.status, 404);
    });
  });
});
