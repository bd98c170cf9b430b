// Editing a table (issue #23) against the real hub: the host's editing session (src/views/
// tableEditing.ts, with the change set store) asks the hub which new keys the table already has,
// at the base commit the browser reads at, not at the branch's head. Which keys exist is read
// independently with a plain SELECT at that commit; a BIGINT key past 2^53 compares exactly.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql, hubSqlPort } from '../helpers/hubSql';
import { importCsv } from './importFlow';
import type { HostEditMessage } from '../../src/shared/editProtocol';
import type { Logger } from '../../src/core/logger';
import { TableCatalogCache } from '../../src/core/sql/tableCatalog';
import { keysFirst } from '../../src/core/paging/tableOpening';
import { ChangeSetStore } from '../../src/views/changeSetStore';
import { TableEditing } from '../../src/views/tableEditing';

class MemoryMemento implements vscode.Memento {
  private readonly data = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.data.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return (this.data.has(key) ? this.data.get(key) : fallback) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, value);
  }
}

const log = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined } as unknown as Logger;
const BIG = '9007199254740992';
const BIG_PLUS_ONE = '9007199254740993';

describe('table editing against the hub: new keys checked at the base commit', function () {
  let hub: HubHandle;
  const prices = hubSql(() => hub, 'alice/prices');
  let base = '';

  before(async function () {
    hub = await startHub({ seed: true });
    // A key at 2^53 (a double cannot tell it from 2^53 + 1), then the base; then a row added after it.
    await importCsv(hub, 'alice/prices', 'main', 'products', 'update', `id,name\n${BIG},Big\n`);
    base = (await prices.ok("SELECT hash FROM dolt_branches WHERE name = 'main'")).rows[0]?.[0] as string;
    await importCsv(hub, 'alice/prices', 'main', 'products', 'update', 'id,name\n50,Later\n');
  });
  after(async () => hub?.stop());

  it('marks the new keys the table has at the base as duplicates, and no others', async () => {
    const head = (await prices.ok("SELECT hash FROM dolt_branches WHERE name = 'main'")).rows[0]?.[0] as string;
    assert.notEqual(head, base, 'main moved on after the base');
    // The extension's SQL port over the hub's API: the catalog at the base, and the key checks there.
    const port = hubSqlPort(() => hub);
    const catalog = new TableCatalogCache(port);
    const columns = keysFirst(await catalog.columns('h', { owner: 'alice', name: 'prices' }, base, 'products'));
    const grid = columns.map((c) => ({ name: c.name, type: c.type, is_primary_key: c.primaryKey, source_table: 'products' }));
    const posted: HostEditMessage[] = [];
    const store = new ChangeSetStore(new MemoryMemento(), log);
    const scope = { hostId: 'h', owner: 'alice', name: 'prices', branch: 'main', table: 'products', baseCommit: base };
    const editing = new TableEditing(
      {
        store,
        log,
        run: port.at({ hostId: 'h', db: { owner: 'alice', name: 'prices' }, ref: base }),
        post: (m) => posted.push(m),
        rebased: () => undefined,
      },
      { scope, columns: grid, keyColumns: [0], nullable: columns.map((c) => c.nullable !== false) },
      'src',
    );
    const wanted = ['2', '0003', BIG_PLUS_ONE, BIG, '50', '777'];
    await editing.handle({ type: 'edit.apply', sourceId: 'src', request: { kind: 'addRows', count: wanted.length } });
    await editing.handle({
      type: 'edit.apply',
      sourceId: 'src',
      request: {
        kind: 'set',
        edits: wanted.flatMap((key, i) => [
          { row: { newRow: i + 1 }, column: 0, value: key },
          { row: { newRow: i + 1 }, column: 1, value: `new ${i}` },
        ]),
      },
    });
    await editing.checkKeys();
    editing.dispose();

    // What the table holds at the base, read plainly there.
    const atBase = new Set((await prices.ok('SELECT id FROM products', base)).rows.map((r) => BigInt(r[0] as string)));
    const duplicates = wanted.filter((k) => atBase.has(BigInt(k)));
    assert.deepEqual(duplicates, ['2', '0003', BIG], 'the plain read agrees on which keys are taken (50 came after the base)');
    const snap = editing.changeSet.snapshot();
    assert.deepEqual(
      snap.problems.map((p) => [snap.inserted[p.row ?? -1]?.[0], p.message]),
      duplicates.map((k) => [k, `A row with id = ${k} already exists in products.`]),
    );
    assert.equal(editing.changeSet.counts().pending, 0, 'every key was answered');
    const last = posted.filter((m) => m.type === 'edit.overlay').pop();
    assert.ok(last && last.type === 'edit.overlay' && last.counts.problems === 3 && last.counts.pending === 0, JSON.stringify(last?.type));
    assert.deepEqual(
      posted.filter((m) => m.type === 'edit.refused'),
      [],
    );
  });

  it('a check the server fails is said in the grid, the keys stay unchecked, and the next edit asks again', async () => {
    let calls = 0;
    let fail = true;
    const port = hubSqlPort(() => hub);
    const real = port.at({ hostId: 'h', db: { owner: 'alice', name: 'prices' }, ref: base });
    const posted: HostEditMessage[] = [];
    const scope = { hostId: 'h', owner: 'alice', name: 'prices', branch: 'main', table: 'products', baseCommit: base };
    const editing = new TableEditing(
      {
        store: new ChangeSetStore(new MemoryMemento(), log),
        log,
        run: async (sql, opts) => {
          calls++;
          if (fail) throw new Error('the server is away');
          return real(sql, opts);
        },
        post: (m) => posted.push(m),
        rebased: () => undefined,
      },
      {
        scope,
        columns: [
          { name: 'id', type: 'int', is_primary_key: true, source_table: 'products' },
          { name: 'name', type: 'varchar(100)', is_primary_key: false, source_table: 'products' },
        ],
        keyColumns: [0],
        nullable: [false, true],
      },
      'src',
    );
    const add = (key: string, row: number): Promise<void> =>
      editing.handle({
        type: 'edit.apply',
        sourceId: 'src',
        request: { kind: 'set', edits: [{ row: { newRow: row }, column: 0, value: key }] },
      });
    await editing.handle({ type: 'edit.apply', sourceId: 'src', request: { kind: 'addRows', count: 2 } });
    await add('2', 1);
    await editing.checkKeys();
    // Each failed check says why in the grid (the edit's own and the one asked for here).
    const refused = posted.filter((m) => m.type === 'edit.refused');
    assert.ok(refused.length >= 1);
    for (const r of refused) {
      assert.match(JSON.stringify(r), /Could not check whether the new keys are free .*the server is away/);
    }
    assert.equal(editing.changeSet.counts().pending, 1, 'the key stays unchecked');
    // The server is back: the next edit checks both keys (the unchecked one too).
    fail = false;
    const before = calls;
    await add('777', 2);
    await editing.checkKeys();
    editing.dispose();
    assert.ok(calls > before);
    assert.equal(editing.changeSet.counts().pending, 0, 'every key was answered');
    assert.deepEqual(
      editing.changeSet.snapshot().problems.map((p) => p.message),
      ['A row with id = 2 already exists in products.'],
    );
  });
});
