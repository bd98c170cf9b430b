import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTableReader } from '../../../../src/core/import/openTableReader';
import type { Cell, ImportFileKind, TableReaderOptions } from '../../../../src/core/import/tableReader';

/** A temp folder per test file, removed after. */
export function tempFiles(): { write(name: string, content: string | Buffer): string; dir(): string; cleanup(): void } {
  let dir: string | undefined;
  const ensure = (): string => (dir ??= mkdtempSync(join(tmpdir(), 'import-test-')));
  return {
    write(name, content) {
      const p = join(ensure(), name);
      writeFileSync(p, content);
      return p;
    },
    dir: ensure,
    cleanup() {
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    },
  };
}

export async function readAll(
  fileType: ImportFileKind,
  path: string,
  options: TableReaderOptions = {},
): Promise<{
  columns: string[];
  rows: Cell[][];
  declaredTypes?: Readonly<Record<string, string>>;
  declaredPrimaryKeys?: readonly string[];
  sourceTable?: string;
}> {
  const reader = await openTableReader(fileType, path, options);
  const rows: Cell[][] = [];
  for await (const row of reader.rows()) rows.push(row);
  return {
    columns: [...reader.columns],
    rows,
    ...(reader.declaredTypes ? { declaredTypes: reader.declaredTypes } : {}),
    ...(reader.declaredPrimaryKeys ? { declaredPrimaryKeys: reader.declaredPrimaryKeys } : {}),
    ...(reader.sourceTable ? { sourceTable: reader.sourceTable } : {}),
  };
}
