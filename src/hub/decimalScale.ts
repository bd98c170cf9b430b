// MySQL prints a DECIMAL(p,s) value with its declared scale ("0.50"); SQLite keeps it as a number
// ("0.5"). The scale of each result column, and a value's text with it (selectRunner.ts).
import type { Sqlite3, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import { UserColumnTypes } from './doltSql/engineContext';

/** SQLite keeps decimal(p,s) values as numbers ("0.5"); MySQL prints the declared scale ("0.50"). */
export function decimalScales(capi: Sqlite3['capi'], conn: Sqlite3Db, meta: number, n: number): (number | undefined)[] {
  const userCols = new UserColumnTypes(conn);
  const scales: (number | undefined)[] = [];
  for (let i = 0; i < n; i++) {
    const m = /^\s*(?:decimal|numeric)\s*\(\s*\d+\s*,\s*(\d+)\s*\)/i.exec(userCols.declType(capi, meta, i) ?? '');
    scales.push(m ? Number(m[1]) : undefined);
  }
  return scales;
}

/**
 * A DECIMAL's text with `scale` digits after the point (`-?digits(.digits)?` only; any other text,
 * or one with more digits than the scale, as it is).
 */
export function withScale(text: string, scale: number): string {
  const n = text.length;
  let i = text.charCodeAt(0) === 0x2d ? 1 : 0;
  const intStart = i;
  while (i < n && isDigit(text.charCodeAt(i))) i++;
  if (i === intStart) return text;
  const point = i;
  if (i < n) {
    if (text.charCodeAt(i) !== 0x2e || i + 1 === n) return text;
    for (i++; i < n; i++) if (!isDigit(text.charCodeAt(i))) return text;
  }
  const frac = point < n ? n - point - 1 : 0;
  if (frac > scale) return text;
  if (scale === 0) return text.slice(0, point);
  return frac === scale ? text : (point < n ? text : text + '.') + '0'.repeat(scale - frac);
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
