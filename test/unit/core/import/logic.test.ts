import assert from 'node:assert/strict';
import { candidatePrimaryKeys } from '../../../../src/core/import/candidatePrimaryKeys';
import { checkImport, operationUnavailableReason, type ImportCheckInput } from '../../../../src/core/import/checkImport';
import { detectFileType } from '../../../../src/core/import/detectFileType';
import { ColumnTypeInferrer, inferColumnTypes } from '../../../../src/core/import/inferColumnTypes';
import { matchColumns, renamingEntries } from '../../../../src/core/import/matchColumns';
import { readPreview } from '../../../../src/core/import/readPreview';
import { MAX_IMPORT_BYTES } from '../../../../src/core/import/tableReader';
import { tempFiles } from './helpers';

const files = tempFiles();
after(() => files.cleanup());

describe('detectFileType', () => {
  it('maps each supported extension, case-insensitively, through folders', () => {
    assert.equal(detectFileType('/home/me/data/People.CSV'), 'csv');
    assert.equal(detectFileType('C:\\data\\x.psv'), 'psv');
    assert.equal(detectFileType('book.xlsx'), 'xlsx');
    assert.equal(detectFileType('rows.json'), 'json');
    assert.equal(detectFileType('dump.sql'), 'sql');
    assert.equal(detectFileType('a.yaml'), 'yaml');
    assert.equal(detectFileType('a.yml'), 'yaml');
  });
  it('returns undefined for anything else', () => {
    assert.equal(detectFileType('notes.txt'), undefined);
    assert.equal(detectFileType('csv'), undefined);
    assert.equal(detectFileType('dir.csv/file'), undefined);
    assert.equal(detectFileType('x.constructor'), undefined);
    assert.equal(detectFileType('old.xls'), undefined);
  });
});

describe('inferColumnTypes', () => {
  const one = (values: (string | null)[]): string =>
    inferColumnTypes(
      ['c'],
      values.map((v) => [v]),
    )[0]!;
  it('integers by range', () => {
    assert.equal(one(['1', '-2147483648', '2147483647']), 'int');
    assert.equal(one(['1', '2147483648']), 'bigint');
    assert.equal(one(['18446744073709551615']), 'bigint unsigned');
    assert.equal(one(['-18446744073709551615']), 'decimal(20,0)');
  });
  it('decimals keep precision and scale; exponents are double', () => {
    assert.equal(one(['1.5', '-123.25', '7']), 'decimal(5,2)');
    assert.equal(one(['0.001']), 'decimal(3,3)');
    assert.equal(one(['1.5', '2e10']), 'double');
  });
  it('booleans, dates, datetimes, times', () => {
    assert.equal(one(['true', 'FALSE', null]), 'tinyint(1)');
    assert.equal(one(['2024-02-29', '1999-12-31']), 'date');
    assert.equal(one(['2023-02-29']), 'varchar(16383)'); // not a real day
    assert.equal(one(['1900-02-29']), 'varchar(16383)'); // century, not a leap year
    assert.equal(one(['2000-02-29', '2024-04-30']), 'date');
    assert.equal(one(['2024-04-31']), 'varchar(16383)');
    assert.equal(one(['2024-01-01', '2024-01-02 10:00:00']), 'datetime');
    assert.equal(one(['2024-01-02T10:00:00.123Z']), 'datetime(6)');
    assert.equal(one(['10:00:00', '23:59:59']), 'time');
  });
  it('text: leading zeros, mixtures and all-NULL columns stay strings', () => {
    assert.equal(one(['007', '12']), 'varchar(16383)');
    assert.equal(one(['1', 'abc']), 'varchar(16383)');
    assert.equal(one([null, null]), 'varchar(16383)');
    assert.equal(one(['x'.repeat(20000)]), 'longtext');
  });
  it('observes rows incrementally, column by column', () => {
    const inf = new ColumnTypeInferrer(['id', 'price', 'name']);
    inf.observe(['1', '1.25', 'a']);
    inf.observe(['3000000000', '2', null]);
    assert.deepEqual(inf.types(), ['bigint', 'decimal(3,2)', 'varchar(16383)']);
  });
});

