// Show History of a table and Show Row History, with a scripted UI and a fake SQL server that
// answers HASHOF, DOLT_LOG(…, '--tables', t), DESCRIBE and dolt_history_<t> from its own data.
import { strict as assert } from 'node:assert';
import type { DatabaseRef, QueryResult } from '../../../src/shared/wire';
import { ScriptedUi, pick } from '../../helpers/scriptedUi';
import { silent } from '../../helpers/memoryFakes';
import { portOver } from '../../helpers/sqlPorts';
import { Commands } from '../../../src/shared/ids';
import {
  showCommitChanges,
  rowHistoryRequestOf,
  showRowHistory,
  showTableHistory,
  tableHistoryRequestOf,
  type HistoryEnv,
} from '../../../src/commands/historyCommands';
import { rowHistoryGrid, rowHistoryRequestFromGrid, type LoadedRowHistory } from '../../../src/core/review/rowHistoryView';

const DB: DatabaseRef = { owner: 'alice', name: 'prices' };
const target = { hostId: 'h', db: DB };
const hash = (n: number): string => `d${String(n).padStart(31, '0')}`;
const text = (names: string[], rows: (string | null)[][], status = 'success'): QueryResult =>
  ({ status, columns: names.map((name) => ({ name, type: 'text' })), rows }) as QueryResult;

class FakeSql {
  sent: { ref: string; q: string }[] = [];
  /** Commits that changed `products`, newest first: 0..n-1 (as hashes d…n). */
  tableCommits = 3;
  async runSql(_db: DatabaseRef, query: { ref: string; q: string; limit?: number }): Promise<QueryResult> {
    this.sent.push(query);
    if (query.q.startsWith('SELECT HASHOF(')) return text(['commit_hash'], [[hash(99)]]);
    const log = /DOLT_LOG\('(d\d{31})', '--parents', '--tables', 'products'\) LIMIT (\d+)(?: OFFSET (\d+))?$/.exec(query.q);
    if (log) {
      const all = Array.from({ length: this.tableCommits }, (_, i) => [
        hash(i),
        'Alice',
        'a@x',
        '2026-01-02 10:00:00',
        `products change ${i}`,
        hash(i + 1),
      ]);
      const off = Number(log[3] ?? 0);
      return text(['commit_hash', 'committer', 'email', 'date', 'message', 'parents'], all.slice(off, off + Number(log[2])));
    }
    if (query.q === 'DESCRIBE `products`')
      return text(
        ['Field', 'Type', 'Null', 'Key'],
        [
          ['id', 'int', 'NO', 'PRI'],
          ['name', 'text', 'YES', ''],
          ['price', 'decimal(10,2)', 'YES', ''],
        ],
      );
    if (query.q.includes('FROM `dolt_history_products` AS h') && query.q.includes('WHERE h.`id` = 3')) {
      // Newest first: price changed in c7, name in c4, created in c2 (c3 unchanged).
      return text(
        ['id', 'name', 'price', 'commit_hash', 'committer', 'commit_date'],
        [
          ['3', 'Pear', '2.00', hash(7), 'Bob', '2026-01-07 10:00:00'],
          ['3', 'Pear', '1.50', hash(4), 'Alice', '2026-01-04 10:00:00'],
          ['3', 'pear', '1.50', hash(3), 'Alice', '2026-01-03 10:00:00'],
          ['3', 'pear', '1.50', hash(2), 'Alice', '2026-01-02 10:00:00'],
        ],
      );
    }
    throw new Error(`unexpected SQL ${query.q}`);
  }
}

function env(ui: ScriptedUi, sql: FakeSql, commands: string[] = []) {
  const executed: unknown[][] = [];
  const opened: LoadedRowHistory[] = [];
  const e: HistoryEnv = {
    ui,
    log: silent,
    sql: portOver(sql),
    hasCommand: async (id) => commands.includes(id),
    execute: async (id, ...args) => executed.push([id, ...args]),
    commands: { newSqlNotebookAtCommit: 'nb.atCommit' },
    openRowHistory: (_req, loaded) => void opened.push(loaded),
  };
  return { e, executed, opened };
}

