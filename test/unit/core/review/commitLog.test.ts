// Commit parsing from results shaped like Dolt's documented DOLT_LOG output (with --parents:
// parents joined by ", ") and the commit-level scalar queries.
import { strict as assert } from 'node:assert';
import {
  firstLine,
  firstReachable,
  parseCommitPage,
  parseHashOf,
  parseMergeBase,
  parseParentList,
  parseParents,
  parsePinnedPair,
  parseReachable,
} from '../../../../src/core/review/commitLog';
import { ReviewResultError } from '../../../../src/core/review/resultReader';
import { result } from './reviewTestKit';

const D = 'qi331vjgoavqpi5am334cji1gmhlkdv5';
const C = '137qgvrsve1u458briekqar5f7iiqq2j';
const B = 'rqpd7ga1nic3jmc54h44qa05i8124vsp';
const A = 'qfk3bpan8mtrl05n8nihh2e3t68t3hrk';
const F = 'v531ptpmv2tquig8v591tsjghtj84ksg';

const LOG_COLUMNS = ['commit_hash', 'committer', 'email', 'date', 'message', 'parents'];

describe('commits from DOLT_LOG', () => {
  // A merge D of C and F, then C, B and the first commit A (DOLT_LOG order, newest first).
  const log = result(LOG_COLUMNS, [
    [D, 'bheni', 'brian@dolthub.com', '2019-06-07 00:22:24.856', 'Merge branch feature\n\nResolved by hand', `${C}, ${F}`],
    [C, 'bheni', 'brian@dolthub.com', '2019-04-04 22:43:00.197', 'change rating', B],
    [B, 'bheni', 'brian@dolthub.com', '2019-04-04 21:07:36', '  fixes  \r\nmore', A],
    [A, 'Zoë Ünïcødé', 'z@example.com', '2019-04-04 21:01:16.649', 'Initialize data repository', ''],
  ]);

  it('reads hash, short hash, subject, author, time, parents and marks merges', () => {
    const page = parseCommitPage(log, 10);
    assert.equal(page.hasMore, false);
    assert.deepEqual(page.completeness, { complete: true });
    assert.deepEqual(page.items[0], {
      hash: D,
      shortHash: 'qi331vjg',
      subject: 'Merge branch feature',
      message: 'Merge branch feature\n\nResolved by hand',
      author: 'bheni',
      email: 'brian@dolthub.com',
      date: '2019-06-07 00:22:24.856',
      time: Date.UTC(2019, 5, 7, 0, 22, 24, 856),
      parents: [C, F],
      isMerge: true,
    });
    assert.equal(page.items[1]?.isMerge, false);
    assert.deepEqual(page.items[1]?.parents, [B]);
    assert.equal(page.items[2]?.subject, 'fixes');
    assert.deepEqual(page.items[3]?.parents, []);
    assert.equal(page.items[3]?.author, 'Zoë Ünïcødé');
  });

  it('a page asked for one extra row knows more follow and drops the extra', () => {
    const page = parseCommitPage(log, 3);
    assert.deepEqual(
      page.items.map((c) => c.hash),
      [D, C, B],
    );
    assert.equal(page.hasMore, true);
    const exact = parseCommitPage(log, 4);
    assert.equal(exact.items.length, 4);
    assert.equal(exact.hasMore, false);
  });

  it('finds columns by name whatever their order, and ignores extra ones (newer Dolt adds commit_order)', () => {
    const cols = ['message', 'commit_order', 'parents', 'date', 'email', 'committer', 'commit_hash'];
    const page = parseCommitPage(result(cols, [['first', '1', '', '2026-01-05 12:00:00', 'a@x', 'alice', A]]), 5);
    assert.equal(page.items[0]?.hash, A);
    assert.equal(page.items[0]?.author, 'alice');
    assert.equal(page.items[0]?.time, Date.UTC(2026, 0, 5, 12));
  });

  it('a log without parents (DOLT_LOG without --parents) is refused, not read as "no merges"', () => {
    assert.throws(
      () => parseCommitPage(result(LOG_COLUMNS.slice(0, 5), []), 5),
      (e: unknown) => e instanceof ReviewResultError && /parents/.test(e.message),
    );
  });

  it('a partial answer says so; an error is an error', () => {
    const partial = parseCommitPage(result(LOG_COLUMNS, log.rows.slice(0, 2), 'timeout', 'query timed out'), 10);
    assert.deepEqual(partial.completeness, { complete: false, reason: 'timeout', message: 'query timed out' });
    assert.equal(partial.items.length, 2);
    assert.throws(
      () => parseCommitPage(result(LOG_COLUMNS, [], 'error', 'branch not found: nope'), 10),
      (e: unknown) => e instanceof ReviewResultError && e.status === 'error' && /branch not found/.test(e.message),
    );
  });

  it('parent lists and first lines', () => {
    assert.deepEqual(parseParentList(`${C}, ${F}`), [C, F]);
    assert.deepEqual(parseParentList(`${C},${F}`), [C, F]);
    assert.deepEqual(parseParentList(null), []);
    assert.equal(firstLine('one\ntwo'), 'one');
    assert.equal(firstLine(''), '');
  });
});

describe('commit-level queries', () => {
  it('parents in parent_index order, none for the first commit', () => {
    assert.deepEqual(
      parseParents(
        result(
          ['parent_hash', 'parent_index'],
          [
            [F, '1'],
            [C, '0'],
          ],
        ),
      ),
      [C, F],
    );
    assert.deepEqual(parseParents(result(['parent_hash', 'parent_index'], [[null, '0']])), []);
    assert.deepEqual(parseParents(result(['parent_hash', 'parent_index'], [])), []);
  });

  it('HASHOF, merge base and the pinned pair are checked to be hashes', () => {
    assert.equal(parseHashOf(result(['commit_hash'], [[D]])), D);
    assert.equal(parseMergeBase(result(['merge_base'], [[B]])), B);
    assert.deepEqual(parsePinnedPair(result(['from_commit', 'to_commit'], [[B, D]])), { kind: 'twoDot', from: B, to: D });
    assert.throws(() => parseHashOf(result(['commit_hash'], [[null]])), ReviewResultError);
    assert.throws(() => parseMergeBase(result(['merge_base'], [])), /no row/);
    assert.throws(() => parseHashOf(result(['commit_hash'], [['main']])), /not a commit hash/);
  });

  it('a cross-fork merge base is the newest of the fork log the target reaches', () => {
    const reachable = parseReachable(result(['commit_hash'], [[A], [B]]));
    assert.equal(firstReachable([F, C, B, A], reachable), B);
    assert.equal(firstReachable([F], reachable), undefined);
  });
});
