// The three import steps as a client does them against the hub: create an upload session,
// PUT each part to its pre-signed URL (another origin, no Authorization), then createImport.
import { createHash } from 'node:crypto';
import { waitForOperation, type HubHandle, type HubResponse } from '../helpers/hub';

export interface UploadedParts {
  token: string;
  contents_key: string;
  completed_parts: { part_number: number; etag: string }[];
  file_parts_md5: string;
  file_size: number;
  parts: { part_number: number; url: string }[];
}

export function splitParts(data: Buffer, numParts: number): Buffer[] {
  const size = Math.ceil(data.length / numParts);
  return Array.from({ length: numParts }, (_, i) => data.subarray(i * size, Math.min(data.length, (i + 1) * size)));
}

export function filePartsMd5(parts: Buffer[]): string {
  const each = parts.map((p) => createHash('md5').update(p).digest('base64'));
  return createHash('md5').update(each.join('')).digest('base64');
}

export async function upload(
  hub: HubHandle,
  db: string,
  data: Buffer,
  fileType: string,
  numParts = 1,
  user = 'alice',
): Promise<UploadedParts> {
  const s = await hub.fetch(`/databases/${db}/imports/uploads`, {
    user,
    json: { content_length: data.length, num_parts: numParts, file_type: fileType },
  });
  if (s.status !== 201) throw new Error(`upload session: ${s.status} ${s.text}`);
  const session = s.body.data;
  const chunks = splitParts(data, numParts);
  const completed: { part_number: number; etag: string }[] = [];
  for (const part of session.parts) {
    const res = await fetch(part.url, { method: session.http_method, body: chunks[part.part_number - 1], redirect: 'manual' });
    if (res.status !== 200) throw new Error(`part ${part.part_number}: ${res.status} ${await res.text()}`);
    completed.push({ part_number: part.part_number, etag: res.headers.get('etag') ?? '' });
  }
  return {
    token: session.token,
    contents_key: session.contents_key,
    completed_parts: completed,
    file_parts_md5: filePartsMd5(chunks),
    file_size: data.length,
    parts: session.parts,
  };
}

export interface ImportOptions {
  primary_keys?: string[];
  column_map?: Record<string, string>;
  commit_message?: string;
  pull_request_branch_name?: string;
  file_name?: string;
  numParts?: number;
  user?: string;
}

export async function startImport(
  hub: HubHandle,
  db: string,
  branch: string,
  table: string,
  operation: string,
  fileType: string,
  data: Buffer,
  o: ImportOptions = {},
): Promise<HubResponse> {
  const up = await upload(hub, db, data, fileType, o.numParts ?? 1, o.user ?? 'alice');
  return hub.fetch(`/databases/${db}/imports`, {
    user: o.user ?? 'alice',
    json: {
      branch_name: branch,
      table_name: table,
      file_name: o.file_name ?? `${table}.${fileType}`,
      file_size: up.file_size,
      file_type: fileType,
      import_operation: operation,
      token: up.token,
      contents_key: up.contents_key,
      completed_parts: up.completed_parts,
      file_parts_md5: up.file_parts_md5,
      primary_keys: o.primary_keys ?? [],
      ...(o.commit_message ? { commit_message: o.commit_message } : {}),
      ...(o.pull_request_branch_name ? { pull_request_branch_name: o.pull_request_branch_name } : {}),
      ...(o.column_map ? { column_map: o.column_map } : {}),
    },
  });
}

/** Imports and waits; returns the finished operation. */
export async function importFile(
  hub: HubHandle,
  db: string,
  branch: string,
  table: string,
  operation: string,
  fileType: string,
  data: Buffer,
  o: ImportOptions = {},
): Promise<any> {
  const r = await startImport(hub, db, branch, table, operation, fileType, data, o);
  if (r.status !== 202) throw new Error(`createImport: ${r.status} ${r.text}`);
  return waitForOperation(hub, r.body.data.id, o.user ?? 'alice');
}

export async function importCsv(
  hub: HubHandle,
  db: string,
  branch: string,
  table: string,
  operation: string,
  csv: string,
  o: ImportOptions = {},
): Promise<any> {
  const op = await importFile(hub, db, branch, table, operation, 'csv', Buffer.from(csv), o);
  if (op.status !== 'succeeded') throw new Error(`import failed: ${JSON.stringify(op.error)}`);
  return op;
}