describe('history commands', () => {
  it('refuse malformed requests with a clear message', () => {
    assert.match(String(tableHistoryRequestOf(undefined)), /needs a database, a ref and a table/);
    assert.match(String(tableHistoryRequestOf({ ...target, ref: 'main' })), /needs a table name/);
    assert.match(String(rowHistoryRequestOf({ ...target, ref: 'main', table: 't' })), /primary-key values/);
    assert.match(String(rowHistoryRequestOf({ ...target, ref: 'main', table: 't', key: { id: 3 } })), /must be text or NULL/);
    assert.deepEqual(rowHistoryRequestOf({ ...target, ref: 'main', table: 't', key: { id: '3' }, column: 'price' }), {
      target,
      ref: 'main',
      table: 't',
      key: { id: '3' },
      column: 'price',
    });
    // The declared RowHistoryRequest shape (what the table browser sends) is taken as it is.
    const declared = { target, ref: 'main', table: 't', key: { id: '3' }, column: 'price' };
    assert.deepEqual(rowHistoryRequestOf(declared), declared);
    assert.deepEqual(tableHistoryRequestOf({ target, ref: 'v1', table: 't' }), { target, ref: 'v1', table: 't' });
    // A table node of the tree: its history at the ref it was listed under.
    const tableNode = {
      kind: 'table',
      hostId: 'h',
      db: DB,
      table: { name: 'products', kind: 'table' },
      parent: { kind: 'tables', ref: 'v1', commit: hash(1) },
    };
    assert.deepEqual(tableHistoryRequestOf(tableNode), { target, ref: 'v1', table: 'products' });
  });

  it('Show History lists the commits that changed the table at the pinned head, loads more, and opens a notebook at the one picked', async () => {
    const sql = new FakeSql();
    sql.tableCommits = 60;
    const ui = new ScriptedUi([pick('Load more commits…'), pick('products change 55'), pick('New SQL Notebook at This Commit')]);
    const { e, executed } = env(ui, sql);
    const c = await showTableHistory(e, { target, ref: 'main', table: 'products' });
    assert.equal(c?.hash, hash(55));
    assert.deepEqual(executed, [['nb.atCommit', { hostId: 'h', db: DB, ref: hash(55) }]]);
    // Pinned once; both pages read at the pinned hash, the second from offset 50.
    const logs = sql.sent.filter((s) => s.q.includes('DOLT_LOG'));
    assert.deepEqual(
      logs.map((s) => s.ref),
      [hash(99), hash(99)],
    );
    assert.match(logs[1]!.q, /LIMIT 51 OFFSET 50$/);
    assert.equal(sql.sent.filter((s) => s.q.startsWith('SELECT HASHOF')).length, 1);
  });

  it('offers Show Changes only once the command exists, and sends it a commit ChangesRequest for the table', async () => {
    const sql = new FakeSql();
    let ui = new ScriptedUi([
      pick('products change 1'),
      (labels: string[]) => (assert.ok(!labels.some((l) => /Show Changes/.test(l)), labels.join()), undefined),
    ] as never);
    await showTableHistory(env(ui, sql).e, { ...target, ref: 'main', table: 'products' });
    ui = new ScriptedUi([pick('products change 1'), pick('Show Changes')]);
    const { e, executed } = env(ui, sql, [Commands.showChanges]);
    await showTableHistory(e, { target, ref: 'main', table: 'products' });
    assert.deepEqual(executed, [[Commands.showChanges, { kind: 'commit', target, commit: hash(1), table: 'products' }]]);
  });

  it('Show Row History reads every version at the pinned commit and blames the cell asked about', async () => {
    const sql = new FakeSql();
    const ui = new ScriptedUi([]);
    const { e, opened } = env(ui, sql);
    const loaded = await showRowHistory(e, { target, ref: 'main', table: 'products', key: { id: '3' }, column: 'name' });
    assert.equal(opened.length, 1);
    assert.equal(loaded!.commit, hash(99));
    assert.deepEqual(
      loaded!.history.versions.map((v) => v.commit),
      [hash(7), hash(4), hash(2)],
    );
    assert.equal(loaded!.blame?.blame?.commit, hash(4));
    assert.equal(loaded!.blame?.blame?.committer, 'Alice');
    // The grid: newest first, old values only where cells changed, the oldest version marked as the row's start.
    const grid = rowHistoryGrid(loaded!);
    assert.deepEqual(
      grid.columns.map((c) => c.name),
      ['commit', 'author', 'date', 'id', 'name', 'price'],
    );
    assert.deepEqual(grid.kinds, ['modified', 'modified', 'added']);
    assert.deepEqual(grid.old[0]!.slice(3), ['3', 'Pear', '1.50']);
    assert.deepEqual(grid.rows[0]!.slice(3), ['3', 'Pear', '2.00']);
    assert.equal(grid.old[2], null);
    assert.ok(
      sql.sent.every((s) => s.ref === 'main' || s.ref === hash(99)),
      'all reads after the pin are at the pinned commit',
    );
  });

  it('Show Row History refuses a key that is not the primary key, and a column the table lacks', async () => {
    const ui = new ScriptedUi([]);
    const { e, opened } = env(ui, new FakeSql());
    await showRowHistory(e, { ...target, ref: 'main', table: 'products', key: { name: 'x' } });
    await showRowHistory(e, { ...target, ref: 'main', table: 'products', key: { id: '3' }, column: 'nope' });
    assert.equal(opened.length, 0);
    assert.match(String((ui.errors[0] as Error).message), /needs a value for id/);
    assert.match(String((ui.errors[1] as Error).message), /has no column nope/);
  });
});

