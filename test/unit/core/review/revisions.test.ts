import { strict as assert } from 'node:assert';
import {
  RevisionError,
  checkPair,
  isReviewInputError,
  parsePlainRevision,
  parseRevision,
  refNameProblem,
  sendAtFor,
  threeDot,
  twoDot,
} from '../../../../src/core/review/revisions';
import { SqlInputError } from '../../../../src/core/sql/quote';

const HASH = 'qi331vjgoavqpi5am334cji1gmhlkdv5';

describe('review revisions (Dolt ref rules, checked before SQL is built)', () => {
  it('accepts branch and tag names Dolt accepts, including slashes, dots, quotes and unicode', () => {
    for (const name of ['main', 'feature/x', 'v1.2.3', 'release-2026', "o'brien", 'ünï', 'a_b', 'x@y', 'a--b', 'HEADS', 'v1']) {
      assert.equal(refNameProblem(name), undefined, name);
      const r = parseRevision(name);
      assert.deepEqual(r, { text: name, base: name, baseKind: 'name', ancestry: '' });
    }
  });

  it('refuses names Dolt refuses, with the reason', () => {
    const bad: [string, RegExp][] = [
      ['', /empty/],
      ['-x', /start with `-`/],
      ['a b', /spaces/],
      ['a\tb', /spaces/],
      ['a:b', /~ \^ :/],
      ['a?b', /~ \^ :/],
      ['a*b', /~ \^ :/],
      ['a[b', /~ \^ :/],
      ['a\\b', /~ \^ :/],
      ['a\u0001b', /control/],
      ['a\u007fb', /control/],
      ['a..b', /`\.\.`/],
      ['a@{b', /`@\{`/],
      ['/a', /empty part/],
      ['a/', /empty part/],
      ['a//b', /empty part/],
      ['.a', /start with `\.`/],
      ['a/.b', /start with `\.`/],
      ['a.lock', /`\.lock`/],
      ['a.lock/b', /`\.lock`/],
      [HASH, /commit hash/],
    ];
    for (const [name, why] of bad) {
      assert.match(refNameProblem(name) ?? '', why, JSON.stringify(name));
      // A hash is a fine revision, just not a name.
      if (name !== HASH && name !== '') assert.throws(() => parseRevision(name), RevisionError, JSON.stringify(name));
    }
    assert.throws(() => parseRevision(''), RevisionError);
  });

  it('reads commit hashes and ancestry steps', () => {
    assert.deepEqual(parseRevision(HASH), { text: HASH, base: HASH, baseKind: 'commit', ancestry: '' });
    assert.deepEqual(parseRevision('main~2^2'), { text: 'main~2^2', base: 'main', baseKind: 'name', ancestry: '~2^2' });
    assert.deepEqual(parseRevision(`${HASH}^`), { text: `${HASH}^`, base: HASH, baseKind: 'commit', ancestry: '^' });
    assert.deepEqual(parseRevision('v1~'), { text: 'v1~', base: 'v1', baseKind: 'name', ancestry: '~' });
  });

  it('refuses HEAD, Git-style hex hashes, and junk after ~ or ^', () => {
    assert.throws(() => parseRevision('HEAD'), /HEAD depends on the ref/);
    assert.throws(() => parseRevision('HEAD~1'), RevisionError);
    assert.throws(() => parseRevision('0123456789abcdef0123456789abcdef01234567'), /40-character hex/);
    assert.throws(() => parseRevision('main~x'), /only a count/);
    assert.throws(() => parseRevision('main^-1'), /only a count/);
    assert.throws(() => parseRevision('main~1234567'), /only a count/);
    assert.throws(() => parseRevision('~1'), RevisionError);
  });

  it('plain revisions (an API ref or AS OF) take no ancestry', () => {
    assert.equal(parsePlainRevision('main').text, 'main');
    assert.equal(parsePlainRevision(HASH).baseKind, 'commit');
    assert.throws(() => parsePlainRevision('main~1'), /without ~ or \^/);
  });

  it('pairs are checked whole; the query goes to the new side without ancestry', () => {
    assert.deepEqual(checkPair(twoDot('main~1', 'main')), { kind: 'twoDot', from: 'main~1', to: 'main' });
    assert.throws(() => checkPair(twoDot('main', 'a..b')), RevisionError);
    assert.throws(() => checkPair(threeDot('main', '')), RevisionError);
    assert.equal(sendAtFor(twoDot('v1', 'v2~1')), 'v2');
    assert.equal(sendAtFor(threeDot('main', 'feature/x')), 'feature/x');
  });

  it('one predicate tells bad input from other failures', () => {
    assert.ok(isReviewInputError(new RevisionError('x')));
    assert.ok(isReviewInputError(new SqlInputError('x')));
    assert.ok(!isReviewInputError(new Error('x')));
  });
});
