import { IMPORT_FILE_KINDS, type ImportFileKind } from './tableReader';

const EXTENSIONS: Record<string, ImportFileKind> = {
  csv: 'csv',
  psv: 'psv',
  xlsx: 'xlsx',
  json: 'json',
  sql: 'sql',
  yaml: 'yaml',
  yml: 'yaml',
};

/** The import file type a file name implies, by extension (case-insensitive); undefined if none. */
export function detectFileType(fileName: string): ImportFileKind | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot < 0) return undefined;
  const ext = base.slice(dot + 1).toLowerCase();
  return Object.hasOwn(EXTENSIONS, ext) ? EXTENSIONS[ext] : undefined;
}

/** Narrows any string (e.g. a wire `ImportFileType`) to a type this code can read. */
export function isImportFileKind(value: string): value is ImportFileKind {
  return (IMPORT_FILE_KINDS as readonly string[]).includes(value);
}
