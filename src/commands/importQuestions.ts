// The questions "Import File into Table…" asks, one function each: file type, branch, table,
// operation, primary keys, new column names, the column map and where the result lands. Each
// returns undefined when the user dismisses it; importFile.ts runs them in order.
import { quoteIdentifier } from '../core/sql/quote';
import type { SqlRunner } from '../core/sql/sqlPort';
import { candidatePrimaryKeys } from '../core/import/candidatePrimaryKeys';
import { detectFileType } from '../core/import/detectFileType';
import {
  defaultPullBranchName,
  defaultTableName,
  operationChoices,
  tableShapeFromDescribe,
  tablesFromShowTables,
  validateTableName,
  type ImportLanding,
  type ImportPlan,
} from '../core/import/importPlan';
import { matchColumns } from '../core/import/matchColumns';
import type { ImportPreview } from '../core/import/readPreview';
import { IMPORT_FILE_KINDS, importFormatOf, type ImportFileKind } from '../shared/importFormats';
import type { PickItem } from '../platform/ui';
import type { QueryResult } from '../shared/wire';
import type { DatabaseTarget } from '../core/targets';
import { validateRefName } from './versioningCommands';
import { isTreeNode } from '../tree/treeNodes';
import type { ImportApi, ImportDeps } from './importFlowTypes';
import * as l10n from '../shared/l10n';

export async function pickFileType(deps: ImportDeps, fileName: string): Promise<ImportFileKind | undefined> {
  const detected = detectFileType(fileName);
  const order = detected ? [detected, ...IMPORT_FILE_KINDS.filter((k) => k !== detected)] : [...IMPORT_FILE_KINDS];
  return deps.ui.pick(
    order.map((k) => ({
      label: k,
      description: importFormatOf(k).description(),
      ...(k === detected ? { detail: l10n.t('Detected from the file name {0}', fileName) } : {}),
      value: k,
    })),
    {
      title: l10n.t('Import {0}: file type', fileName),
      placeholder: detected ? l10n.t('Detected: {0} (pick another to change)', detected) : l10n.t('Which format is the file in?'),
    },
  );
}

export async function pickBranch(deps: ImportDeps, client: ImportApi, target: DatabaseTarget, node: unknown): Promise<string | undefined> {
  if (isTreeNode(node) && node.kind === 'branch') return node.branch.name;
  const load = async (): Promise<PickItem<string>[]> => {
    const names: string[] = [];
    let pageToken: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await client.listBranches(target.db, pageToken ? { pageToken } : {});
      names.push(...page.items.map((b) => b.name));
      if (!page.nextPageToken) break;
      pageToken = page.nextPageToken;
    }
    const first = ['main', 'master'].find((n) => names.includes(n));
    const sorted = first ? [first, ...names.filter((n) => n !== first)] : names;
    return sorted.map((n) => ({ label: `$(git-branch) ${n}`, value: n }));
  };
  return deps.ui.pick(load(), { title: l10n.t('Import: branch'), placeholder: l10n.t('Which branch does the import start from?') });
}

export type TableChoice = { name: string; exists: boolean };

export async function pickTable(
  deps: ImportDeps,
  run: SqlRunner,
  branch: string,
  fileName: string,
  preview: ImportPreview,
): Promise<TableChoice | undefined> {
  const tables = tablesFromShowTables(await sql(run, branch, 'SHOW TABLES'));
  const suggested = preview.sourceTable ?? defaultTableName(fileName);
  const existingMatch = tables.find((t) => t.toLowerCase() === suggested.toLowerCase());
  for (;;) {
    const items: PickItem<TableChoice>[] = [
      ...(existingMatch
        ? []
        : [{ label: `$(add) ${suggested}`, description: l10n.t('new table'), value: { name: suggested, exists: false } }]),
      ...tables.map((t) => ({
        label: `$(table) ${t}`,
        description: t === existingMatch ? l10n.t('existing table, same name as the file') : l10n.t('existing table'),
        value: { name: t, exists: true },
      })),
    ];
    const picked = await deps.ui.pickOrType(items, {
      title: l10n.t('Import: table on {0}', branch),
      placeholder: l10n.t('Pick an existing table, or type the name of a new one'),
    });
    if (!picked) return undefined;
    if ('value' in picked) return picked.value;
    const typed = picked.typed.trim();
    const existing = tables.find((t) => t.toLowerCase() === typed.toLowerCase());
    if (existing) return { name: existing, exists: true };
    const invalid = validateTableName(typed);
    if (!invalid) return { name: typed, exists: false };
    await deps.ui.info(invalid);
  }
}

