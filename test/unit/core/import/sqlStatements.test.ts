import { strict as assert } from 'node:assert';
import { SqlStatementSplitter, SqlSyntaxError, type SqlStatement } from '../../../../src/core/import/readers/sqlStatements';
import { parseStatement } from '../../../../src/core/import/readers/sqlStatementParser';

// The import's statement splitter reads a file in chunks; where a chunk ends must never change
// what it reads. The expected statements are written out by hand for the whole text.
const DUMP = [
  '-- a dump; with a semicolon in a comment',
  'CREATE TABLE `t;1` (`id` int, `v` varchar(9), PRIMARY KEY (`id`)); # trailing; comment',
  "INSERT INTO `t;1` VALUES (1,'a;b'),(2,'it''s'),(3,'x\\';y'),(4,\"d;q\"),(5,1e+5),(6,5--3);",
  '/* block ; */INSERT INTO `t;1` VALUES (7,NULL)/* x */;',
  '',
  '  ;  ;',
  "INSERT INTO `t;1` VALUES (8,'multi",
  "line;value');",
].join('\n');

function split(chunks: string[]): SqlStatement[] {
  const s = new SqlStatementSplitter();
  const out: SqlStatement[] = [];
  for (const c of chunks) out.push(...s.push(c));
  out.push(...s.end());
  return out;
}

function normalize(statements: SqlStatement[]): { text: string; line: number }[] {
  return statements.map((s) => ({ text: s.text.replace(/\s+/g, ' ').trim(), line: s.line }));
}

const EXPECTED = [
  { text: 'CREATE TABLE `t;1` (`id` int, `v` varchar(9), PRIMARY KEY (`id`))', line: 2 },
  { text: "INSERT INTO `t;1` VALUES (1,'a;b'),(2,'it''s'),(3,'x\\';y'),(4,\"d;q\"),(5,1e+5),(6,5--3)", line: 3 },
  { text: 'INSERT INTO `t;1` VALUES (7,NULL)', line: 4 },
  { text: "INSERT INTO `t;1` VALUES (8,'multi\nline;value')".replace(/\s+/g, ' '), line: 7 },
];

describe('SqlStatementSplitter', () => {
  it('splits at top-level semicolons only, drops comments, and gives each statement its first line', () => {
    assert.deepEqual(normalize(split([DUMP])), EXPECTED);
  });

  it('reads the same statements wherever the chunks end (every split point, and one character at a time)', () => {
    for (let cut = 0; cut <= DUMP.length; cut++) {
      assert.deepEqual(
        normalize(split([DUMP.slice(0, cut), DUMP.slice(cut)])),
        EXPECTED,
        `cut at ${cut}: ${JSON.stringify(DUMP.slice(cut - 3, cut + 3))}`,
      );
    }
    assert.deepEqual(normalize(split([...DUMP])), EXPECTED);
  });

  it("parses the values MySQL's way: quotes, doubled quotes, escapes (\\% kept), exponents, signs", () => {
    const [stmt] = split([
      "INSERT INTO t VALUES (1,'a;b'),(2,'it''s'),(3,'x\\';y'),(4,\"d;q\"),(5,1e+5),(6,-3),(7,'50\\%'),(8,_utf8mb4'u');",
    ]);
    const insert = parseStatement(stmt!);
    assert.deepEqual(insert.kind === 'insert' ? insert.tuples : insert, [
      ['1', 'a;b'],
      ['2', "it's"],
      ['3', "x';y"],
      ['4', 'd;q'],
      ['5', '1e+5'],
      ['6', '-3'],
      ['7', '50\\%'],
      ['8', 'u'],
    ]);
  });

  it('a hex literal or a name starting with digits is not a value', () => {
    for (const bad of ['0x1F', '123abc']) {
      const [stmt] = split([`INSERT INTO t VALUES (1,${bad});`]);
      assert.throws(() => parseStatement(stmt!), /is not a literal/, bad);
    }
  });

  it('a quote never closed is an error naming the line of its statement, also when it spans many chunks', () => {
    const text = "INSERT INTO t VALUES (1,'ok');\nINSERT INTO t VALUES ('never closed);\n" + 'x'.repeat(300_000);
    for (const size of [7, 65536, text.length]) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      assert.throws(
        () => split(chunks),
        (e: unknown) => e instanceof SqlSyntaxError && e.line === 2 && /never closed/.test(e.message),
      );
    }
  });

  it('a block comment never closed is an error', () => {
    assert.throws(
      () => split(['SELECT 1;\n/* open', '\n and on']),
      (e: unknown) => e instanceof SqlSyntaxError && /comment is never closed/.test(e.message),
    );
  });
});
