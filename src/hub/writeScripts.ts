// The hub's writes as an engine worker applies them on a writable connection at the database's
// default branch (engineWorker.ts persists the file afterwards): a branch, a tag, a batch of
// statements committed on a branch, a merge (from a branch of the same database or of a fork),
// an import. The caller has set the author in the connection's Dolt config.
import type { Sqlite3, Sqlite3Db } from '@dolthub/doltlite-wasm/sqlite3-node.mjs';
import type { Author, DbFile, Revision, WriteResult, WriteScript } from './engineProtocol';
import { engineMessage } from './selectRunner';
import { runImport } from './tableImport';

export interface ScriptContext {
  sqlite3: Sqlite3;
  /** The commit a revision names, or null when it does not exist. */
  revisionHex(rev: Revision): string | null;
  /** Loads a fork's file into the worker's memory; its path there. */
  loadFork(db: DbFile): string;
}

export async function applyScript(conn: Sqlite3Db, author: Author, script: WriteScript, ctx: ScriptContext): Promise<WriteResult> {
  const authorArg = `${author.name} <${author.email}>`;
  switch (script.kind) {
    case 'branch':
    case 'tag':
      return branchOrTag(conn, script, ctx);
    case 'sql': {
      conn.exec(`SELECT dolt_checkout(?)`, { bind: [script.branch] });
      conn.exec('BEGIN');
      try {
        for (const s of script.statements) conn.exec(s);
        conn.exec('COMMIT');
      } catch (e) {
        conn.exec('ROLLBACK');
        throw e;
      }
      const args = ['-A', '-m', script.message, '--author', authorArg];
      if (script.date) args.push('--date', script.date);
      const hex = String(conn.selectValue(`SELECT dolt_commit(${args.map(() => '?').join(', ')})`, args));
      return { ok: true, commitHex: hex, sizeBytes: 0 };
    }
    case 'merge':
      return merge(conn, script, ctx);
    case 'import':
      return runImport(conn, script.spec, authorArg);
    case 'create':
      return { ok: true, sizeBytes: 0 };
  }
}

function branchOrTag(conn: Sqlite3Db, script: Extract<WriteScript, { kind: 'branch' | 'tag' }>, ctx: ScriptContext): WriteResult {
  const start = ctx.revisionHex(script.from);
  if (!start) return { ok: false, code: 'NOT_FOUND', message: 'The source revision does not exist.' };
  if (script.kind === 'branch') conn.exec(`SELECT dolt_branch(?, ?)`, { bind: [script.name, start] });
  else if (script.message !== undefined) conn.exec(`SELECT dolt_tag('-m', ?, ?, ?)`, { bind: [script.message, script.name, start] });
  else conn.exec(`SELECT dolt_tag(?, ?)`, { bind: [script.name, start] });
  return { ok: true, commitHex: start, sizeBytes: 0 };
}

function merge(conn: Sqlite3Db, script: Extract<WriteScript, { kind: 'merge' }>, ctx: ScriptContext): WriteResult {
  let source = script.fromBranch;
  let remote: string | undefined;
  if (script.fromFile) {
    const forkMem = ctx.loadFork(script.fromFile);
    remote = `fork_${Date.now().toString(36)}`;
    conn.exec(`SELECT dolt_remote('add', ?, ?)`, { bind: [remote, 'file://' + forkMem] });
    conn.exec(`SELECT dolt_fetch(?)`, { bind: [remote] });
    source = `${remote}/${script.fromBranch}`;
  }
  conn.exec(`SELECT dolt_checkout(?)`, { bind: [script.toBranch] });
  conn.exec('BEGIN');
  try {
    conn.selectValue(`SELECT dolt_merge(?, '--no-ff', '-m', ?)`, [source, script.message]);
  } catch (e) {
    return failedMerge(conn, e);
  }
  // A clean dolt_merge commits and ends the transaction itself.
  if (ctx.sqlite3.capi.sqlite3_get_autocommit(conn.pointer) === 0) conn.exec('COMMIT');
  if (remote) conn.exec(`SELECT dolt_remote('remove', ?)`, { bind: [remote] });
  const hex = String(conn.selectValue(`SELECT dolt_hashof('HEAD')`));
  return { ok: true, commitHex: hex, sizeBytes: 0 };
}

/** A merge that failed inside its transaction: the conflicting tables, or the engine's message. */
function failedMerge(conn: Sqlite3Db, e: unknown): WriteResult {
  let tables: string[] = [];
  try {
    tables = conn.selectObjects(`SELECT "table" FROM dolt_conflicts`).map((r) => String(r['table']));
  } catch {
    // Not a conflict: the message says what went wrong.
  }
  try {
    conn.exec('ROLLBACK');
  } catch {
    /* already rolled back */
  }
  if (tables.length > 0) {
    return {
      ok: false,
      code: 'CONFLICT',
      message: `Merge conflict in table${tables.length > 1 ? 's' : ''}: ${tables.join(', ')}`,
      tables,
    };
  }
  return { ok: false, code: 'UNPROCESSABLE', message: engineMessage(e) };
}
