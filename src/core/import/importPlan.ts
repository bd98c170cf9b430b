// The pure half of the extension's "Import File into Table…" flow: names, defaults, what each
// step offers and the createImport body. src/commands/importFile.ts asks the questions.
import type { CreateImportBody, QueryResult } from '../../shared/wire';
import { IMPORT_OPERATION_KINDS, OPERATION_DESCRIPTIONS, operationUnavailableReason, type ImportOperationKind } from './checkImport';
import { renamingEntries } from './matchColumns';
import type { ImportFileKind } from './tableReader';

/** Where the imported rows land. */
export type ImportLanding = { kind: 'pull'; branchName: string } | { kind: 'branch' };

export interface ImportPlan {
  fileName: string;
  fileType: ImportFileKind;
  branch: string;
  table: string;
  tableExists: boolean;
  operation: ImportOperationKind;
  /** For a new table: its key; for an existing one, empty (the table's own keys are used). */
  primaryKeys: string[];
  /** Source column → table column for every imported column. */
  columnMap: Record<string, string>;
  commitMessage: string;
  landing: ImportLanding;
}

/** What the file upload produced, spread into createImport (HubClient.uploadImport's result). */
export type UploadedFile = Pick<CreateImportBody, 'token' | 'contents_key' | 'completed_parts' | 'file_parts_md5' | 'file_size'>;

export function createImportBody(plan: ImportPlan, upload: UploadedFile): CreateImportBody {
  const renames = renamingEntries(plan.columnMap);
  return {
    branch_name: plan.branch,
    table_name: plan.table,
    file_name: plan.fileName,
    file_size: upload.file_size,
    file_type: plan.fileType,
    import_operation: plan.operation,
    token: upload.token,
    contents_key: upload.contents_key,
    completed_parts: upload.completed_parts,
    file_parts_md5: upload.file_parts_md5,
    primary_keys: plan.tableExists && plan.operation !== 'overwrite' ? [] : [...plan.primaryKeys],
    ...(plan.commitMessage.trim() ? { commit_message: plan.commitMessage.trim() } : {}),
    ...(plan.landing.kind === 'pull' ? { pull_request_branch_name: plan.landing.branchName } : {}),
    // Only renames need saying: a column whose name already matches lands in that column.
    ...(Object.keys(renames).length > 0 ? { column_map: renames } : {}),
  };
}

/** A table name from a file name: `Sales 2024 (final).csv` → `sales_2024_final`. */
export function defaultTableName(fileName: string): string {
  const base = (fileName.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');
  let name = base
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  if (name === '') name = 'imported';
  if (/^\d/.test(name)) name = `t_${name}`;
  return name;
}

/** MySQL table names: up to 64 characters, no `/`, `\`, `.` or trailing space. */
export function validateTableName(text: string): string | undefined {
  const v = text.trim();
  if (v === '') return 'Enter a table name.';
  if (v.length > 64) return 'A table name can have at most 64 characters.';
  if (/[/\\.`\x00]/.test(v)) return 'A table name cannot contain /, \\, . or `.';
  if (/^dolt_/i.test(v)) return 'Names starting with dolt_ are reserved for system tables.';
  return undefined;
}

export interface OperationChoice {
  operation: ImportOperationKind;
  description: string;
  /** Why it cannot be used on this table; undefined when it can. */
  unavailable: string | undefined;
}

/** The four operations in a sensible order for the table, each explained, impossible ones marked. */
export function operationChoices(table: string, tableExists: boolean): OperationChoice[] {
  const order: ImportOperationKind[] = tableExists
    ? ['update', 'replace', 'overwrite', 'create']
    : ['create', 'overwrite', 'update', 'replace'];
  return order
    .filter((op) => IMPORT_OPERATION_KINDS.includes(op))
    .map((operation) => ({
      operation,
      description: OPERATION_DESCRIPTIONS[operation],
      unavailable: operationUnavailableReason(operation, tableExists, table),
    }));
}

/** Whether an operation builds a new table from the file (so a key must be chosen). */
export function makesNewTable(operation: ImportOperationKind, tableExists: boolean): boolean {
  return operation === 'create' || operation === 'overwrite' || !tableExists;
}

/** `import-people-20240131-154500`: a fresh branch for the pull request. */
export function defaultPullBranchName(table: string, now: Date): string {
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  const safe =
    table
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'table';
  return `import-${safe}-${stamp}`;
}

export function defaultCommitMessage(fileName: string, table: string, operation: ImportOperationKind): string {
  const verb = { create: 'Create', overwrite: 'Overwrite', update: 'Update', replace: 'Replace rows of' }[operation];
  return `${verb} table ${table} from ${fileName}`;
}

/** Table names from a `SHOW TABLES` result (first column of each row), sorted. */
export function tablesFromShowTables(result: QueryResult): string[] {
  return result.rows
    .map((r) => r[0])
    .filter((v): v is string => typeof v === 'string' && v !== '')
    .sort((a, b) => a.localeCompare(b));
}

/** Columns and primary key from a `DESCRIBE t` result (MySQL's Field/Type/Null/Key/… columns). */
export function tableShapeFromDescribe(result: QueryResult): { columns: string[]; primaryKeys: string[]; types: Record<string, string> } {
  const idx = (name: string, fallback: number): number => {
    const i = result.columns.findIndex((c) => c.name.toLowerCase() === name);
    return i >= 0 ? i : fallback;
  };
  const field = idx('field', 0);
  const type = idx('type', 1);
  const key = idx('key', 3);
  const columns: string[] = [];
  const primaryKeys: string[] = [];
  const types: Record<string, string> = {};
  for (const row of result.rows) {
    const name = row[field];
    if (typeof name !== 'string') continue;
    columns.push(name);
    types[name] = row[type] ?? '';
    if ((row[key] ?? '').toUpperCase() === 'PRI') primaryKeys.push(name);
  }
  return { columns, primaryKeys, types };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

export function uploadProgressMessage(p: { bytesSent: number; totalBytes: number; partsDone: number; totalParts: number }): string {
  const pct = p.totalBytes > 0 ? Math.floor((p.bytesSent / p.totalBytes) * 100) : 100;
  return `${formatBytes(p.bytesSent)} of ${formatBytes(p.totalBytes)} (${pct}%) · part ${p.partsDone} of ${p.totalParts}`;
}

/** A small Markdown table of the preview, with the inferred (or declared) types under the names. */
export function previewMarkdown(opts: {
  fileName: string;
  columns: readonly string[];
  types: readonly string[];
  rows: readonly (readonly (string | null)[])[];
  truncated: boolean;
  fileSize: number;
}): string {
  const esc = (s: string): string =>
    s
      .replace(/\\/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/\r?\n/g, ' ')
      .replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'));
  const cell = (v: string | null): string =>
    v === null ? '*NULL*' : v === '' ? '*(empty)*' : esc(v.length > 80 ? v.slice(0, 79) + '…' : v);
  const lines = [
    `# Preview of ${esc(opts.fileName)}`,
    '',
    `${formatBytes(opts.fileSize)} · ${opts.columns.length} columns · ${opts.truncated ? `the first ${opts.rows.length} rows (more follow)` : `${opts.rows.length} rows`}. Types are inferred from these rows.`,
    '',
    `| ${opts.columns.map((c, i) => `${esc(c)}<br>\`${opts.types[i] ?? ''}\``).join(' | ')} |`,
    `|${opts.columns.map(() => ' --- ').join('|')}|`,
    ...opts.rows.map((r) => `| ${opts.columns.map((_, i) => cell(r[i] ?? null)).join(' | ')} |`),
    '',
  ];
  return lines.join('\n');
}
