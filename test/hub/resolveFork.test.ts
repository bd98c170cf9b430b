// A pull from a fork (issue #24), against the real hub with the extension's own API client and SQL
// port, each user with their own token: Checks run the base side at the merge base that plain
// dolt_log reads of both databases give; a conflicting pull whose fork holds the target's head is
// settled in the fork (ours for one cell, theirs for another, a typed value for a third), the new
// pull merges, and plain SELECTs at the merge commit show exactly the choices and every other change;
// a fork without the target's head is refused with the way out, and nothing is written anywhere.
import assert from 'node:assert/strict';
import { HubClient, collectAll } from '../../src/api/index';
import { SqlPort } from '../../src/core/sql/sqlPort';
import type { Cell, DatabaseRef } from '../../src/shared/wire';
import { rowsJson, type CellChoice, type Choices } from '../../src/core/review/conflictResolution';
import { applyResolution, describePlan, planResolution, readResolution } from '../../src/commands/resolveApply';
import { importOntoBranch } from '../../src/commands/proposeImports';
import { runPullChecks } from '../../src/core/dataTests/runChecks';
import { previewMerge } from '../../src/core/review/mergePreview';
import { startHub, type HubHandle } from '../helpers/hub';
import { hubSql } from '../helpers/hubSql';

const TARGET: DatabaseRef = { owner: 'alice', name: 'inventory' };
const BOB: DatabaseRef = { owner: 'bob', name: 'inventory' };
const CAROL: DatabaseRef = { owner: 'carol', name: 'inventory' };
const ACME: DatabaseRef = { owner: 'acme', name: 'inventory' };
const COLUMNS = ['sku', 'description', 'quantity'];
const never = new AbortController().signal;

type Rows = Map<string, Record<string, Cell>>;