describe('Show Changes on a commit node', () => {
  it('sends the commit ChangesRequest to versionedDb.showChanges; anything else is refused', async () => {
    const ui = new ScriptedUi([]);
    const executed: unknown[][] = [];
    const env = { ui, execute: async (id: string, ...a: unknown[]) => executed.push([id, ...a]) };
    const node = { kind: 'commit', hostId: 'h', db: DB, commit: { hash: hash(4) }, parent: {} };
    assert.deepEqual(await showCommitChanges(env, node), { kind: 'commit', target, commit: hash(4) });
    assert.deepEqual(executed, [[Commands.showChanges, { kind: 'commit', target, commit: hash(4) }]]);
    assert.equal(await showCommitChanges(env, { kind: 'branch' }), undefined);
    assert.match(ui.infos[0]!, /works on a commit/);
  });
});

describe('row history from a grid row', () => {
  it('names the row by its key columns at the commit the grid shows', async () => {
    const output = {
      v: 1,
      kind: 'paged',
      sourceId: 's',
      pageSize: 10,
      serverSort: true,
      serverFilter: true,
      title: 't',
      columns: [
        { name: 'name', type: 'text' },
        { name: 'id', type: 'int' },
        { name: 'region', type: 'text' },
      ],
      target: { hostId: 'h', owner: 'alice', name: 'prices', ref: 'main' },
      commit: hash(5),
      rowsOf: { table: 'products', keyColumns: [1, 2] },
    } as const;
    assert.deepEqual(rowHistoryRequestFromGrid(output as never, ['3', 'north'], 'name'), {
      target,
      ref: hash(5),
      table: 'products',
      key: { id: '3', region: 'north' },
      column: 'name',
    });
    assert.equal(rowHistoryRequestFromGrid(output as never, ['3']), undefined);
    assert.equal(rowHistoryRequestFromGrid({ ...output, rowsOf: undefined } as never, ['3']), undefined);
  });
});
