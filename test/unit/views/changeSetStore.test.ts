// The host's change sets in workspace storage: written a moment after an edit (and at once on
// flush), read back whole by a new store (a reloaded window), found per table of a branch, moved
// by a rebase, forgotten by delete; listeners hear who changed what.
import { strict as assert } from 'node:assert';
import type * as vscode from 'vscode';
import { ChangeSetStore, type ChangeSetChange } from '../../../src/views/changeSetStore';
import type { ChangeSetScope } from '../../../src/core/changes/changeSetScope';
import type { Logger } from '../../../src/core/logger';
import type { QueryColumn } from '../../../src/shared/wire';

class MemoryMemento implements vscode.Memento {
  readonly data = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.data.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return (this.data.has(key) ? this.data.get(key) : fallback) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.parse(JSON.stringify(value)));
  }
}

const errors: string[] = [];
const log = {
  error: (m: string) => errors.push(m),
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
} as unknown as Logger;
const scope: ChangeSetScope = { hostId: 'h', owner: 'alice', name: 'prices', branch: 'main', table: 'products', baseCommit: 'c1' };
const columns: QueryColumn[] = [
  { name: 'id', type: 'int', is_primary_key: true },
  { name: 'name', type: 'text' },
];
const options = { scope, columns, keyColumns: [0], nullable: [false, false] };

describe('ChangeSetStore', () => {
  beforeEach(() => (errors.length = 0));

  it('keeps an edited change set across a new store (a reloaded window), and never stores an empty one', async () => {
    const memento = new MemoryMemento();
    const store = new ChangeSetStore(memento, log);
    const cs = store.open(options);
    assert.deepEqual(store.list(), [], 'an empty change set is not listed');
    cs.apply({ kind: 'set', edits: [{ row: { key: ['1'], row: ['1', 'Apple'] }, column: 1, value: 'Apricot' }] });
    store.changed(cs);
    // A second edit while the first write is on its way is written right after it.
    cs.apply({ kind: 'set', edits: [{ row: { key: ['2'], row: ['2', 'Banana'] }, column: 1, value: 'Plantain' }] });
    store.changed(cs);
    await store.flush();
    assert.equal(memento.keys().length, 1);
    assert.equal(new ChangeSetStore(memento, log).get(scope)?.counts().updated, 2, 'the last edit is stored too');
    const reloaded = new ChangeSetStore(memento, log);
    assert.deepEqual(reloaded.list(), [scope]);
    assert.deepEqual(reloaded.get(scope)?.snapshot(), cs.snapshot());
    assert.deepEqual(reloaded.find({ hostId: 'h', owner: 'alice', name: 'prices', branch: 'main', table: 'products' }), scope);
    assert.equal(reloaded.find({ hostId: 'h', owner: 'alice', name: 'prices', branch: 'dev', table: 'products' }), undefined);
    // Undone to nothing: the stored entry goes.
    cs.apply({ kind: 'undo' });
    cs.apply({ kind: 'undo' });
    store.changed(cs);
    await store.flush();
    assert.equal(memento.keys().length, 0);
  });

  it('tells listeners who changed what; delete and rebase move or forget the stored entry', async () => {
    const memento = new MemoryMemento();
    const store = new ChangeSetStore(memento, log);
    const heard: ChangeSetChange[] = [];
    const sub = store.onDidChange((e) => heard.push(e));
    const cs = store.open(options);
    cs.apply({ kind: 'deleteRows', rows: [{ key: ['2'], row: ['2', 'Banana'] }] });
    const me = {};
    store.changed(cs, me);
    await store.flush();
    const moved = await store.rebase(scope, 'c2', [
      ['2', 'Banana'],
      ['3', 'Carrot'],
    ]);
    assert.deepEqual(moved, { kept: 1, dropped: 0, gone: 0, problems: 0 });
    const rebased = { ...scope, baseCommit: 'c2' };
    assert.deepEqual(store.list(), [rebased]);
    assert.deepEqual([...memento.keys()].length, 1);
    assert.equal(new ChangeSetStore(memento, log).get(rebased)?.scope.baseCommit, 'c2');
    await store.delete(rebased);
    assert.deepEqual(store.list(), []);
    assert.equal(memento.keys().length, 0);
    assert.deepEqual(
      heard.map((e) => [e.kind, e.scope.baseCommit, e.from?.baseCommit, e.origin === me]),
      [
        ['changed', 'c1', undefined, true],
        ['rebased', 'c2', 'c1', false],
        ['deleted', 'c2', undefined, false],
      ],
    );
    sub.dispose();
    store.changed(cs);
    assert.equal(heard.length, 3, 'a disposed listener hears nothing more');
  });

  it('a damaged stored entry is logged and skipped, never half-loaded', () => {
    const memento = new MemoryMemento();
    memento.data.set('versionedDb.changeSet:x', {
      v: 1,
      scope,
      columns,
      keyColumns: [0],
      base: [{ key: ['1'], before: ['1'] }],
      newRows: [],
    });
    const store = new ChangeSetStore(memento, log);
    assert.deepEqual(store.list(), []);
    assert.equal(errors.length, 1);
    assert.match(
      errors[0] ?? '',
      /could not read a stored change set \(x\): The stored change set is damaged: a row has the wrong number of cells/,
    );
  });
});