describe('hub: a pull from a fork — Checks at its merge base, conflicts settled in the fork', function () {
  this.timeout(180000);
  let hub: HubHandle;
  const clients = new Map<string, HubClient>();
  const client = (user: string): HubClient => clients.get(user)!;
  const review = (user: string) => {
    const port = new SqlPort(
      () => client(user),
      () => ({ timeoutMs: 30_000, rowLimit: 1000 }),
    );
    return (db: DatabaseRef) => port.review('h', db);
  };
  const key = (db: DatabaseRef): string => `${db.owner}/${db.name}`;
  const sql = (db: DatabaseRef) => hubSql(() => hub, key(db));

  async function heads(db: DatabaseRef): Promise<Map<string, string>> {
    const branches = await collectAll((t) => client('alice').listBranches(db, { pageToken: t }));
    return new Map(branches.map((b) => [b.name, b.head_commit_sha]));
  }
  async function tableAt(db: DatabaseRef, ref: string): Promise<Rows> {
    const d = await sql(db).ok('SELECT * FROM stock', ref);
    return new Map(d.rows.map((r) => [String(r[0]), Object.fromEntries(d.columns.map((c, i) => [c.name, r[i] ?? null]))]));
  }
  async function write(user: string, db: DatabaseRef, branch: string, rows: Cell[][], message: string): Promise<void> {
    const imp = {
      bytes: rowsJson(COLUMNS, rows),
      fileType: 'json',
      operation: 'update',
      branch,
      table: 'stock',
      fileName: 'stock.json',
      message,
    } as const;
    await importOntoBranch(client(user), db, imp, never);
  }
  /** The merge base by plain reads: the first commit of the fork branch's log that the target's branch has. */
  async function plainForkBase(fork: DatabaseRef, from: string): Promise<string> {
    const forkLog = (await sql(fork).ok('SELECT commit_hash FROM dolt_log', from)).rows.map((r) => String(r[0]));
    const targetLog = new Set((await sql(TARGET).ok('SELECT commit_hash FROM dolt_log', 'main')).rows.map((r) => String(r[0])));
    return forkLog.find((h) => targetLog.has(h))!;
  }

  let before0: string; // alice's main before her change: where carol's branch starts
  let carolPull: number;
  let bobPull: number;

  before(async () => {
    hub = await startHub({ seed: true });
    for (const u of ['alice', 'bob', 'carol']) clients.set(u, new HubClient({ baseUrl: hub.url, token: await hub.token(u) }));
    before0 = (await heads(TARGET)).get('main')!;
    await write(
      'alice',
      TARGET,
      'main',
      [
        ['B-300', 'Sprokets (bin 4)', '7'],
        ['A-100', 'Widgets', '150'],
      ],
      'Count B-300 and A-100',
    );
    await client('carol').waitForOperation(await client('carol').createFork(TARGET, { owner: 'carol' }));
    await client('carol').createBranch(CAROL, { name: 'recount', from: { commit: before0 } });
    await write(
      'carol',
      CAROL,
      'recount',
      [
        ['B-300', 'Sprockets', '9'],
        ['A-100', 'Widgets', '99'],
        ['A-200', 'Gadgets', '81'],
        ['C-400', 'Cogs', '12'],
      ],
      'Recount the stock',
    );
    const from = { database: CAROL, branch_name: 'recount' };
    carolPull = (
      await client('carol').createPull(TARGET, {
        title: 'Recount',
        from_branch: from,
        to_branch: { database: TARGET, branch_name: 'main' },
      })
    ).pull_number;
    const pulls = await collectAll((t) => client('alice').listPulls(TARGET, { pageToken: t }));
    bobPull = pulls.find((p) => p.title === 'Fix a typo in B-300')!.pull_number;
  });
  after(async () => hub?.stop());

  it('Checks run the base side at the merge base plain dolt_log reads of both databases give, in the fork', async () => {
    for (const [fork, branch, n] of [
      [CAROL, 'recount', carolPull],
      [BOB, 'fix-typo', bobPull],
    ] as const) {
      const expected = await plainForkBase(fork, branch);
      const pull = await client('alice').getPull(TARGET, n);
      const checks = await runPullChecks(
        { runOn: review('alice'), operations: async () => [] },
        { db: TARGET, fromBranch: pull.from_branch, toBranch: pull.to_branch },
      );
      assert.deepEqual(checks.base.kind === 'ran' ? checks.base.commit : checks.base, expected, `base of #${n}`);
      assert.deepEqual(checks.head.kind === 'ran' ? checks.head.commit : checks.head, (await heads(fork)).get(branch));
    }
    assert.equal(await plainForkBase(CAROL, 'recount'), before0, 'carol’s branch starts at alice’s old main');
  });

  it('settles a conflicting pull from a fork in the fork: the new pull merges to exactly the choices', async () => {
    const ours = (await heads(TARGET)).get('main')!;
    const theirs = (await heads(CAROL)).get('recount')!;
    const base = String((await sql(CAROL).ok(`SELECT dolt_merge_base('${ours}', '${theirs}')`, 'recount')).rows[0]![0]);
    const [b, o, t] = [await tableAt(CAROL, base), await tableAt(CAROL, ours), await tableAt(CAROL, theirs)];
    const preview = await previewMerge(review('carol'), { db: TARGET, ...fromTo(await client('carol').getPull(TARGET, carolPull)) });
    assert.equal(preview.kind === 'ready' ? preview.impact.willConflict : preview.reason, true, 'the preview sees the conflict');
    const pull = await client('carol').getPull(TARGET, carolPull);
    const res = await readResolution(review('carol'), pull);
    assert.deepEqual(res.commits, { base, ours, theirs });
    assert.deepEqual(res.readIn, CAROL);
    const plain = conflictsOf(b, o, t);
    const found = new Map(
      res.tables.flatMap((x) => x.conflicts.cells.map((c) => [`${String(c.keyValues[0])} ${c.column}`, [c.base, c.ours, c.theirs]])),
    );
    assert.deepEqual(found, plain);
    const [desc, qty, qtyA] = ['B-300 description', 'B-300 quantity', 'A-100 quantity'];
    assert.deepEqual([...plain.keys()].sort(), [qtyA, desc, qty].sort());
    const picks = new Map<string, CellChoice>([
      [desc, { kind: 'ours' }],
      [qty, { kind: 'theirs' }],
      [qtyA, { kind: 'value', value: '42' }],
    ]);
    const choices = new Map<string, Choices>([['stock', { cells: cellChoices(picks), rows: new Map() }]]);
    const plan = planResolution(res, choices);
    assert.equal(plan.kind === 'rebuild' ? key(plan.in) : plan.kind, key(CAROL));
    assert.match(describePlan(res, plan), /a new branch is made in carol\/inventory at the head of main/);
    const targetBefore = await heads(TARGET);
    const out = await applyResolution(client('carol'), res, choices, { newBranch: 'recount-settled', signal: never });
    assert.deepEqual(await heads(TARGET), targetBefore, 'nothing written to the target before the merge');
    assert.equal((await heads(CAROL)).get('recount'), theirs, 'the pull’s own branch is left as it was');
    const settled = await client('alice').getPull(TARGET, out.pullNumber);
    assert.deepEqual([key(settled.from_branch.database), settled.from_branch.branch_name], [key(CAROL), 'recount-settled']);
    assert.match(settled.description ?? '', new RegExp(`#${carolPull}\\b`));
    const comments = await client('alice').listPullComments(TARGET, carolPull);
    assert.ok(
      comments.some((c) => c.body.includes(`#${out.pullNumber}`)),
      'the old pull links the new one',
    );
    const again = await previewMerge(review('alice'), { db: TARGET, ...fromTo(settled) });
    assert.equal(again.kind === 'ready' ? again.impact.willConflict : again.reason, false, 'clean after Apply');
    const op = await client('alice').waitForOperation(await client('alice').mergePull(TARGET, out.pullNumber));
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    const merged = await tableAt(TARGET, (await heads(TARGET)).get('main')!);
    const chosen = new Map<string, Cell>([
      [desc, plain.get(desc)![1]!],
      [qty, plain.get(qty)![2]!],
      [qtyA, '42'],
    ]);
    assert.deepEqual(merged, expectedAfter(b, o, t, chosen));
  });

  it('every conflict taking the target’s value: written onto the pull’s own branch in the fork, and that pull merges', async () => {
    // A fork (acme/inventory, written by bob) taken after main moved, with a branch from before that move.
    const start = (await heads(TARGET)).get('main')!;
    await write('alice', TARGET, 'main', [['A-200', 'Gadgets (blue)', '60']], 'Paint the gadgets blue');
    await client('alice').waitForOperation(await client('alice').createFork(TARGET, { owner: 'acme' }));
    await client('bob').createBranch(ACME, { name: 'tally', from: { commit: start } });
    const rows = [
      ['A-200', 'Gadgets (red)', '70'],
      ['D-500', 'Dials', '3'],
    ];
    await write('bob', ACME, 'tally', rows, 'Tally the gadgets');
    const from = { database: ACME, branch_name: 'tally' };
    const n = (
      await client('bob').createPull(TARGET, { title: 'Tally', from_branch: from, to_branch: { database: TARGET, branch_name: 'main' } })
    ).pull_number;
    const [ours, theirs] = [(await heads(TARGET)).get('main')!, (await heads(ACME)).get('tally')!];
    const base = String((await sql(ACME).ok(`SELECT dolt_merge_base('${ours}', '${theirs}')`, 'tally')).rows[0]![0]);
    assert.equal(base, start);
    const [b, o, t] = [await tableAt(ACME, base), await tableAt(ACME, ours), await tableAt(ACME, theirs)];
    const plain = conflictsOf(b, o, t);
    assert.deepEqual([...plain.keys()].sort(), ['A-200 description', 'A-200 quantity']);
    const res = await readResolution(review('bob'), await client('bob').getPull(TARGET, n));
    const picks = new Map<string, CellChoice>([...plain.keys()].map((k) => [k, { kind: 'ours' }]));
    const choices = new Map<string, Choices>([['stock', { cells: cellChoices(picks), rows: new Map() }]]);
    const plan = planResolution(res, choices);
    assert.equal(plan.kind === 'onBranch' ? `${key(plan.branch.database)} ${plan.branch.branch_name}` : plan.kind, `${key(ACME)} tally`);
    assert.match(describePlan(res, plan), /written in acme\/inventory onto the pull's branch tally/);
    const targetBefore = await heads(TARGET);
    assert.deepEqual(await applyResolution(client('bob'), res, choices, { newBranch: 'unused', signal: never }), {
      kind: 'onBranch',
      pullNumber: n,
    });
    assert.deepEqual(await heads(TARGET), targetBefore, 'nothing written to the target before the merge');
    assert.equal((await heads(ACME)).has('unused'), false);
    const op = await client('alice').waitForOperation(await client('alice').mergePull(TARGET, n));
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    const merged = await tableAt(TARGET, (await heads(TARGET)).get('main')!);
    assert.deepEqual(merged, expectedAfter(b, o, t, new Map([...plain].map(([k, v]) => [k, v[1]!]))));
  });

  it('refuses a pull whose fork lacks the target’s head, with the way out, and writes nothing', async () => {
    const before = [await heads(TARGET), await heads(BOB)];
    const pull = await client('bob').getPull(TARGET, bobPull);
    await assert.rejects(
      readResolution(review('bob'), pull),
      /bob\/inventory does not have the current head of main \([0-9a-v]{8}\), so its conflicts cannot be settled there\. Update the fork's branch from main first\./,
    );
    const preview = await previewMerge(review('bob'), { db: TARGET, ...fromTo(pull) });
    assert.match(
      preview.kind === 'unavailable' ? preview.reason : '',
      /does not have the current head of main .*Update the fork's branch from main first/,
    );
    assert.deepEqual([await heads(TARGET), await heads(BOB)], before);
  });
});

function fromTo(p: { from_branch: import('../../src/shared/wire').BranchRef; to_branch: import('../../src/shared/wire').BranchRef }) {
  return { fromBranch: p.from_branch, toBranch: p.to_branch };
}

/** `sku column` → [base, ours, theirs] where all three differ. */
function conflictsOf(b: Rows, o: Rows, t: Rows): Map<string, Cell[]> {
  const out = new Map<string, Cell[]>();
  for (const [k, or] of o) {
    const [br, tr] = [b.get(k), t.get(k)];
    if (!br || !tr) continue;
    for (const c of Object.keys(or))
      if (or[c] !== tr[c] && or[c] !== br[c] && tr[c] !== br[c]) out.set(`${k} ${c}`, [br[c]!, or[c]!, tr[c]!]);
  }
  return out;
}

/** Chosen values where chosen, else theirs' change, else ours; rows only one side has as that side left them. */
function expectedAfter(b: Rows, o: Rows, t: Rows, chosen: Map<string, Cell>): Rows {
  const rows: Rows = new Map();
  for (const k of new Set([...o.keys(), ...t.keys()])) {
    const [br, or, tr] = [b.get(k), o.get(k), t.get(k)];
    if (!or || !tr) {
      const row = or ?? (br ? undefined : tr);
      if (row) rows.set(k, row);
      continue;
    }
    const row: Record<string, Cell> = {};
    for (const c of Object.keys(or)) row[c] = chosen.get(`${k} ${c}`) ?? (tr[c] !== br?.[c] ? tr[c]! : or[c]!);
    rows.set(k, row);
  }
  return rows;
}

function cellChoices(picks: Map<string, CellChoice>): Map<string, Map<string, CellChoice>> {
  const out = new Map<string, Map<string, CellChoice>>();
  for (const [k, c] of picks) {
    const [sku, column] = k.split(' ') as [string, string];
    const rowKey = JSON.stringify([sku]);
    out.set(rowKey, new Map([...(out.get(rowKey) ?? []), [column, c]]));
  }
  return out;
}
