// Pasting a block of cells: tab-separated text as spreadsheets and this grid write it.
import { strict as assert } from 'node:assert';
import { ClipboardTableError, parseClipboardTable } from '../../../src/shared/clipboardTable';
import { toTsv } from '../../../src/shared/queryResultFormat';
import type { Cell } from '../../../src/shared/wire';

describe('parseClipboardTable', () => {
  it('splits rows and cells; a final line break does not add a row; CRLF, LF and CR all end a row', () => {
    assert.deepEqual(parseClipboardTable('a\tb\r\nc\td\r\n'), [
      ['a', 'b'],
      ['c', 'd'],
    ]);
    assert.deepEqual(parseClipboardTable('a\tb\nc\td'), [
      ['a', 'b'],
      ['c', 'd'],
    ]);
    assert.deepEqual(parseClipboardTable('a\rb\r'), [['a'], ['b']]);
    assert.deepEqual(parseClipboardTable('single'), [['single']]);
    assert.deepEqual(parseClipboardTable(''), []);
  });

  it('reads quoted cells as spreadsheets write them: tabs, line breaks and doubled quotes inside', () => {
    assert.deepEqual(parseClipboardTable('"line 1\nline 2"\t"tab\there"\t"say ""hi"""\r\n'), [['line 1\nline 2', 'tab\there', 'say "hi"']]);
  });

  it('leaves a quote that does not close the cell as written', () => {
    assert.deepEqual(parseClipboardTable('5" pipe\t"open\tx'), [['5" pipe', '"open', 'x']]);
  });

  it('an empty cell is NULL and a quoted empty cell the empty string: a block copied from the grid pastes back exactly', () => {
    assert.deepEqual(parseClipboardTable('\t""\tx\n'), [[null, '', 'x']]);
    const rows: Cell[][] = [
      ['1', null, '', 'a\tb'],
      ['2', 'quote "q"', 'line\nbreak', ' padded '],
    ];
    const columns = ['a', 'b', 'c', 'd'].map((name) => ({ name, type: 'text' }));
    assert.deepEqual(parseClipboardTable(toTsv(columns, rows, { header: false })), rows);
  });

  it('refuses a block that is not a rectangle, naming the row', () => {
    assert.throws(
      () => parseClipboardTable('a\tb\nc\n'),
      (e: unknown) =>
        e instanceof ClipboardTableError && e.message === 'The pasted text is not a rectangle of cells: row 2 has 1 cells, row 1 has 2.',
    );
  });
});