describe('candidatePrimaryKeys', () => {
  it('offers unique, non-empty columns with id-like names first', () => {
    const rows = [
      ['a', '1', 'x', 'K1'],
      ['b', '2', 'x', 'K2'],
      ['c', '3', null, 'K3'],
    ];
    assert.deepEqual(candidatePrimaryKeys(['name', 'id', 'tag', 'country_code'], rows), ['id', 'country_code', 'name']);
  });
  it('offers nothing when values repeat or are empty, and the declared key when there is one', () => {
    assert.deepEqual(candidatePrimaryKeys(['a'], [['1'], ['1']]), []);
    assert.deepEqual(candidatePrimaryKeys(['a'], [['1'], [' ']]), []);
    assert.deepEqual(candidatePrimaryKeys(['a', 'b'], [['1', '2']], ['b', 'a']), ['b', 'a']);
  });
});

describe('matchColumns', () => {
  it('matches exactly, then by case, then ignoring _ - . and spaces', () => {
    const m = matchColumns(['ID', 'First Name', 'last-name', 'zip', 'extra'], ['id', 'first_name', 'last_name', 'zip', 'created_at']);
    assert.deepEqual(m.columnMap, { ID: 'id', 'First Name': 'first_name', 'last-name': 'last_name', zip: 'zip' });
    assert.deepEqual(m.unmatchedSource, ['extra']);
    assert.deepEqual(m.unfilledTable, ['created_at']);
  });
  it('prefers an exact match and uses each table column once', () => {
    const m = matchColumns(['Name', 'name'], ['name']);
    assert.deepEqual(m.columnMap, { name: 'name' });
    assert.deepEqual(m.unmatchedSource, ['Name']);
  });
  it('renamingEntries keeps only renames (what column_map must carry)', () => {
    assert.deepEqual(renamingEntries({ a: 'a', B: 'b' }), { B: 'b' });
  });
});

