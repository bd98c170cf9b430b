import { strict as assert } from 'node:assert';
import type { Branch, QueryResult, Tag } from '../../../src/shared/wire';
import type { Page, PageOptions, RunSqlOptions, DbRef } from '../../../src/api/index';
import { RefResolver, normalizeResult, runQuery, type RefLister } from '../../../src/notebook/queryRunner';
import { portOver } from '../../helpers/sqlPorts';

class FakeClient implements RefLister {
  branchPages: Branch[][] = [
    [aBranch({ name: 'main', head_commit_sha: 'm'.repeat(32) })],
    [aBranch({ name: 'dev', head_commit_sha: 'd'.repeat(32) })],
  ];
  tags: Tag[] = [aTag({ name: 'v1', commit_sha: 't'.repeat(32) })];
  calls: string[] = [];
  sql: { db: DbRef; q: RunSqlOptions; signal?: AbortSignal }[] = [];
  answer: QueryResult = { status: 'success', columns: [{ name: 'a', type: 'int' }], rows: [['1']] };

  async runSql(db: DbRef, q: RunSqlOptions, opts?: { signal?: AbortSignal }): Promise<QueryResult> {
    this.sql.push({ db, q, ...(opts?.signal ? { signal: opts.signal } : {}) });
    return this.answer;
  }
  async listBranches(_db: DbRef, page?: PageOptions): Promise<Page<Branch>> {
    const i = page?.pageToken ? Number(page.pageToken) : 0;
    this.calls.push(`branches:${i}`);
    const items = this.branchPages[i] ?? [];
    return i + 1 < this.branchPages.length ? { items, nextPageToken: String(i + 1) } : { items };
  }
  async listTags(): Promise<Page<Tag>> {
    this.calls.push('tags');
    return { items: this.tags };
  }
}

const target = { hostId: 'h', owner: 'alice', name: 'shop', ref: 'main' };

describe('query runner', () => {
  it('resolves a branch to its head, stopping at the page that has it', async () => {
    const c = new FakeClient();
    const r = new RefResolver(() => c);
    assert.deepEqual(await r.resolve(target), { kind: 'branch', commit: 'm'.repeat(32) });
    assert.deepEqual(c.calls, ['branches:0']);
    assert.deepEqual(await r.resolve({ ...target, ref: 'dev' }), { kind: 'branch', commit: 'd'.repeat(32) });
  });

  it('resolves tags after branches, commits without asking, and unknown refs as unknown', async () => {
    const c = new FakeClient();
    const r = new RefResolver(() => c);
    assert.deepEqual(await r.resolve({ ...target, ref: 'v1' }), { kind: 'tag', commit: 't'.repeat(32) });
    const commit = '0123456789abcdefghijklmnopqrstuv';
    c.calls = [];
    assert.deepEqual(await r.resolve({ ...target, ref: commit }), { kind: 'commit', commit });
    assert.deepEqual(c.calls, []);
    assert.deepEqual(await r.resolve({ ...target, ref: 'gone' }), { kind: 'unknown' });
  });

  it('caches briefly, and `fresh` sees a branch that moved', async () => {
    const c = new FakeClient();
    let now = 0;
    const r = new RefResolver(
      () => c,
      10_000,
      () => now,
    );
    await r.resolve(target);
    c.branchPages[0] = [aBranch({ name: 'main', head_commit_sha: 'n'.repeat(32) })];
    assert.equal((await r.resolve(target)).commit, 'm'.repeat(32));
    assert.equal((await r.resolve(target, { fresh: true })).commit, 'n'.repeat(32));
    c.branchPages[0] = [aBranch({ name: 'main', head_commit_sha: 'o'.repeat(32) })];
    now = 20_000;
    assert.equal((await r.resolve(target)).commit, 'o'.repeat(32));
  });

  it('runs with the configured limit and timeout at the target ref, passing the abort signal', async () => {
    const c = new FakeClient();
    const abort = new AbortController();
    let t = 1000;
    const out = await runQuery(portOver(c, { rowLimit: 50, timeoutMs: 2000 }), target, 'SELECT 1', {
      signal: abort.signal,
      commit: 'm'.repeat(32),
      now: () => (t += 25),
    });
    assert.deepEqual(c.sql[0]!.q, { ref: 'main', q: 'SELECT 1', limit: 50, timeoutMs: 2000 });
    assert.deepEqual(c.sql[0]!.db, { owner: 'alice', name: 'shop' });
    assert.equal(c.sql[0]!.signal, abort.signal);
    assert.equal(out.commit, 'm'.repeat(32));
    assert.equal(out.elapsedMs, 25);
    assert.equal(out.limit, 50);
    assert.equal(out.v, 1);
    assert.deepEqual(out.result.rows, [['1']]);
  });

  it('normalizes malformed results so the grid never breaks', () => {
    const r = normalizeResult({
      status: 'success',
      columns: [
        { name: 'a', type: 'int' },
        { name: 'b', type: 'text' },
      ],
      rows: [[1 as unknown as string], ['x', 'y', 'z']],
    });
    assert.deepEqual(r.rows, [
      ['1', null],
      ['x', 'y'],
    ]);
    const bad = normalizeResult({ status: 'row_limit' } as unknown as QueryResult);
    assert.deepEqual(bad.rows, []);
    assert.deepEqual(bad.columns, []);
    assert.match(bad.message ?? '', /row_limit/);
    const good: QueryResult = { status: 'success', columns: [{ name: 'a', type: 'int' }], rows: [['1']] };
    assert.equal(normalizeResult(good).rows[0], good.rows[0]);
  });
});