export async function describeTable(run: SqlRunner, branch: string, table: string): Promise<ReturnType<typeof tableShapeFromDescribe>> {
  return tableShapeFromDescribe(await sql(run, branch, `DESCRIBE ${quoteIdentifier(table)}`));
}

/** A statement at the branch through the SQL port; anything but success is an error. */
export async function sql(run: SqlRunner, ref: string, q: string): Promise<QueryResult> {
  const result = await run(q, { limit: 10000 });
  if (result.status !== 'success') throw new Error(`${q} on ${ref} answered ${result.status}: ${result.message ?? ''}`.trim());
  return result;
}

export async function pickOperation(
  deps: ImportDeps,
  table: string,
  exists: boolean,
  keys: readonly string[],
): Promise<ImportPlan['operation'] | undefined> {
  const choices = operationChoices(table, exists);
  for (;;) {
    const picked = await deps.ui.pick(
      choices.map((c) => ({
        label: c.unavailable ? `$(circle-slash) ${c.operation}` : c.operation,
        description: c.unavailable
          ? l10n.t('not available')
          : exists && (c.operation === 'update' || c.operation === 'replace') && keys.length
            ? l10n.t('keys: {0}', keys.join(', '))
            : '',
        detail: c.unavailable ?? c.description,
        value: c,
      })),
      {
        title: exists ? l10n.t('Import: operation on existing table {0}', table) : l10n.t('Import: operation on new table {0}', table),
        placeholder: l10n.t('What should the import do with the table?'),
      },
    );
    if (!picked) return undefined;
    if (!picked.unavailable) return picked.operation;
    await deps.ui.info(picked.unavailable);
  }
}

export async function pickPrimaryKeys(deps: ImportDeps, preview: ImportPreview): Promise<string[] | undefined> {
  const candidates = candidatePrimaryKeys(preview.columns, preview.rows, preview.declaredPrimaryKeys);
  const preset = preview.declaredPrimaryKeys?.length ? [...preview.declaredPrimaryKeys] : candidates.slice(0, 1);
  for (;;) {
    const keys = await deps.ui.pickMany(
      preview.columns.map((c, i) => ({
        label: c,
        description: [preview.types[i], candidates.includes(c) ? 'unique in the preview' : ''].filter(Boolean).join(' · '),
        picked: preset.includes(c),
        value: c,
      })),
      { title: l10n.t('Import: primary key of the new table'), placeholder: l10n.t('Pick the column(s) whose values identify each row') },
    );
    if (keys === undefined) return undefined;
    if (keys.length > 0) return preview.columns.filter((c) => keys.includes(c)); // file order
    await deps.ui.info(l10n.t('A new table needs a primary key: pick at least one column.'));
  }
}

const DONE = '\u0000done';

