// Settling a conflicting pull cell by cell (issue #24) against the real hub with the extension's
// own API client and SQL port: the conflicts found are exactly the cells plain reads at the merge
// base, the target and the pull's head show all three different; after Apply the merge preview is
// clean, and merging yields the chosen value in every conflicting cell and every other change of
// both sides, read back by plain SELECTs at the merge commit.
import assert from 'node:assert/strict';
import { HubClient, collectAll } from '../../src/api/index';
import { SqlPort } from '../../src/core/sql/sqlPort';
import type { Cell, OperationRef } from '../../src/shared/wire';
import type { CellChoice, Choices } from '../../src/core/review/conflictResolution';
import { applyResolution, planResolution, readResolution, PartlyAppliedError } from '../../src/commands/resolveApply';
import { startHub, type HubHandle } from '../helpers/hub';
import { overriding } from '../helpers/overriding';
import { hubSql } from '../helpers/hubSql';

const DB = { owner: 'alice', name: 'orders' };
const TABLES = ['customers', 'orders'];

type Rows = Map<string, Record<string, Cell>>;

describe('hub: settling a pull’s conflicts cell by cell', function () {
  this.timeout(180000);

  function setup(): { hub: () => HubHandle; client: () => HubClient; port: () => SqlPort } {
    let hub: HubHandle;
    let client: HubClient;
    let port: SqlPort;
    before(async () => {
      hub = await startHub({ seed: true });
      client = new HubClient({ baseUrl: hub.url, token: await hub.token('alice') });
      port = new SqlPort(
        () => client,
        () => ({ timeoutMs: 30_000, rowLimit: 1000 }),
      );
    });
    after(async () => hub?.stop());
    return { hub: () => hub, client: () => client, port: () => port };
  }

  /** A table at a ref by a plain read: key (id) → row. */
  async function tableAt(h: HubHandle, table: string, ref: string): Promise<Rows> {
    const d = await hubSql(() => h, 'alice/orders').ok(`SELECT * FROM ${table}`, ref);
    return new Map(d.rows.map((r) => [String(r[0]), Object.fromEntries(d.columns.map((c, i) => [c.name, r[i] ?? null]))]));
  }

  async function refs(h: HubHandle, client: HubClient): Promise<{ base: string; ours: string; theirs: string; pullNumber: number }> {
    const pulls = await collectAll((t) => client.listPulls(DB, { pageToken: t }));
    const pull = pulls.find((p) => p.title === 'Relocate Ana and fix order 2')!;
    const branches = await collectAll((t) => client.listBranches(DB, { pageToken: t }));
    const ours = branches.find((b) => b.name === 'main')!.head_commit_sha;
    const theirs = branches.find((b) => b.name === 'relocate-ana')!.head_commit_sha;
    const base = String((await hubSql(() => h, 'alice/orders').ok(`SELECT dolt_merge_base('${ours}', '${theirs}')`)).rows[0]![0]);
    return { base, ours, theirs, pullNumber: pull.pull_number };
  }

  /** The cells all three versions disagree on, by plain reads: `table key column` → [base, ours, theirs]. */
  async function plainConflicts(h: HubHandle, r: { base: string; ours: string; theirs: string }): Promise<Map<string, Cell[]>> {
    const out = new Map<string, Cell[]>();
    for (const table of TABLES) {
      const [b, o, t] = [await tableAt(h, table, r.base), await tableAt(h, table, r.ours), await tableAt(h, table, r.theirs)];
      for (const [key, or] of o) {
        const [br, tr] = [b.get(key), t.get(key)];
        if (!br || !tr) continue;
        for (const col of Object.keys(or)) {
          if (or[col] !== tr[col] && or[col] !== br[col] && tr[col] !== br[col])
            out.set(`${table} ${key} ${col}`, [br[col]!, or[col]!, tr[col]!]);
        }
      }
    }
    return out;
  }

  /** What the merge must hold: chosen values where chosen, else theirs' change, else ours. */
  async function expectedAfter(
    h: HubHandle,
    r: { base: string; ours: string; theirs: string },
    chosen: Map<string, Cell>,
  ): Promise<Map<string, Rows>> {
    const out = new Map<string, Rows>();
    for (const table of TABLES) {
      const [b, o, t] = [await tableAt(h, table, r.base), await tableAt(h, table, r.ours), await tableAt(h, table, r.theirs)];
      const rows: Rows = new Map();
      for (const key of new Set([...o.keys(), ...t.keys()])) {
        const [br, or, tr] = [b.get(key), o.get(key), t.get(key)];
        if (!or || !tr) {
          const row = or ?? (br ? undefined : tr);
          if (row) rows.set(key, row);
          continue;
        }
        const row: Record<string, Cell> = {};
        for (const col of Object.keys(or)) {
          const c = chosen.get(`${table} ${key} ${col}`);
          row[col] = c !== undefined ? c : tr[col] !== br?.[col] ? tr[col]! : or[col]!;
        }
        rows.set(key, row);
      }
      out.set(table, rows);
    }
    return out;
  }

  function choicesFrom(picks: Map<string, CellChoice>): Map<string, Choices> {
    const out = new Map<string, { cells: Map<string, Map<string, CellChoice>>; rows: Map<string, 'ours' | 'theirs'> }>();
    for (const [k, c] of picks) {
      const [table, key, column] = k.split(' ') as [string, string, string];
      const t = out.get(table) ?? { cells: new Map(), rows: new Map() };
      out.set(table, t);
      const rowKey = JSON.stringify([key]);
      t.cells.set(rowKey, new Map([...(t.cells.get(rowKey) ?? []), [column, c]]));
    }
    return out;
  }

  /** Every conflicting cell takes the target's value (ours): the choices, and the values they give. */
  const allOurs = (plain: Map<string, Cell[]>): Map<string, Choices> =>
    choicesFrom(new Map([...plain.keys()].map((k) => [k, { kind: 'ours' } as CellChoice])));
  const oursValues = (plain: Map<string, Cell[]>): Map<string, Cell> => new Map([...plain].map(([k, v]) => [k, v[1]!]));

  async function mergeAndRead(h: HubHandle, client: HubClient, pullNumber: number): Promise<Map<string, Rows>> {
    const preview = await hubSql(() => h, 'alice/orders').ok(
      `SELECT * FROM dolt_preview_merge_conflicts_summary('main', '${(await client.getPull(DB, pullNumber)).from_branch.branch_name}')`,
    );
    assert.deepEqual(preview.rows, [], 'the merge preview is clean after Apply');
    const ref: OperationRef = await client.mergePull(DB, pullNumber);
    const op = await client.waitForOperation(ref);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    const head = (await collectAll((t) => client.listBranches(DB, { pageToken: t }))).find((b) => b.name === 'main')!.head_commit_sha;
    return new Map(await Promise.all(TABLES.map(async (t) => [t, await tableAt(h, t, head)] as const)));
  }

  describe('every conflicting cell takes the target’s value: written onto the pull’s branch', () => {
    const s = setup();
    it('finds the conflicts plain reads show, writes ours onto the branch, and the pull merges to the chosen values', async () => {
      const h = s.hub();
      const r = await refs(h, s.client());
      const plain = await plainConflicts(h, r);
      assert.equal(plain.size, 3, 'the seed conflicts in three cells');
      const pull = await s.client().getPull(DB, r.pullNumber);
      const res = await readResolution((db) => s.port().review('h', db), pull);
      const found = new Map(
        res.tables.flatMap((t) =>
          t.conflicts.cells.map((c) => [`${t.table} ${String(c.keyValues[0])} ${c.column}`, [c.base, c.ours, c.theirs]]),
        ),
      );
      assert.deepEqual(found, plain);
      const choices = allOurs(plain);
      assert.equal(planResolution(res, choices).kind, 'onBranch');
      const expected = await expectedAfter(h, r, oursValues(plain));
      const out = await applyResolution(s.client(), res, choices, { newBranch: 'unused', signal: new AbortController().signal });
      assert.deepEqual(out, { kind: 'onBranch', pullNumber: r.pullNumber });
      assert.deepEqual(await mergeAndRead(h, s.client(), r.pullNumber), expected);
    });
  });

  describe('writing onto the pull’s branch fails after its first table: Apply again writes the rest', () => {
    const s = setup();
    it('says which table is written where; the second Apply imports only the other, and the pull merges to the choices', async () => {
      const h = s.hub();
      const r = await refs(h, s.client());
      const plain = await plainConflicts(h, r);
      const res = await readResolution((db) => s.port().review('h', db), await s.client().getPull(DB, r.pullNumber));
      const choices = allOurs(plain);
      const real = s.client();
      const imports: string[] = [];
      // The server refuses the second table's import (the first is committed onto the branch by then).
      const refusing = (refuseAt: number): typeof real =>
        overriding(real, 'createImport', (createImport) => async (...args) => {
          imports.push(args[1].table_name);
          if (imports.length === refuseAt) throw new Error('Service Unavailable');
          return createImport(...args);
        });
      const written = new Set<string>();
      const opts = { newBranch: 'unused', signal: new AbortController().signal, written };
      await assert.rejects(applyResolution(refusing(2), res, choices, opts), (e: Error) => {
        assert.ok(e instanceof PartlyAppliedError, e.message);
        assert.equal(
          e.message,
          `Writing ${imports[1]} failed: Service Unavailable. Already written onto relocate-ana: ${imports[0]}. Apply again writes the rest.`,
        );
        return true;
      });
      // The first table holds ours in its conflicting cells on the branch; the second does not yet.
      const atBranch = await tableAt(h, imports[0]!, 'relocate-ana');
      for (const [k, v] of plain) {
        const [table, key, column] = k.split(' ') as [string, string, string];
        if (table === imports[0]) assert.equal(atBranch.get(key)?.[column], v[1], k);
      }
      imports.length = 0;
      const out = await applyResolution(refusing(0), res, choices, opts);
      assert.deepEqual(out, { kind: 'onBranch', pullNumber: r.pullNumber });
      assert.equal(imports.length, 1, `only the table not yet written: ${imports.join(', ')}`);
      const expected = await expectedAfter(h, r, oursValues(plain));
      assert.deepEqual(await mergeAndRead(h, real, r.pullNumber), expected);
    });
  });

  describe('ours for one cell, theirs for another, a typed value for a third: rebuilt as a new pull', () => {
    const s = setup();
    it('opens a new pull on the target’s head that names the old one, which gets a comment; merging it yields exactly the choices', async () => {
      const h = s.hub();
      const r = await refs(h, s.client());
      const plain = await plainConflicts(h, r);
      const [city, email, quantity] = ['customers 1 city', 'customers 1 email', 'orders 2 quantity'];
      assert.ok(plain.has(city) && plain.has(email) && plain.has(quantity), [...plain.keys()].join());
      const picks = new Map<string, CellChoice>([
        [city, { kind: 'ours' }],
        [email, { kind: 'theirs' }],
        [quantity, { kind: 'value', value: '8' }],
      ]);
      const pull = await s.client().getPull(DB, r.pullNumber);
      const res = await readResolution((db) => s.port().review('h', db), pull);
      const choices = choicesFrom(picks);
      assert.equal(planResolution(res, choices).kind, 'rebuild');
      const chosen = new Map<string, Cell>([
        [city, plain.get(city)![1]!],
        [email, plain.get(email)![2]!],
        [quantity, '8'],
      ]);
      const expected = await expectedAfter(h, r, chosen);
      const mainBefore = await tableAt(h, 'customers', 'main');
      const out = await applyResolution(s.client(), res, choices, {
        newBranch: 'relocate-ana-settled',
        signal: new AbortController().signal,
      });
      assert.equal(out.kind, 'rebuild');
      assert.deepEqual(await tableAt(h, 'customers', 'main'), mainBefore, 'nothing written to main');
      const newPull = await s.client().getPull(DB, out.pullNumber);
      assert.match(newPull.description ?? '', new RegExp(`#${r.pullNumber}\\b`));
      const comments = await s.client().listPullComments(DB, r.pullNumber);
      assert.ok(
        comments.some((c) => c.body.includes(`#${out.pullNumber}`)),
        'the old pull links the new one',
      );
      assert.deepEqual(await mergeAndRead(h, s.client(), out.pullNumber), expected);
    });
  });

  describe('a rebuild that fails after making its branch: Apply again makes another and succeeds', () => {
    const s = setup();
    it('the error names the branch left behind; the second Apply uses the next free name and merges to the choices', async () => {
      const h = s.hub();
      const r = await refs(h, s.client());
      const plain = await plainConflicts(h, r);
      const [city, email, quantity] = ['customers 1 city', 'customers 1 email', 'orders 2 quantity'];
      const picks = new Map<string, CellChoice>([
        [city, { kind: 'ours' }],
        [email, { kind: 'theirs' }],
        [quantity, { kind: 'value', value: '8' }],
      ]);
      const res = await readResolution((db) => s.port().review('h', db), await s.client().getPull(DB, r.pullNumber));
      const choices = choicesFrom(picks);
      const real = s.client();
      // The server refuses the pull request: the branch and its imports are made by then.
      const refusing = overriding(real, 'createPull', () => async () => {
        throw new Error('Service Unavailable');
      });
      const opts = { newBranch: 'ana-settled', signal: new AbortController().signal };
      await assert.rejects(applyResolution(refusing, res, choices, opts), (e: Error) => {
        assert.match(e.message, /^Service Unavailable\. The branch ana-settled was made in alice\/orders and may hold part/);
        return true;
      });
      const branches = async () => (await collectAll((t) => real.listBranches(DB, { pageToken: t }))).map((b) => b.name);
      assert.ok((await branches()).includes('ana-settled'), 'the first attempt left its branch');
      const out = await applyResolution(real, res, choices, opts);
      assert.equal(out.kind === 'rebuild' && out.branch, 'ana-settled-2');
      assert.equal((await real.getPull(DB, out.pullNumber)).from_branch.branch_name, 'ana-settled-2');
      const chosen = new Map<string, Cell>([
        [city, plain.get(city)![1]!],
        [email, plain.get(email)![2]!],
        [quantity, '8'],
      ]);
      assert.deepEqual(await mergeAndRead(h, real, out.pullNumber), await expectedAfter(h, r, chosen));
    });
  });
});
