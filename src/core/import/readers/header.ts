import { ImportParseError } from '../importParseError';
import type { Cell, ImportFileKind } from '../tableReader';

/** Header cells → column names: trimmed, none empty, none repeated (case-insensitively, as SQL). */
export function checkHeader(fileType: ImportFileKind, cells: readonly Cell[], line?: number): string[] {
  const columns = cells.map((c) => (c ?? '').trim());
  const seen = new Map<string, number>();
  columns.forEach((name, i) => {
    if (name === '') {
      throw new ImportParseError(`the header's column ${i + 1} has no name. Give every column a name in the first row.`, {
        fileType,
        reason: 'bad-header',
        line,
      });
    }
    const key = name.toLowerCase();
    const before = seen.get(key);
    if (before !== undefined) {
      throw new ImportParseError(
        `the header names "${name}" twice (columns ${before + 1} and ${i + 1}). Rename one of them; column names must be unique.`,
        { fileType, reason: 'bad-header', line, column: name },
      );
    }
    seen.set(key, i);
  });
  return columns;
}
