// The on-disk form of a SQL notebook (`*.vdbnb`): JSON with cells and a target (host,
// database, ref) per notebook and optionally per cell. Pure, so the format is unit-tested and
// a bad file gets a clear error instead of a half-loaded notebook.
import type { QueryTarget } from '../../shared/queryResultOutput';

export const NOTEBOOK_FILE_EXTENSION = '.vdbnb';
export const NOTEBOOK_FORMAT_VERSION = 1;

export type NotebookTarget = QueryTarget;

export interface NotebookCellData {
  kind: 'sql' | 'markdown';
  source: string;
  /** Overrides the notebook's target for this cell. */
  target?: NotebookTarget;
  /** Saved outputs (only when `versionedDb.notebooks.saveOutputs` is on): MIME → text. */
  outputs?: { items: { mime: string; data: string }[] }[];
  /** Commit the cell last ran at, to tell when a branch moved since. */
  ranAtCommit?: string;
}

export interface NotebookData {
  version: number;
  target?: NotebookTarget;
  cells: NotebookCellData[];
}

export class NotebookFormatError extends Error {
  override readonly name = 'NotebookFormatError';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseTarget(v: unknown, where: string): NotebookTarget | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw new NotebookFormatError(`${where}: "target" must be an object with hostId, owner, name and ref.`);
  const out: Record<string, string> = {};
  for (const k of ['hostId', 'owner', 'name', 'ref'] as const) {
    const s = v[k];
    if (typeof s !== 'string' || s.trim() === '') {
      throw new NotebookFormatError(`${where}: target.${k} must be a non-empty string.`);
    }
    out[k] = s;
  }
  return { hostId: out.hostId as string, owner: out.owner as string, name: out.name as string, ref: out.ref as string };
}

/** Parses a notebook file. An empty file is an empty notebook (what "New File" creates). */
export function parseNotebook(text: string): NotebookData {
  if (text.trim() === '') return { version: NOTEBOOK_FORMAT_VERSION, cells: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new NotebookFormatError(
      `The notebook is not valid JSON (${(e as Error).message}). Fix the file in a text editor or restore it from version control.`,
    );
  }
  if (!isObject(raw)) throw new NotebookFormatError('The notebook must be a JSON object with a "cells" array.');
  const version = raw.version ?? NOTEBOOK_FORMAT_VERSION;
  if (typeof version !== 'number' || version > NOTEBOOK_FORMAT_VERSION) {
    throw new NotebookFormatError(
      `This notebook was written by a newer version (format ${String(version)}); update the extension to open it.`,
    );
  }
  if (!Array.isArray(raw.cells)) throw new NotebookFormatError('The notebook must have a "cells" array.');
  const cells = raw.cells.map((c: unknown, i: number): NotebookCellData => {
    const where = `cell ${i + 1}`;
    if (!isObject(c)) throw new NotebookFormatError(`${where} must be an object.`);
    const kind = c.kind ?? 'sql';
    if (kind !== 'sql' && kind !== 'markdown') throw new NotebookFormatError(`${where}: kind must be "sql" or "markdown".`);
    const source = c.source ?? '';
    if (typeof source !== 'string') throw new NotebookFormatError(`${where}: source must be a string.`);
    const cell: NotebookCellData = { kind, source };
    const target = parseTarget(c.target, where);
    if (target) cell.target = target;
    if (typeof c.ranAtCommit === 'string') cell.ranAtCommit = c.ranAtCommit;
    if (Array.isArray(c.outputs)) {
      cell.outputs = c.outputs.filter(isObject).map((o) => ({
        items: (Array.isArray(o.items) ? o.items : [])
          .filter(isObject)
          .filter((it) => typeof it.mime === 'string' && typeof it.data === 'string')
          .map((it) => ({ mime: it.mime as string, data: it.data as string })),
      }));
    }
    return cell;
  });
  const data: NotebookData = { version: NOTEBOOK_FORMAT_VERSION, cells };
  const target = parseTarget(raw.target, 'notebook');
  if (target) data.target = target;
  return data;
}

/** Stable, diff-friendly JSON (2-space indent, fixed key order, trailing newline). */
export function serializeNotebook(data: NotebookData, opts: { saveOutputs: boolean }): string {
  const out = {
    version: NOTEBOOK_FORMAT_VERSION,
    ...(data.target ? { target: orderTarget(data.target) } : {}),
    cells: data.cells.map((c) => ({
      kind: c.kind,
      source: c.source,
      ...(c.target ? { target: orderTarget(c.target) } : {}),
      ...(opts.saveOutputs && c.ranAtCommit ? { ranAtCommit: c.ranAtCommit } : {}),
      ...(opts.saveOutputs && c.outputs && c.outputs.length ? { outputs: c.outputs } : {}),
    })),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

function orderTarget(t: NotebookTarget): NotebookTarget {
  return { hostId: t.hostId, owner: t.owner, name: t.name, ref: t.ref };
}

/** The target a cell runs at: its own, else the notebook's. */
export function resolveCellTarget(cell: NotebookTarget | undefined, notebook: NotebookTarget | undefined): NotebookTarget | undefined {
  return cell ?? notebook;
}

/** A starter notebook for "New SQL Notebook" at a target. */
export function newNotebook(target: NotebookTarget | undefined, firstQuery = 'SHOW TABLES;'): NotebookData {
  const intro = target
    ? `# ${target.owner}/${target.name} @ ${target.ref}\n\nRun a cell with Ctrl+Enter. Change where a cell runs from its status bar.`
    : '# SQL notebook\n\nPick where the cells run from a cell status bar, then run a cell with Ctrl+Enter.';
  return {
    version: NOTEBOOK_FORMAT_VERSION,
    ...(target ? { target } : {}),
    cells: [
      { kind: 'markdown', source: intro },
      { kind: 'sql', source: firstQuery },
    ],
  };
}
