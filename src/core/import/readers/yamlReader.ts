import { readFile, stat } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { ImportParseError } from '../importParseError';
import { YAML_MAX_BYTES, type TableReader } from '../tableReader';
import { objectTable } from './objectRows';

/**
 * A sequence of mappings, or a mapping with a `rows` sequence. The `yaml` package parses whole
 * documents, so this format is read into memory and capped at YAML_MAX_BYTES.
 */
export async function openYamlReader(filePath: string, options: { signal?: AbortSignal }): Promise<TableReader> {
  const { size } = await stat(filePath);
  if (size > YAML_MAX_BYTES) {
    throw new ImportParseError(
      `the file is ${formatMiB(size)}; YAML files can be imported up to ${formatMiB(YAML_MAX_BYTES)} because YAML cannot be read in pieces. ` +
        'Convert it to CSV or JSON, or split it.',
      { fileType: 'yaml', reason: 'too-large' },
    );
  }
  const text = await readFile(filePath, { encoding: 'utf8', ...(options.signal ? { signal: options.signal } : {}) });
  // intAsBigInt keeps large integer ids exact; the core schema reads no dates (YAML 1.2).
  const doc = parseDocument(text, { intAsBigInt: true, uniqueKeys: true, prettyErrors: false });
  const problem = doc.errors[0];
  if (problem) {
    const line = problem.linePos?.[0]?.line;
    throw new ImportParseError(`${problem.message.split('\n')[0]}. Fix the YAML syntax there.`, {
      fileType: 'yaml',
      reason: 'bad-syntax',
      ...(line !== undefined ? { line } : {}),
      cause: problem,
    });
  }
  let data: unknown = doc.toJS({ maxAliasCount: 1000 });
  if (data === null || data === undefined) {
    throw new ImportParseError('the file is empty. Write the rows as a list of mappings, e.g. "- id: 1".', {
      fileType: 'yaml',
      reason: 'empty',
    });
  }
  if (!Array.isArray(data) && typeof data === 'object' && Array.isArray((data as { rows?: unknown }).rows)) {
    data = (data as { rows: unknown[] }).rows;
  }
  if (!Array.isArray(data)) {
    throw new ImportParseError('the document must be a list of mappings ("- id: 1"), or a mapping with a "rows" list.', {
      fileType: 'yaml',
      reason: 'bad-syntax',
    });
  }
  const list = data;
  let i = 0;
  const elements: AsyncIterator<unknown> = {
    async next(): Promise<IteratorResult<unknown>> {
      return i < list.length ? { done: false, value: list[i++] } : { done: true, value: undefined };
    },
  };
  return objectTable('yaml', elements, async () => undefined, options.signal);
}

function formatMiB(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}
