// The text/markdown twin of a query output: what a notebook shows where the grid renderer is
// not available (GitHub preview, other editors) — the status banner and the first rows.
import type { QueryOutput } from '../../shared/queryResultOutput';
import { statusBanner } from '../../shared/queryResultOutput';
import { escapeMarkdownCell, toMarkdown } from '../../shared/queryResultFormat';
import { targetLabel } from './refs';

export const FALLBACK_ROWS = 20;

export function markdownFallback(output: QueryOutput, maxRows = FALLBACK_ROWS): string {
  const { result } = output;
  const parts: string[] = [];
  const at = output.commit && output.commit !== output.target.ref ? ` (commit ${output.commit.slice(0, 8)})` : '';
  parts.push(`*${escapeMarkdownCell(targetLabel(output.target))}${at} · ${result.rows.length} rows · ${Math.round(output.elapsedMs)} ms*`);
  const banner = statusBanner(result, output.limit);
  if (banner) {
    parts.push(
      `> **${escapeMarkdownCell(banner.title)}**${banner.message ? `  \n> ${escapeMarkdownCell(banner.message)}` : ''}  \n> ${escapeMarkdownCell(banner.advice)}`,
    );
  }
  if (result.columns.length) {
    parts.push(toMarkdown(result.columns, result.rows.slice(0, maxRows)).trimEnd());
    if (result.rows.length > maxRows) parts.push(`*… ${result.rows.length - maxRows} more rows*`);
  }
  return `${parts.join('\n\n')}\n`;
}
