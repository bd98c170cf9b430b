import { IMPORT_FILE_KINDS, importFileKindOfExtension, type ImportFileKind } from '../../shared/importFormats';

/** The import file type a file name implies, by extension (case-insensitive); undefined if none. */
export function detectFileType(fileName: string): ImportFileKind | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot < 0) return undefined;
  return importFileKindOfExtension(base.slice(dot + 1));
}

/** Narrows any string (e.g. a wire `ImportFileType`) to a type this code can read. */
export function isImportFileKind(value: string): value is ImportFileKind {
  return (IMPORT_FILE_KINDS as readonly string[]).includes(value);
}
