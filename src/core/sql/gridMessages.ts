// Checks what the result grid (a webview) sends the host before anything is acted on.
import * as path from 'node:path';
import type { GridToHostMessage } from '../../shared/queryResultOutput';
import { EXPORT_FORMATS, type ExportFormat } from '../../shared/queryResultFormat';

export function parseGridMessage(raw: unknown): GridToHostMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  if (m.type === 'ready') return { type: 'ready' };
  if (m.type === 'focused') return { type: 'focused' };
  if (m.type === 'copy' && typeof m.text === 'string') {
    return { type: 'copy', text: m.text, format: String(m.format ?? ''), rows: Number(m.rows) || 0 };
  }
  if (
    m.type === 'export' &&
    typeof m.content === 'string' &&
    typeof m.suggestedName === 'string' &&
    (EXPORT_FORMATS as readonly unknown[]).includes(m.format)
  ) {
    return {
      type: 'export',
      format: m.format as ExportFormat,
      content: m.content,
      suggestedName: m.suggestedName,
      rows: Number(m.rows) || 0,
    };
  }
  return undefined;
}

/** A file name from the grid, reduced to a safe base name (no folders, no odd characters). */
export function safeFileName(name: string, format: ExportFormat): string {
  const base =
    path
      .basename(name)
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^\.+/, '') || 'result';
  const ext = format === 'markdown' ? '.md' : `.${format}`;
  return base.toLowerCase().endsWith(ext) ? base : `${base}${ext}`;
}
