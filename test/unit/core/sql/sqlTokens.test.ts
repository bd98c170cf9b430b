import assert from 'node:assert/strict';
import {
  applyEdits,
  closingParen,
  identifierValue,
  isKeyword,
  quoteSqlIdentifier,
  quoteSqlString,
  significant,
  splitArguments,
  stringValue,
  tokenize,
} from '../../../../src/core/sql/sqlTokens';

const kinds = (sql: string): string[] => significant(tokenize(sql)).map((t) => `${t.kind}:${t.text}`);

describe('sqlTokens', () => {
  it('is lossless: the tokens joined give the input back', () => {
    for (const sql of [
      "SELECT * FROM DOLT_DIFF('main', 'feat', 't') -- trailing\nWHERE x = 'it''s' /* c */ AND y <> 2",
      'select `a``b`, "c""d", 1.5e3, .5, 0x1F from t#x',
      "unterminated 'string",
      'unterminated /* comment',
      '',
    ]) {
      assert.equal(
        tokenize(sql)
          .map((t) => t.text)
          .join(''),
        sql,
      );
    }
  });

  it('never sees words inside strings, quoted identifiers or comments', () => {
    assert.deepEqual(kinds("SELECT 'AS OF x' AS `as of`, \"DOLT_DIFF(\" -- AS OF 'main'\n/* HASHOF('x') */ # dolt_diff(\nFROM t"), [
      'word:SELECT',
      "string:'AS OF x'",
      'word:AS',
      'bquoted:`as of`',
      'punct:,',
      'dquoted:"DOLT_DIFF("',
      'word:FROM',
      'word:t',
    ]);
  });

  it('keeps backslash escapes and doubled quotes inside one string token', () => {
    const toks = significant(tokenize("SELECT 'a\\'b', 'c''d', 'e\\\\' , x"));
    assert.deepEqual(
      toks.map((t) => t.kind),
      ['word', 'string', 'punct', 'string', 'punct', 'string', 'punct', 'word'],
    );
    assert.equal(stringValue(toks[1]!), "a'b");
    assert.equal(stringValue(toks[3]!), "c'd");
    assert.equal(stringValue(toks[5]!), 'e\\');
  });

  it('reads a backslash as SQLite does when asked: an ordinary character that does not escape the quote', () => {
    const sql = "SELECT 'a\\'; DELETE FROM t; -- '";
    const mysql = significant(tokenize(sql)).map((t) => t.text);
    const sqlite = significant(tokenize(sql, { noBackslashEscapes: true })).map((t) => t.text);
    assert.deepEqual(mysql, ['SELECT', "'a\\'; DELETE FROM t; -- '"]);
    assert.deepEqual(sqlite, ['SELECT', "'a\\'", ';', 'DELETE', 'FROM', 't', ';']);
  });

  it('reads multi-character operators and numbers as one token', () => {
    assert.deepEqual(kinds('a<=b AND c != d OR e<>f || g.h = 1.25 AND .5 < 3e-2'), [
      'word:a',
      'punct:<=',
      'word:b',
      'word:AND',
      'word:c',
      'punct:!=',
      'word:d',
      'word:OR',
      'word:e',
      'punct:<>',
      'word:f',
      'punct:||',
      'word:g',
      'punct:.',
      'word:h',
      'punct:=',
      'number:1.25',
      'word:AND',
      'number:.5',
      'punct:<',
      'number:3e-2',
    ]);
  });

  it('marks unterminated quotes', () => {
    const [t] = significant(tokenize("'abc"));
    assert.equal(t!.unterminated, true);
    assert.equal(stringValue(t!), 'abc');
  });

  it('gives identifier values for words, backticks and double quotes', () => {
    const toks = significant(tokenize('plain `we``ird` "dq""x"'));
    assert.deepEqual(toks.map(identifierValue), ['plain', 'we`ird', 'dq"x']);
    assert.throws(() => identifierValue(significant(tokenize("'s'"))[0]!));
  });

  it('quotes strings per dialect and identifiers the SQLite way', () => {
    assert.equal(quoteSqlString("it's", 'sqlite'), "'it''s'");
    assert.equal(quoteSqlString('a\\b', 'sqlite'), "'a\\b'");
    assert.equal(quoteSqlString('a\\b', 'mysql'), "'a\\\\b'");
    // What the tokenizer (MySQL rules) reads back from the MySQL form is the value.
    assert.equal(stringValue(significant(tokenize(quoteSqlString("x\\'y", 'mysql')))[0]!), "x\\'y");
    assert.equal(quoteSqlIdentifier('we"ird'), '"we""ird"');
  });

  it('finds the closing parenthesis and splits arguments at top-level commas only', () => {
    const toks = significant(tokenize("f('a', g(1, 2), 'b,c') + 1"));
    const close = closingParen(toks, 1);
    assert.equal(toks[close]!.text, ')');
    assert.equal(toks[close + 1]!.text, '+');
    const args = splitArguments(toks, 1, close).map((a) => a.map((t) => t.text).join(''));
    assert.deepEqual(args, ["'a'", 'g(1,2)', "'b,c'"]);
    assert.deepEqual(splitArguments(significant(tokenize('f()')), 1, 2), []);
    assert.equal(closingParen(significant(tokenize('f((1)')), 1), -1);
  });

  it('matches keywords case-insensitively, words only', () => {
    const [a, b] = significant(tokenize('As "as"'));
    assert.equal(isKeyword(a, 'AS'), true);
    assert.equal(isKeyword(b, 'as'), false);
    assert.equal(isKeyword(undefined, 'as'), false);
  });

  it('applies edits in any order and refuses overlaps', () => {
    assert.equal(
      applyEdits('0123456789', [
        { start: 7, end: 9, text: 'X' },
        { start: 1, end: 3, text: 'YY' },
      ]),
      '0YY3456X9',
    );
    // Insertions next to a replacement keep their place whatever the order given.
    assert.equal(
      applyEdits('f(x)', [
        { start: 2, end: 3, text: 'y' },
        { start: 2, end: 2, text: 'g(' },
        { start: 3, end: 3, text: ')' },
      ]),
      'f(g(y))',
    );
    assert.equal(
      applyEdits('f(x)', [
        { start: 3, end: 3, text: ')' },
        { start: 2, end: 2, text: 'g(' },
        { start: 2, end: 3, text: 'y' },
      ]),
      'f(g(y))',
    );
    assert.throws(
      () =>
        applyEdits('0123', [
          { start: 0, end: 2, text: '' },
          { start: 1, end: 3, text: '' },
        ]),
      /overlapping/,
    );
  });
});
