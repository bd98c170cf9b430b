// Finds `[x.]column = 'value'` (or `= HASHOF('value')`, or `= DOLT_MERGE_BASE('a', 'b')`, on either
// side) in a query's tokens: how the rewriter reads the commits a `dolt_commit_diff_<t>` query
// names in its WHERE clause, as Dolt's documentation writes them.
import { SQLITE_SCAN, closingParen, identifierValue, splitArguments, stringValue, type SqlToken } from '../../core/sql/sqlTokens';

/** A revision compared with a column: a spec, or the merge base of two specs. */
export type FoundRevision = ({ spec: string } | { mergeBase: [string, string] }) & { literalAt?: number };

/** The revision compared with `column` after token `from`, and where its literal is (to rewrite it). */
export function findEquality(toks: readonly SqlToken[], column: string, from: number): FoundRevision | undefined {
  const isPunct = (i: number, text: string): boolean => {
    const t = toks[i];
    return t !== undefined && t.kind === 'punct' && t.text === text;
  };
  const valueAt = (k: number): FoundRevision | undefined => {
    const v = toks[k];
    if (!v) return undefined;
    if (v.kind === 'string') return { spec: stringValue(v, SQLITE_SCAN), literalAt: k };
    if (v.kind !== 'word' || !isPunct(k + 1, '(')) return undefined;
    const fn = v.text.toLowerCase();
    const close = closingParen(toks, k + 1);
    const args = close > 0 ? splitArguments(toks, k + 1, close) : [];
    if (!args.every((a) => a.length === 1 && a[0]?.kind === 'string')) return undefined;
    const values = args.map((a) => stringValue(a[0] as SqlToken, SQLITE_SCAN));
    if (['hashof', 'dolt_hashof'].includes(fn) && values.length === 1) return { spec: values[0] as string };
    if (fn === 'dolt_merge_base' && values.length === 2) return { mergeBase: values as [string, string] };
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
