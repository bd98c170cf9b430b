// The SQL an import file holds, split into statements as it streams in, in MySQL's lexical rules
// (what mysqldump and Dolt's `dolt dump` write). Where quotes and comments begin and end is
// decided by the one SQL tokenizer, src/core/sql/sqlTokens.ts (with MySQL's `-- ` rule); this file
// only splits its tokens into statements. Reading CREATE TABLE and INSERT from a statement:
// sqlStatementParser.ts, over the tokens of sqlTokenCursor.ts.
import { MYSQL_SCAN, scanToken, type ScanOptions, type SqlTokenKind } from '../../sql/sqlTokens';

/** MySQL's lexical rules, for the splitter and the parser's tokens alike. */
export const MYSQL: ScanOptions = MYSQL_SCAN;

/** Largest single statement read into memory; dumps split inserts far below this. */
export const MAX_SQL_STATEMENT_CHARS = 64 * 1024 * 1024;

export interface SqlStatement {
  text: string;
  /** 1-based line of the statement's first character. */
  line: number;
}

export class SqlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly kind: 'syntax' | 'unsupported' | 'too-large' = 'syntax',
  ) {
    super(message);
  }
}

/**
 * How many characters after a token can change where it ends (`1e+5`, `<=>`, `-- `; see
 * scanToken): a token ending closer than this to the end of the text read so far waits for more.
 */
const LOOKAHEAD = 4;

/** Splits a stream of text into statements at top-level `;`, dropping comments. */
export class SqlStatementSplitter {
  /** Text not yet split into final tokens. */
  private text = '';
  /** The current statement's final tokens (comments as a space). */
  private parts: string[] = [];
  private partsLength = 0;
  /** Line at the start of `text`. */
  private line = 1;
  private startLine = 0; // 0: statement has no non-blank character yet
  private previous: SqlTokenKind | undefined;
  /**
   * When one token (a long string) spans chunks, it is scanned again only once the text has
   * doubled, so a huge or never-closed string costs linear time, not quadratic.
   */
  private waitFor = 0;

  push(chunk: string): SqlStatement[] {
    this.text += chunk;
    if (this.text.length < this.waitFor) {
      this.checkSize();
      return [];
    }
    return this.scan(false);
  }

  end(): SqlStatement[] {
    const out = this.scan(true);
    if (this.startLine !== 0 && this.parts.join('').trim() !== '') out.push({ text: this.parts.join(''), line: this.startLine });
    this.parts = [];
    this.partsLength = 0;
    this.startLine = 0;
    return out;
  }

  private scan(final: boolean): SqlStatement[] {
    const out: SqlStatement[] = [];
    const text = this.text;
    const limit = final ? text.length : text.length - LOOKAHEAD;
    // Lines are counted up to `counted` only when one is needed, so a long line is walked once.
    let counted = 0;
    const lineAt = (p: number): number => {
      for (; counted < p; counted++) if (text.charCodeAt(counted) === 10) this.line++;
      return this.line;
    };
    let i = 0;
    let seg = 0; // start of the text still to be appended to the statement
    while (i < text.length) {
      const t = scanToken(text, i, this.previous, MYSQL);
      if (t.end > limit && !final) break;
      if (t.unterminated) {
        this.append(text.slice(seg, i));
        if (t.kind === 'comment') throw new SqlSyntaxError('a /* comment is never closed. Close it with */.', lineAt(t.end));
        throw new SqlSyntaxError('a quoted string or name is never closed. Close the quote.', this.startLine || lineAt(i));
      }
      if (t.kind === 'punct' && t.end === i + 1 && text.charCodeAt(i) === 59 /* ; */) {
        this.append(text.slice(seg, i));
        if (this.startLine !== 0) out.push({ text: this.parts.join(''), line: this.startLine });
        this.parts = [];
        this.partsLength = 0;
        this.startLine = 0;
        seg = t.end;
      } else if (t.kind === 'comment') {
        this.append(text.slice(seg, i) + ' ');
        seg = t.end;
      } else if (this.startLine === 0 && t.kind !== 'space') {
        this.startLine = lineAt(i);
      }
      this.previous = t.kind;
      i = t.end;
    }
    this.append(text.slice(seg, i));
    lineAt(i);
    this.text = text.slice(i);
    this.waitFor = 2 * this.text.length;
    this.checkSize();
    return out;
  }

  private append(part: string): void {
    if (part === '') return;
    this.parts.push(part);
    this.partsLength += part.length;
  }

  private checkSize(): void {
    if (this.partsLength + this.text.length > MAX_SQL_STATEMENT_CHARS) {
      throw new SqlSyntaxError(
        `the statement starting here is over ${MAX_SQL_STATEMENT_CHARS / 1024 / 1024} MiB. Split it into several INSERT statements (mysqldump --net-buffer-length).`,
        this.startLine || this.line,
        'too-large',
      );
    }
  }
}
