import { strict as assert } from 'node:assert';
import type { QueryColumn } from '../../../src/shared/wire';
import {
  cellPreview,
  escapeDelimited,
  formatResult,
  isLongValue,
  toCsv,
  toJson,
  toMarkdown,
  toTsv,
  uniqueColumnKeys,
} from '../../../src/shared/queryResultFormat';

const cols = (...names: string[]): QueryColumn[] => names.map((name) => ({ name, type: 'varchar(20)' }));

describe('query result text formats', () => {
  describe('CSV escaping', () => {
    it('quotes fields holding the delimiter, quotes or line breaks, doubling quotes', () => {
      assert.equal(escapeDelimited('a,b', ','), '"a,b"');
      assert.equal(escapeDelimited('say "hi"', ','), '"say ""hi"""');
      assert.equal(escapeDelimited('line1\nline2', ','), '"line1\nline2"');
      assert.equal(escapeDelimited('cr\rhere', ','), '"cr\rhere"');
      assert.equal(escapeDelimited('plain', ','), 'plain');
    });

    it('keeps leading and trailing spaces by quoting', () => {
      assert.equal(escapeDelimited(' padded ', ','), '" padded "');
    });

    it('a comma is not special in TSV, a tab is', () => {
      assert.equal(escapeDelimited('a,b', '\t'), 'a,b');
      assert.equal(escapeDelimited('a\tb', '\t'), '"a\tb"');
    });
  });

  it('CSV writes a header, CRLF line ends, NULL as an empty field and "" for the empty string', () => {
    const csv = toCsv(cols('id', 'note'), [
      ['1', null],
      ['2', ''],
      ['3', 'x,y'],
    ]);
    assert.equal(csv, 'id,note\r\n1,\r\n2,""\r\n3,"x,y"\r\n');
  });

  it('TSV can leave the header out (spreadsheet paste of a cell range)', () => {
    assert.equal(toTsv(cols('a', 'b'), [['1', '2']], { header: false }), '1\t2\r\n');
    assert.equal(toTsv(cols('a', 'b'), [['1', '2']]), 'a\tb\r\n1\t2\r\n');
  });

  it('Markdown escapes pipes and markup, flattens line breaks and marks NULL apart from the text NULL', () => {
    const md = toMarkdown(cols('a|b', 'c'), [
      ['x|y', null],
      ['*bold*\nnext', 'NULL'],
    ]);
    assert.equal(md, '| a\\|b | c |\n| --- | --- |\n| x\\|y | *NULL* |\n| \\*bold\\* next | NULL |\n');
  });

  it('JSON is an array of objects with string or null values, duplicate names kept apart', () => {
    const json = toJson(cols('id', 'id', 'v'), [['1', '2', null]]);
    assert.deepEqual(JSON.parse(json), [{ id: '1', id_2: '2', v: null }]);
    assert.equal(toJson(cols('a'), []), '[]\n');
  });

  it('unique keys do not collide with an existing column named like a suffix', () => {
    assert.deepEqual(uniqueColumnKeys(cols('a', 'a_2', 'a')), ['a', 'a_2', 'a_3']);
  });

  it('formatResult dispatches on the format', () => {
    const c = cols('a');
    const rows = [['1']];
    assert.equal(formatResult('csv', c, rows), toCsv(c, rows));
    assert.equal(formatResult('markdown', c, rows), toMarkdown(c, rows));
    assert.equal(formatResult('json', c, rows), toJson(c, rows));
    assert.equal(formatResult('tsv', c, rows), toTsv(c, rows));
  });

  it('previews keep a cell on one line and show NULL', () => {
    assert.equal(cellPreview(null), 'NULL');
    assert.equal(cellPreview('a\nb\tc'), 'a↵b→c');
    assert.equal(cellPreview('x'.repeat(10), 4), 'xxxx…');
    assert.equal(isLongValue('a\nb'), true);
    assert.equal(isLongValue('short'), false);
    assert.equal(isLongValue(null), false);
    assert.equal(isLongValue('y'.repeat(81)), true);
  });
});
