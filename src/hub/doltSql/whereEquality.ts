// Finds `[x.]column = 'value'` (or `= HASHOF('value')`, on either side) in a query's tokens: how
// the rewriter reads the commits a `dolt_commit_diff_<t>` query names in its WHERE clause.
import { SQLITE_SCAN, closingParen, identifierValue, splitArguments, stringValue, type SqlToken } from '../../core/sql/sqlTokens';

/** The revision compared with `column` after token `from`, and where its literal is (to rewrite it). */
export function findEquality(toks: readonly SqlToken[], column: string, from: number): { spec: string; literalAt?: number } | undefined {
  const isPunct = (i: number, text: string): boolean => {
    const t = toks[i];
    return t !== undefined && t.kind === 'punct' && t.text === text;
  };
  const valueAt = (k: number): { spec: string; literalAt?: number } | undefined => {
    const v = toks[k];
    if (!v) return undefined;
    if (v.kind === 'string') return { spec: stringValue(v, SQLITE_SCAN), literalAt: k };
    if (v.kind === 'word' && ['hashof', 'dolt_hashof'].includes(v.text.toLowerCase()) && isPunct(k + 1, '(')) {
      const close = closingParen(toks, k + 1);
      const args = close > 0 ? splitArguments(toks, k + 1, close) : [];
      const a = args[0];
      if (args.length === 1 && a && a.length === 1 && a[0]?.kind === 'string') return { spec: stringValue(a[0], SQLITE_SCAN) };
    }
    return undefined;
  };
  for (let k = from; k < toks.length; k++) {
    const t = toks[k] as SqlToken;
    if (t.kind === 'punct' && t.text === ';') break;
    const isCol =
      (t.kind === 'word' || t.kind === 'bquoted' || t.kind === 'dquoted') &&
      identifierValue(t).toLowerCase() === column &&
      !isPunct(k + 1, '.');
    if (!isCol) continue;
    if (isPunct(k + 1, '=')) {
      const v = valueAt(k + 2);
      if (v) return v;
    }
    if (isPunct(k - 1, '=')) {
      // value = [x.]column
      let lhs = k - 2;
      if (isPunct(k - 1, '=') && isPunct(k - 2, '.')) lhs = k - 4;
      const v = valueAt(lhs);
      if (v) return v;
    }
  }
  return undefined;
}
