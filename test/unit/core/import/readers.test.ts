import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { readFileSync, writeFileSync } from 'node:fs';
import { ImportParseError } from '../../../../src/core/import/importParseError';
import { openTableReader } from '../../../../src/core/import/openTableReader';
import { readRowBatches, type Cell } from '../../../../src/core/import/tableReader';
import { readAll, tempFiles } from './helpers';

const files = tempFiles();
after(() => files.cleanup());

async function rejectsWith(
  p: Promise<unknown>,
  expected: { reason?: string; row?: number; column?: string; line?: number; message?: RegExp },
): Promise<ImportParseError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ImportParseError, `expected ImportParseError, got ${String(err)}`);
    if (expected.reason !== undefined) assert.equal(err.reason, expected.reason, err.message);
    if (expected.row !== undefined) assert.equal(err.row, expected.row, err.message);
    if (expected.column !== undefined) assert.equal(err.column, expected.column, err.message);
    if (expected.line !== undefined) assert.equal(err.line, expected.line, err.message);
    if (expected.message) assert.match(err.message, expected.message);
    return err;
  }
  assert.fail('expected the read to fail');
}

describe('import readers', () => {
  describe('csv', () => {
    it('reads header and rows; empty unquoted field is NULL, "" is an empty string', async () => {
      const p = files.write('a.csv', '\uFEFFid,name,note\r\n1,"Smith, J",\r\n2,"",x\n\n3,"say ""hi""\nthere",y\n');
      const t = await readAll('csv', p);
      assert.deepEqual(t.columns, ['id', 'name', 'note']);
      assert.deepEqual(t.rows, [
        ['1', 'Smith, J', null],
        ['2', '', 'x'],
        ['3', 'say "hi"\nthere', 'y'],
      ]);
    });

    it('tells "" from an empty field next to escaped quotes and delimiters in quotes', async () => {
      const t = await readAll('csv', files.write('quotes.csv', 'a,b,c\n"x""y","",\n",","""",""\n'));
      assert.deepEqual(t.rows, [
        ['x"y', '', null],
        [',', '"', ''],
      ]);
    });

    it('names the row, line and column of a short row', async () => {
      const p = files.write('short.csv', 'id,name,price\n1,a,2\n2,b\n');
      const err = await rejectsWith(readAll('csv', p), { reason: 'bad-row', row: 2, line: 3, column: 'price' });
      assert.match(err.message, /^CSV row 2 \(line 3\), column "price": 2 fields, but the header has 3 columns/);
    });

    it('gives the same rows and errors in batches as one at a time, the rows before an error first', async () => {
      /** Rows and the error's message, read one way or the other. */
      const read = async (path: string, batched: boolean, type: 'csv' | 'json' = 'csv'): Promise<[Cell[][], string?]> => {
        const reader = await openTableReader(type, path);
        const rows: Cell[][] = [];
        try {
          if (batched) for await (const b of readRowBatches(reader)) rows.push(...b);
          else for await (const r of reader.rows()) rows.push(r);
        } catch (e) {
          return [rows, (e as Error).message];
        }
        return [rows, undefined];
      };
      const many = Array.from({ length: 3000 }, (_, i) => `${i},n${i}`).join('\n');
      const cases = [
        files.write('b1.csv', `id,name\n${many}\n`),
        files.write('b2.csv', `id,name\n${many}\n7\n${many}\n`),
        files.write('b3.csv', `id,name\n1,a\n2,"b\n3,c\n`),
        files.write('b4.csv', `id,name\n${many}\n5,x"y\n${many}\n`),
      ];
      for (const p of cases) {
        const one = await read(p, false);
        assert.deepEqual(await read(p, true), one, p);
        assert.ok(one[0].length > 0, p);
      }
      assert.equal((await read(cases[1]!, true))[0].length, 3000);
      const json = files.write('b.json', JSON.stringify(Array.from({ length: 2500 }, (_, i) => ({ id: i }))));
      assert.deepEqual(await read(json, true, 'json'), await read(json, false, 'json'));
    });

    it('reports an unclosed quote as a syntax error with its row', async () => {
      const p = files.write('quote.csv', 'id,name\n1,a\n2,"b\n3,c\n');
      await rejectsWith(readAll('csv', p), { reason: 'bad-syntax', row: 2, message: /never closed/ });
    });

    it('rejects duplicate and empty header names', async () => {
      await rejectsWith(readAll('csv', files.write('dup.csv', 'id,Name,name\n1,a,b\n')), {
        reason: 'bad-header',
        column: 'name',
        message: /names "name" twice \(columns 2 and 3\)/,
      });
      await rejectsWith(readAll('csv', files.write('blank.csv', 'id,,x\n1,a,b\n')), {
        reason: 'bad-header',
        message: /column 2 has no name/,
      });
    });

    it('rejects an empty file', async () => {
      await rejectsWith(openTableReader('csv', files.write('empty.csv', '')), { reason: 'empty' });
      await rejectsWith(openTableReader('csv', files.write('blanklines.csv', '\n\n')), { reason: 'empty' });
    });

    it('streams: stops reading when the caller breaks out', async () => {
      const lines = ['id,v'];
      for (let i = 0; i < 50000; i++) lines.push(`${i},${'x'.repeat(20)}`);
      const reader = await openTableReader('csv', files.write('big.csv', lines.join('\n')));
      let n = 0;
      for await (const _row of reader.rows()) if (++n === 3) break;
      assert.equal(n, 3);
      await reader.close(); // safe after break
    });

    it('stops with the abort reason when cancelled', async () => {
      const ac = new AbortController();
      const lines = ['id'];
      for (let i = 0; i < 200000; i++) lines.push(String(i));
      const reader = await openTableReader('csv', files.write('abort.csv', lines.join('\n')), { signal: ac.signal });
      await assert.rejects(
        (async () => {
          let n = 0;
          for await (const _ of reader.rows()) if (++n === 10) ac.abort();
        })(),
        (err: Error) => err.name === 'AbortError',
      );
    });
  });

  describe('psv', () => {
    it('splits on | and keeps commas', async () => {
      const t = await readAll('psv', files.write('a.psv', 'id|name\n1|Smith, J\n2|\n'));
      assert.deepEqual(t.columns, ['id', 'name']);
      assert.deepEqual(t.rows, [
        ['1', 'Smith, J'],
        ['2', null],
      ]);
    });

    it('names the row of a long row', async () => {
      await rejectsWith(readAll('psv', files.write('long.psv', 'id|name\n1|a|extra\n')), {
        reason: 'bad-row',
        row: 1,
        line: 2,
        message: /3 fields/,
      });
    });
  });

  describe('json', () => {
    it('reads a top-level array, keeping exact number text', async () => {
      const p = files.write(
        'a.json',
        '[{"id": 12345678901234567890, "price": 1.10, "ok": true, "tags": ["a"], "n": null},\n {"id": 2, "name": "b"}]',
      );
      const t = await readAll('json', p);
      assert.deepEqual(t.columns, ['id', 'price', 'ok', 'tags', 'n', 'name']);
      assert.deepEqual(t.rows, [
        ['12345678901234567890', '1.10', 'true', '["a"]', null, null],
        ['2', null, null, null, null, 'b'],
      ]);
    });

    it('reads Dolt\'s {"rows": [...]} shape', async () => {
      const t = await readAll('json', files.write('rows.json', '{"rows": [{"id": 1, "rows": "x"}, {"id": 2}]}'));
      assert.deepEqual(t.columns, ['id', 'rows']);
      assert.deepEqual(t.rows, [
        ['1', 'x'],
        ['2', null],
      ]);
    });

    it('names the row that is not an object', async () => {
      await rejectsWith(readAll('json', files.write('bad.json', '[{"id": 1}, {"id": 2}, 3]')), {
        reason: 'bad-row',
        row: 3,
        message: /this row is a number, not an object/,
      });
    });

    it('points near the row with broken syntax', async () => {
      await rejectsWith(readAll('json', files.write('syntax.json', '[{"id": 1}, {"id": 2,, }]')), { reason: 'bad-syntax', row: 2 });
    });

    it('rejects files that are not a list or an object with rows', async () => {
      await rejectsWith(openTableReader('json', files.write('scalar.json', '"hello"')), { reason: 'bad-syntax' });
      await rejectsWith(openTableReader('json', files.write('norows.json', '{"data": [{"id": 1}]}')), { reason: 'empty' });
      await rejectsWith(openTableReader('json', files.write('emptyarr.json', '  []  ')), { reason: 'empty' });
    });
  });

  describe('yaml', () => {
    it('reads a list of mappings with exact big integers', async () => {
      const t = await readAll('yaml', files.write('a.yaml', '- id: 1\n  name: a\n- id: 9007199254740993\n  name: null\n  extra: [1, 2]\n'));
      assert.deepEqual(t.columns, ['id', 'name', 'extra']);
      assert.deepEqual(t.rows, [
        ['1', 'a', null],
        ['9007199254740993', null, '[1,2]'],
      ]);
    });

    it('accepts a mapping with rows', async () => {
      const t = await readAll('yaml', files.write('rows.yml', 'rows:\n  - id: 1\n'));
      assert.deepEqual(t.rows, [['1']]);
    });

    it('reports a syntax error with its line', async () => {
      await rejectsWith(openTableReader('yaml', files.write('bad.yaml', '- id: 1\n  name: [a\n- id: 2\n')), { reason: 'bad-syntax' });
    });

    it('names a row that is not a mapping', async () => {
      await rejectsWith(readAll('yaml', files.write('scalar.yaml', '- id: 1\n- just text\n')), { reason: 'bad-row', row: 2 });
    });
  });

  describe('xlsx', () => {
    async function workbook(name: string, build: (ws: ExcelJS.Worksheet) => void): Promise<string> {
      const wb = new ExcelJS.Workbook();
      build(wb.addWorksheet('Data'));
      wb.addWorksheet('Second').addRow(['ignored']);
      const p = files.write(name, '');
      await wb.xlsx.writeFile(p);
      return p;
    }

    it('reads the first sheet: numbers, dates, booleans, rich text, formulas, empty cells', async () => {
      const p = await workbook('a.xlsx', (ws) => {
        ws.addRow([]);
        ws.addRow(['id', 'when', 'ok', 'label', 'total']);
        ws.addRow([
          1,
          new Date(Date.UTC(2024, 0, 31)),
          true,
          { richText: [{ text: 'ab' }, { text: 'c' }] },
          { formula: 'A3*2', result: 2 },
        ]);
        ws.addRow([]);
        ws.addRow([2.5, new Date(Date.UTC(2024, 1, 1, 13, 5, 0)), false, null, null]);
      });
      const t = await readAll('xlsx', p);
      assert.deepEqual(t.columns, ['id', 'when', 'ok', 'label', 'total']);
      assert.deepEqual(t.rows, [
        ['1', '2024-01-31', 'true', 'abc', '2'],
        ['2.5', '2024-02-01 13:05:00', 'false', null, null],
      ]);
    });

    it('names the row with a value beyond the header', async () => {
      const p = await workbook('wide.xlsx', (ws) => {
        ws.addRow(['id', 'name']);
        ws.addRow([1, 'a']);
        ws.addRow([2, 'b', 'stray']);
      });
      await rejectsWith(readAll('xlsx', p), { reason: 'bad-row', row: 2, message: /sheet row 3 has a value in column C/ });
    });

    it('rejects a file that is not a workbook', async () => {
      await rejectsWith(openTableReader('xlsx', files.write('fake.xlsx', 'id,name\n1,a\n')), {
        reason: 'bad-syntax',
        message: /Excel Workbook/,
      });
    });

    it('reads a workbook whose shared strings come before its sheets and its sheet list last (the streaming reader cannot)', async () => {
      const p = await workbook('late-list.xlsx', (ws) => {
        ws.addRow(['id', 'name']);
        ws.addRow([1, 'first']);
        ws.addRow([2, 'second']);
      });
      // The same entries in another order: what made the streaming reader fail now and then
      // (xl/workbook.xml last, as exceljs writes it), here on every read.
      const zip = await JSZip.loadAsync(readFileSync(p));
      const names = Object.keys(zip.files).filter((n) => !zip.files[n]!.dir);
      const first = ['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/sharedStrings.xml', 'xl/styles.xml'];
      const order = [...first, ...names.filter((n) => !first.includes(n) && n !== 'xl/workbook.xml'), 'xl/workbook.xml'];
      const out = new JSZip();
      for (const n of order) out.file(n, await zip.files[n]!.async('nodebuffer'));
      writeFileSync(p, await out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
      const t = await readAll('xlsx', p);
      assert.deepEqual(t.columns, ['id', 'name']);
      assert.deepEqual(t.rows, [
        ['1', 'first'],
        ['2', 'second'],
      ]);
    });

    it('rejects an empty sheet', async () => {
      const p = await workbook('empty.xlsx', () => undefined);
      await rejectsWith(openTableReader('xlsx', p), { reason: 'empty' });
    });
  });

  describe('sql', () => {
    const dump = [
      '-- MySQL dump',
      '/*!40101 SET NAMES utf8mb4 */;',
      'DROP TABLE IF EXISTS `people`;',
      'CREATE TABLE `people` (',
      '  `id` int NOT NULL AUTO_INCREMENT,',
      "  `name` varchar(255) DEFAULT NULL COMMENT 'the; name',",
      '  `score` decimal(10,2),',
      "  `kind` enum('a','b'),",
      '  PRIMARY KEY (`id`),',
      '  KEY `by_name` (`name`(10))',
      ') ENGINE=InnoDB;',
      'LOCK TABLES `people` WRITE;',
      "INSERT INTO `people` VALUES (1,'O\\'Brien; \"x\"',-1.50,'a'),(2,NULL,3e2,'b');",
      '# a comment',
      "INSERT INTO people (name, id) VALUES ('it''s', 3), (_utf8mb4'z', 4);",
      'UNLOCK TABLES;',
    ].join('\n');

    it('reads CREATE TABLE and INSERT rows from a dump', async () => {
      const t = await readAll('sql', files.write('dump.sql', dump));
      assert.deepEqual(t.columns, ['id', 'name', 'score', 'kind']);
      assert.deepEqual(t.declaredTypes, { id: 'int', name: 'varchar(255)', score: 'decimal(10,2)', kind: "enum('a','b')" });
      assert.deepEqual(t.declaredPrimaryKeys, ['id']);
      assert.equal(t.sourceTable, 'people');
      assert.deepEqual(t.rows, [
        ['1', 'O\'Brien; "x"', '-1.50', 'a'],
        ['2', null, '3e2', 'b'],
        ['3', "it's", null, null],
        ['4', 'z', null, null],
      ]);
    });

    it('reads statements split across stream chunks', async () => {
      const values: string[] = [];
      for (let i = 0; i < 30000; i++) values.push(`(${i},'n;${i} -- not a comment')`);
      const sql =
        'CREATE TABLE t (id bigint PRIMARY KEY, name text);\n/* block\ncomment; */\nINSERT INTO t VALUES ' + values.join(',\n') + ';\n';
      const t = await readAll('sql', files.write('big.sql', sql));
      assert.equal(t.rows.length, 30000);
      assert.deepEqual(t.rows[29999], ['29999', 'n;29999 -- not a comment']);
      assert.deepEqual(t.declaredPrimaryKeys, ['id']);
      assert.equal(t.declaredTypes?.['id'], 'bigint');
    });

    it('takes columns from the INSERT when there is no CREATE TABLE', async () => {
      const t = await readAll(
        'sql',
        files.write('nocreate.sql', "INSERT INTO x (a, b) VALUES (1, 'q');\nINSERT INTO x (b, a) VALUES ('r', 2);"),
      );
      assert.deepEqual(t.columns, ['a', 'b']);
      assert.deepEqual(t.rows, [
        ['1', 'q'],
        ['2', 'r'],
      ]);
    });

    it('names the row and column of an expression value', async () => {
      const p = files.write(
        'expr.sql',
        "CREATE TABLE t (id int, at datetime);\nINSERT INTO t VALUES (1, '2024-01-01');\nINSERT INTO t VALUES (2, '2024-01-02'), (3, NOW());",
      );
      await rejectsWith(readAll('sql', p), { reason: 'bad-row', row: 3, column: 'at', line: 3, message: /not a literal/ });
    });

    it('names the row with the wrong number of values', async () => {
      const p = files.write('count.sql', 'CREATE TABLE t (id int, v int);\nINSERT INTO t VALUES (1, 2), (3);');
      await rejectsWith(readAll('sql', p), {
        reason: 'bad-row',
        row: 2,
        message: /1 value, but the table has 2 columns\. Give every row 2 values/,
      });
    });

    it('refuses statements an import does not run', async () => {
      const p = files.write('update.sql', 'CREATE TABLE t (id int);\nINSERT INTO t VALUES (1);\nUPDATE t SET id = 2;');
      await rejectsWith(readAll('sql', p), { reason: 'unsupported', line: 3, message: /UPDATE statement/ });
    });

    it('needs a table choice when rows go to two tables, and honours sqlTable', async () => {
      const sql = "CREATE TABLE a (id int);\nCREATE TABLE b (k text, v text);\nINSERT INTO a VALUES (1);\nINSERT INTO b VALUES ('x', 'y');";
      const p = files.write('two.sql', sql);
      await rejectsWith(readAll('sql', p), { reason: 'unsupported', message: /both a and b/ });
      const t = await readAll('sql', p, { sqlTable: 'B' });
      assert.deepEqual(t.columns, ['k', 'v']);
      assert.deepEqual(t.rows, [['x', 'y']]);
    });

    it('reports an unterminated string', async () => {
      await rejectsWith(readAll('sql', files.write('open.sql', "INSERT INTO t (a) VALUES ('abc);\n")), { reason: 'bad-syntax', line: 1 });
    });

    it('needs a column list or a CREATE TABLE', async () => {
      await rejectsWith(openTableReader('sql', files.write('nocols.sql', 'INSERT INTO t VALUES (1);')), {
        reason: 'bad-header',
        message: /no column list/,
      });
    });
  });
});
