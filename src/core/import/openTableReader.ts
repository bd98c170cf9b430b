import { stat } from 'node:fs/promises';
import { ImportParseError } from './importParseError';
import { openDelimitedReader } from './readers/delimitedReader';
import { openJsonReader } from './readers/jsonReader';
import { openSqlReader } from './readers/sqlReader';
import { openXlsxReader } from './readers/xlsxReader';
import { openYamlReader } from './readers/yamlReader';
import { MAX_IMPORT_BYTES, type ImportFileKind, type TableReader, type TableReaderOptions } from './tableReader';

/**
 * Opens an import file as a table: reads just enough to know the columns, then streams rows.
 * Throws ImportParseError for an empty, oversized or unreadable file (see tableReader.ts for
 * what each format accepts).
 */
export async function openTableReader(fileType: ImportFileKind, filePath: string, options: TableReaderOptions = {}): Promise<TableReader> {
  options.signal?.throwIfAborted();
  const { size } = await stat(filePath);
  if (size === 0) {
    throw new ImportParseError('the file is empty. Choose a file with a header and at least one row.', { fileType, reason: 'empty' });
  }
  if (size > MAX_IMPORT_BYTES) {
    throw new ImportParseError(
      `the file is ${(size / 1024 ** 3).toFixed(2)} GiB; imports are limited to 1 GiB. Split the file and import the parts with the "update" operation.`,
      { fileType, reason: 'too-large' },
    );
  }
  const signalOnly = options.signal ? { signal: options.signal } : {};
  switch (fileType) {
    case 'csv':
    case 'psv':
      return openDelimitedReader(fileType, filePath, signalOnly);
    case 'xlsx':
      return openXlsxReader(filePath, signalOnly);
    case 'json':
      return openJsonReader(filePath, signalOnly);
    case 'yaml':
      return openYamlReader(filePath, signalOnly);
    case 'sql':
      return openSqlReader(filePath, options);
  }
}
