// One SQL statement of an import file as the parser reads it (sqlStatementParser.ts): its tokens
// without spaces or comments, strings and names decoded, and a cursor over them.
import { stringValue, identifierValue, tokenize as tokenizeSql } from '../../sql/sqlTokens';
import { MYSQL, SqlSyntaxError } from './sqlStatements';

export type Token =
  | { kind: 'word'; text: string; upper: string } // keyword or bare identifier
  | { kind: 'quoted'; text: string } // `name`
  | { kind: 'string'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'punct'; text: string };

/** One statement's tokens as the parser reads them: no spaces or comments, strings and names decoded. */
export function tokenize(sql: string, line: number): Token[] {
  const tokens: Token[] = [];
  const all = tokenizeSql(sql, MYSQL);
  for (let k = 0; k < all.length; k++) {
    const t = all[k]!;
    switch (t.kind) {
      case 'space':
      case 'comment':
        break;
      case 'string':
      case 'dquoted': // a string in MySQL
        if (t.unterminated) throw new SqlSyntaxError('a quoted string is never closed. Close the quote.', line);
        tokens.push({ kind: 'string', text: stringValue(t) });
        break;
      case 'bquoted':
        if (t.unterminated) throw new SqlSyntaxError('a `quoted name` is never closed.', line);
        tokens.push({ kind: 'quoted', text: identifierValue(t) });
        break;
      case 'number': {
        // 0x1F, 123abc, 1e (bad): a hex literal or a name, read as a word (a value must be a plain number).
        const after = all[k + 1];
        if (/^0x/i.test(t.text) || (after?.kind === 'word' && after.start === t.end)) {
          let text = t.text;
          while (all[k + 1]?.start === all[k]!.end && (all[k + 1]!.kind === 'word' || all[k + 1]!.kind === 'number'))
            text += all[++k]!.text;
          tokens.push({ kind: 'word', text, upper: text.toUpperCase() });
        } else {
          tokens.push({ kind: 'number', text: t.text });
        }
        break;
      }
      case 'word':
        tokens.push({ kind: 'word', text: t.text, upper: t.text.toUpperCase() });
        break;
      case 'punct':
        // Single characters, as the parser reads them (the tokenizer joins operators such as `<=`).
        for (const ch of t.text) tokens.push({ kind: 'punct', text: ch });
        break;
    }
  }
  return tokens;
}

/** Reads one statement's tokens in order, with the errors a parser of them raises. */
export class TokenCursor {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    readonly line: number,
  ) {}
  peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  next(): Token | undefined {
    return this.tokens[this.i++];
  }
  done(): boolean {
    return this.i >= this.tokens.length;
  }
  acceptWord(upper: string): boolean {
    const t = this.peek();
    return this.acceptIf(t?.kind === 'word' && t.upper === upper);
  }
  acceptPunct(text: string): boolean {
    const t = this.peek();
    return this.acceptIf(t?.kind === 'punct' && t.text === text);
  }
  /** Moves past the next token when `matches`. */
  private acceptIf(matches: boolean): boolean {
    if (matches) this.i++;
    return matches;
  }
  expectPunct(text: string, what: string): void {
    if (!this.acceptPunct(text)) throw this.error(`expected "${text}" ${what}`);
  }
  error(problem: string): SqlSyntaxError {
    const t = this.peek();
    return new SqlSyntaxError(`${problem}, found ${t ? `"${t.text}"` : 'the end of the statement'}.`, this.line);
  }
  /** A name, possibly qualified (`db`.`t` → t). */
  name(what: string): string {
    let t = this.next();
    if (!t || (t.kind !== 'word' && t.kind !== 'quoted' && t.kind !== 'string')) {
      this.i--;
      throw this.error(`expected ${what}`);
    }
    while (this.acceptPunct('.')) {
      const n = this.next();
      if (!n || (n.kind !== 'word' && n.kind !== 'quoted')) throw this.error(`expected ${what} after "."`);
      t = n;
    }
    return t.text;
  }
  nameList(what: string): string[] {
    this.expectPunct('(', `before the ${what} list`);
    const names: string[] = [];
    do {
      names.push(this.name(what));
      // index prefix lengths: KEY (name(10))
      if (this.acceptPunct('(')) this.skipGroup();
      if (!this.acceptWord('ASC')) this.acceptWord('DESC');
    } while (this.acceptPunct(','));
    this.expectPunct(')', `after the ${what} list`);
    return names;
  }
  /** Skips to the `)` that closes an already-opened `(`. */
  skipGroup(): Token[] {
    const inner: Token[] = [];
    let depth = 1;
    for (;;) {
      const t = this.next();
      if (!t) throw this.error('expected ")"');
      if (t.kind === 'punct' && t.text === '(') depth++;
      if (t.kind === 'punct' && t.text === ')' && --depth === 0) return inner;
      inner.push(t);
    }
  }
}
