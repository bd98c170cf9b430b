import { strict as assert } from 'node:assert';
import {
  copyTableName,
  copyTableSelect,
  newSqlNotebookForTable,
  openTable,
  tableAtOf,
  type TableCommandDeps,
} from '../../../src/commands/tableActions';
import type { BranchNode, CategoryNode, TableNode, TablesNode } from '../../../src/tree/treeNodes';
import { Commands } from '../../../src/shared/ids';
import { ScriptedUi } from '../../helpers/scriptedUi';
import { aBranch } from '../../builders/wire';

const db = { owner: 'alice', name: 'prices' };
const category: CategoryNode = { kind: 'category', hostId: 'h', db, category: 'branches' };
const branch: BranchNode = {
  kind: 'branch',
  hostId: 'h',
  db,
  parent: category,
  branch: aBranch({ name: 'main', head_commit_sha: 'c'.repeat(32) }),
};
const tables: TablesNode = { kind: 'tables', hostId: 'h', db, parent: branch, ref: 'main', commit: 'c'.repeat(32) };
const table: TableNode = { kind: 'table', hostId: 'h', db, parent: tables, table: { name: 'odd `name', kind: 'table' } };

function setup() {
  const ui = new ScriptedUi([]);
  const opened: unknown[] = [];
  const executed: unknown[][] = [];
  const deps: TableCommandDeps = {
    ui,
    openBrowser: async (at) => opened.push(at),
    execute: async (...a: unknown[]) => executed.push(a),
  };
  return { ui, opened, executed, deps };
}

describe('commands on a table of the Tables node', () => {
  it('Open Table opens the browser on the table at the ref, read at the commit the tree listed', async () => {
    const t = setup();
    await openTable(t.deps, table);
    assert.deepEqual(t.opened, [
      { target: { hostId: 'h', owner: 'alice', name: 'prices', ref: 'main' }, commit: 'c'.repeat(32), table: 'odd `name' },
    ]);
    assert.deepEqual(tableAtOf(table), t.opened[0]);
  });

  it('New SQL Notebook with a SELECT opens a notebook at the ref (the branch node) starting with a quoted SELECT', async () => {
    const t = setup();
    await newSqlNotebookForTable(t.deps, table);
    assert.deepEqual(t.executed, [[Commands.newSqlNotebook, branch, 'SELECT * FROM `odd ``name` LIMIT 1000;']]);
  });

  it('Copy Name and Copy SELECT put the name and a runnable, quoted SELECT on the clipboard', async () => {
    const t = setup();
    await copyTableName(t.deps, table);
    await copyTableSelect(t.deps, table);
    assert.deepEqual(t.ui.copied, ['odd `name', 'SELECT * FROM `odd ``name` LIMIT 1000']);
  });

  it('on anything but a table it says where to find one and does nothing', async () => {
    const t = setup();
    await openTable(t.deps, tables);
    await copyTableName(t.deps, undefined);
    assert.equal(t.opened.length + t.ui.copied.length, 0);
    assert.equal(t.ui.infos.length, 2);
    assert.match(t.ui.infos[0]!, /Tables → the table/);
  });
});