import { parseGridMessage, safeFileName } from '../../../src/core/sql/gridMessages';
import { statusBanner } from '../../../src/shared/queryResultOutput';
import { aBranch, aTag } from '../../builders/wire';

describe('grid messages and banners', () => {
  it('accepts well-formed copy/export messages only', () => {
    assert.deepEqual(parseGridMessage({ type: 'copy', text: 'a\tb', format: 'tsv', rows: 1 }), {
      type: 'copy',
      text: 'a\tb',
      format: 'tsv',
      rows: 1,
    });
    assert.equal(parseGridMessage({ type: 'export', format: 'exe', content: 'x', suggestedName: 'a' }), undefined);
    assert.equal(parseGridMessage({ type: 'export', format: 'csv', content: 3, suggestedName: 'a' }), undefined);
    assert.equal(parseGridMessage('copy'), undefined);
    assert.equal(parseGridMessage({ type: 'delete' }), undefined);
    assert.deepEqual(parseGridMessage({ type: 'focused', extra: 'x' }), { type: 'focused' });
  });

  it('export file names cannot leave the chosen folder', () => {
    assert.equal(safeFileName('../../etc/passwd', 'csv'), 'passwd.csv');
    assert.equal(safeFileName('shop-main.csv', 'csv'), 'shop-main.csv');
    assert.equal(safeFileName('a b/c?d', 'markdown'), 'c_d.md');
    assert.equal(safeFileName('..', 'json'), 'result.json');
  });

  it('banners carry the server message and what to do, per status', () => {
    assert.equal(statusBanner({ status: 'success', rows: [] }), undefined);
    const rl = statusBanner({ status: 'row_limit', rows: [[], []], message: 'limit hit' }, 2);
    assert.equal(rl?.severity, 'warning');
    assert.equal(rl?.title, 'Showing the first 2 rows only');
    assert.equal(rl?.message, 'limit hit');
    assert.match(rl?.advice ?? '', /versionedDb\.sql\.rowLimit/);
    assert.match(statusBanner({ status: 'timeout', rows: [], message: 'm' })?.advice ?? '', /timeoutMs/);
    assert.equal(statusBanner({ status: 'error', rows: [], message: 'syntax' })?.severity, 'error');
    assert.match(statusBanner({ status: 'not_workspace', rows: [], message: 'm' })?.advice ?? '', /branch, a tag/);
    assert.match(statusBanner({ status: 'weird', rows: [], message: 'm' })?.title ?? '', /weird/);
  });
});
