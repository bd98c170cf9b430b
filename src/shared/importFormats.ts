// The one list of import file formats. Everything that names a format reads it from here: the wire
// types (IMPORT_FILE_TYPES in wire.ts, which the hub validates against), the file-type question and
// the open dialog's filters (src/commands/importFile.ts, importCommands.ts), detection by extension
// (src/core/import/detectFileType.ts), the readers (src/core/import/openTableReader.ts switches over
// ImportFileKind, so the compiler asks for a reader when a format is added) and package.json's
// Explorer menu, which test/unit/ids.test.ts holds to importFileWhenClause().

import * as l10n from './l10n';

/** `description` is a function: the text is translated when shown, not when this module loads. */
export const IMPORT_FORMATS = [
  { fileType: 'csv', extensions: ['csv'], description: () => l10n.t('CSV — comma-separated values') },
  { fileType: 'psv', extensions: ['psv'], description: () => l10n.t('PSV — pipe-separated values') },
  { fileType: 'xlsx', extensions: ['xlsx'], description: () => l10n.t('Excel workbook (first sheet)') },
  { fileType: 'json', extensions: ['json'], description: () => l10n.t('JSON — a list of objects, or {"rows": [...]}') },
  { fileType: 'sql', extensions: ['sql'], description: () => l10n.t('SQL — CREATE TABLE and INSERT statements') },
  { fileType: 'yaml', extensions: ['yaml', 'yml'], description: () => l10n.t('YAML — a list of mappings') },
] as const;

export type ImportFormat = (typeof IMPORT_FORMATS)[number];
/** A file type this code can read (the wire's ImportFileType is open: a server may name others). */
export type ImportFileKind = ImportFormat['fileType'];

export const IMPORT_FILE_KINDS: readonly ImportFileKind[] = IMPORT_FORMATS.map((f) => f.fileType);

/** Every file name extension of every format, without the dot (the open dialog's filter). */
export const IMPORT_FILE_EXTENSIONS: readonly string[] = IMPORT_FORMATS.flatMap((f) => f.extensions);

export function importFormatOf(fileType: ImportFileKind): ImportFormat {
  return IMPORT_FORMATS.find((f) => f.fileType === fileType)!;
}

/** The format a file name extension (without the dot, any case) belongs to. */
export function importFileKindOfExtension(extension: string): ImportFileKind | undefined {
  const ext = extension.toLowerCase();
  return IMPORT_FORMATS.find((f) => (f.extensions as readonly string[]).includes(ext))?.fileType;
}

/** The `when` clause of package.json's Explorer "Import File into Table…" entry. */
export function importFileWhenClause(): string {
  return `resourceScheme == file && resourceExtname =~ /^\\.(${IMPORT_FILE_EXTENSIONS.join('|')})$/i`;
}