/** A new table's columns: named as in the file unless the user renames some. */
export async function nameNewColumns(deps: ImportDeps, preview: ImportPreview, table: string): Promise<Record<string, string> | undefined> {
  const map: Record<string, string> = Object.fromEntries(preview.columns.map((c) => [c, c]));
  for (;;) {
    const renamed = preview.columns.filter((c) => map[c] !== c).length;
    const picked = await deps.ui.pick(
      [
        {
          label: l10n.t('$(check) Continue'),
          description: renamed
            ? l10n.t('{0} column{1} renamed', renamed, renamed === 1 ? '' : 's')
            : l10n.t('columns named as in the file'),
          value: DONE,
        },
        ...preview.columns.map((c, i) => ({
          label: c,
          description: `${map[c] !== c ? `→ ${map[c]} · ` : ''}${preview.types[i] ?? ''}`,
          value: c,
        })),
      ],
      {
        title: l10n.t('Import: column map into new table {0}', table),
        placeholder: l10n.t('Pick a file column to rename it in the table, or Continue'),
      },
    );
    if (picked === undefined) return undefined;
    if (picked === DONE) return map;
    const others = new Set(preview.columns.filter((c) => c !== picked).map((c) => map[c]!.toLowerCase()));
    const name = await deps.ui.input({
      title: l10n.t('Import: name of file column "{0}" in {1}', picked, table),
      value: map[picked],
      validate: (v) => {
        const t = v.trim();
        if (t === '') return 'Enter a column name.';
        if (t.length > 64) return 'A column name can have at most 64 characters.';
        if (others.has(t.toLowerCase())) return `Another column is already named ${t}.`;
        return undefined;
      },
    });
    if (name !== undefined) map[picked] = name.trim();
  }
}

export async function editColumnMap(
  deps: ImportDeps,
  preview: ImportPreview,
  table: string,
  tableColumns: readonly string[],
): Promise<Record<string, string> | undefined> {
  const match = matchColumns(preview.columns, tableColumns);
  const map: Record<string, string> = { ...match.columnMap };
  for (;;) {
    const mapped = preview.columns.filter((c) => Object.hasOwn(map, c)).length;
    const items: PickItem<string>[] = [
      {
        label: l10n.t('$(check) Continue'),
        description: l10n.t('{0} of {1} file columns go into {2}', mapped, preview.columns.length, table),
        value: DONE,
      },
      ...preview.columns.map((c) => ({
        label: c,
        description: Object.hasOwn(map, c) ? `→ ${map[c]}` : l10n.t('→ (no matching column: pick one)'),
        value: c,
      })),
    ];
    const picked = await deps.ui.pick(items, {
      title: l10n.t('Import: column map into {0}', table),
      placeholder: l10n.t('Pick a file column to change where it goes, or Continue'),
    });
    if (picked === undefined) return undefined;
    if (picked === DONE) return map;
    const dest = await deps.ui.pick(
      tableColumns.map((t) => ({
        label: t,
        description: Object.values(map).includes(t) && map[picked] !== t ? l10n.t('already mapped') : '',
        value: t,
      })),
      { title: l10n.t('Import: where does file column "{0}" go?', picked), placeholder: l10n.t('A column of {0}', table) },
    );
    if (dest !== undefined) map[picked] = dest;
  }
}

export async function pickLanding(deps: ImportDeps, branch: string, table: string): Promise<ImportLanding | undefined> {
  const choice = await deps.ui.pick(
    [
      {
        label: l10n.t('$(git-pull-request) Open a pull request'),
        description: l10n.t('recommended'),
        detail: l10n.t('Import on a new branch and open a pull request into {0}, to review before merging.', branch),
        value: 'pull' as const,
      },
      {
        label: l10n.t('$(git-commit) Commit directly to {0}', branch),
        detail: l10n.t("The import's commit lands on {0} right away.", branch),
        value: 'branch' as const,
      },
    ],
    { title: l10n.t('Import: where should the change land?'), placeholder: l10n.t('A pull request lets you review the import first') },
  );
  if (!choice) return undefined;
  if (choice === 'branch') return { kind: 'branch' };
  const name = await deps.ui.input({
    title: l10n.t('Import: pull request branch'),
    prompt: l10n.t('A new branch, created from {0}, that the import lands on', branch),
    value: defaultPullBranchName(table, deps.now?.() ?? new Date()),
    validate: (v) => validateRefName(v, 'branch') ?? (v.trim() === branch ? `Pick a new branch, not ${branch} itself.` : undefined),
  });
  if (name === undefined) return undefined;
  return { kind: 'pull', branchName: name.trim() };
}