describe('checkImport', () => {
  const base: ImportCheckInput = {
    fileSize: 100,
    sourceColumns: ['id', 'name'],
    rows: [
      ['1', 'a'],
      ['2', 'b'],
    ],
    operation: 'create',
    target: { table: 'people', exists: false, columns: [], primaryKeys: [] },
    primaryKeys: ['id'],
    columnMap: { id: 'id', name: 'name' },
  };
  const existing = { table: 'people', exists: true, columns: ['id', 'name', 'age'], primaryKeys: ['id'] };
  const codes = (input: Partial<ImportCheckInput>): string[] => checkImport({ ...base, ...input }).map((p) => p.code);

  it('passes a good new table and a good update', () => {
    assert.deepEqual(checkImport(base), []);
    assert.deepEqual(codes({ operation: 'update', target: existing, primaryKeys: [] }), []);
  });
  it('empty file, header-only file, file over 1 GiB', () => {
    const empty = checkImport({ ...base, fileSize: 0 });
    assert.deepEqual(
      empty.map((p) => p.code),
      ['empty-file'],
    );
    assert.match(empty[0]!.message, /Choose a file with a header row/);
    assert.deepEqual(codes({ rows: [] }), ['no-rows']);
    const big = checkImport({ ...base, fileSize: MAX_IMPORT_BYTES + 1 });
    assert.deepEqual(
      big.map((p) => p.code),
      ['file-too-large'],
    );
    assert.match(big[0]!.message, /limited to 1 GiB\. Split it/);
  });
  it('operations that cannot apply to the table', () => {
    assert.deepEqual(codes({ operation: 'create', target: existing }), ['table-exists']);
    assert.deepEqual(codes({ operation: 'update' }), ['table-missing']);
    assert.deepEqual(codes({ operation: 'replace' }), ['table-missing']);
    assert.equal(operationUnavailableReason('overwrite', true, 't'), undefined);
    assert.equal(operationUnavailableReason('overwrite', false, 't'), undefined);
    assert.match(operationUnavailableReason('update', false, 't') ?? '', /choose create/);
  });
  it('a header that does not match the table names the columns and how to fix it', () => {
    const problems = checkImport({
      ...base,
      operation: 'update',
      target: existing,
      sourceColumns: ['id', 'nmae'],
      columnMap: { id: 'id', nmae: 'nmae' },
    });
    assert.deepEqual(
      problems.map((p) => p.code),
      ['header-mismatch'],
    );
    assert.match(
      problems[0]!.message,
      /"nmae" is not a column of the table \(it has "id", "name", "age"\)\. Rename the header in the file, or map each file column/,
    );
  });
  it('a file column left out of the column map is a mismatch too (an import cannot drop columns)', () => {
    const problems = checkImport({
      ...base,
      operation: 'replace',
      target: existing,
      sourceColumns: ['id', 'name', 'extra'],
      rows: [['1', 'a', 'x']],
      columnMap: { id: 'id', name: 'name' },
    });
    assert.deepEqual(
      problems.map((p) => p.code),
      ['header-mismatch', 'unmapped-columns'],
    );
    assert.match(problems[0]!.message, /"extra" is not a column of the table/);
    assert.match(problems[1]!.message, /Table columns "age" get no value/);
  });
  it('a primary key column of the table missing from the file', () => {
    const problems = checkImport({
      ...base,
      operation: 'update',
      target: existing,
      sourceColumns: ['name'],
      rows: [['a']],
      columnMap: { name: 'name' },
    });
    assert.deepEqual(
      problems.map((p) => p.code),
      ['primary-key-missing'],
    );
    assert.match(problems[0]!.message, /Primary key column "id" of table people is missing from the file\. Add that column/);
  });
  it('new tables need a key from the file whose preview values are present and unique', () => {
    assert.deepEqual(codes({ primaryKeys: [] }), ['primary-key-required']);
    assert.deepEqual(codes({ primaryKeys: ['nope'] }), ['primary-key-missing']);
    const dup = checkImport({
      ...base,
      rows: [
        ['1', 'a'],
        ['1', 'b'],
      ],
    });
    assert.match(dup[0]!.message, /Rows 1 and 2 have the same primary key \(1\)/);
    const empty = checkImport({
      ...base,
      rows: [
        ['1', 'a'],
        [null, 'b'],
      ],
    });
    assert.match(empty[0]!.message, /Row 2 has no value for primary key column "id"/);
  });
  it('a column map that names unknown columns or merges two into one', () => {
    assert.deepEqual(codes({ columnMap: { id: 'id', name: 'name', ghost: 'x' } }), ['bad-column-map']);
    assert.deepEqual(codes({ columnMap: { id: 'id', name: 'ID' } }), ['bad-column-map']);
  });
});

describe('readPreview', () => {
  it('reads the first rows only, infers their types and says whether more follow', async () => {
    const lines = ['id,price,when'];
    for (let i = 1; i <= 500; i++) lines.push(`${i},${i}.50,2024-01-0${(i % 9) + 1}`);
    const p = await readPreview('csv', files.write('p.csv', lines.join('\n')), { maxRows: 10 });
    assert.equal(p.rows.length, 10);
    assert.equal(p.truncated, true);
    assert.deepEqual(p.types, ['int', 'decimal(4,2)', 'date']);
    const all = await readPreview('csv', files.write('q.csv', 'a\n1\n'), { maxRows: 10 });
    assert.equal(all.truncated, false);
  });
  it('uses the types a SQL file declares', async () => {
    const p = await readPreview(
      'sql',
      files.write('d.sql', "CREATE TABLE t (id bigint, v varchar(3), PRIMARY KEY (id));\nINSERT INTO t VALUES (1, 'a');"),
    );
    assert.deepEqual(p.types, ['bigint', 'varchar(3)']);
    assert.deepEqual(p.declaredPrimaryKeys, ['id']);
  });
});
