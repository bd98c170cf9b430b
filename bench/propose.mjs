// Propose Changes… of a change set of 10,000 edited rows over a 1,000,000-row table (issue #23),
// against the same import sent by hand through the API, in the same run.
//
//   flock /tmp/vdb-heavy.lock node bench/propose.mjs            (npm run bench -- propose)
//   options: --rows=1000000 (table size), --edits=10000 (rows edited, spread evenly), --runs=2
//
// Setup: a hub (`dist/hub.js serve`) whose database holds the export bench's 10-column table
// `big` (built with DoltLite straight into the hub's file by `bench/export.mjs --build`, then the
// hub restarted). The edited rows (every n-th: `name` and `qty` changed) are read once at main's
// head, outside the timings, as the change set holds them in the extension.
//
// - by hand (the baseline), with plain fetch as a script or the service's CLI would: create the
//   branch at main's head, upload the edited rows as one JSON file (5 MiB parts), create an
//   `update` import onto the branch, poll it to the end, open the pull request.
// - Propose Changes…, in a child process standing in for the extension host: the command's own
//   code (src/commands/proposeChanges.ts) with its questions answered by a script, the real
//   HubClient and SQL port: the same steps, plus the stale-base check before and the proof after
//   (the branch's DOLT_DIFF row counts against the base, and the edited rows read by key at both
//   commits and compared with the change set row by row). Each step's start is printed to stderr.
//
// The runs alternate (by hand, Propose, by hand, …) on new branches from the same head; every
// branch must read as main with exactly the edited rows changed (checked by counts of plain reads).
// Prints figures and the ratio of the medians; never passes or fails on time.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_DB, benchHub, hubApi, jsonChild, loadAverage, median, startHub, waitForOperation } from './client-common.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);
const arg = (name, d) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d);
const BASE = `/databases/${BENCH_DB.owner}/${BENCH_DB.name}`;
const COLUMNS = [
  ['id', 'bigint'],
  ['name', 'varchar(64)'],
  ['category', 'varchar(16)'],
  ['qty', 'int'],
  ['price', 'double'],
  ['ratio', 'double'],
  ['created', 'datetime'],
  ['flag', 'tinyint'],
  ['note', 'text'],
  ['code', 'varchar(8)'],
];
const PART = 5 * 1024 * 1024;

if (process.argv[2] === '--propose') await proposeChild(process.argv[3], process.argv[4], process.argv[5], process.argv[6]);
else await main(arg('rows', 1_000_000), arg('edits', 10_000), arg('runs', 2));

async function main(rows, edits, runs) {
  const setup = await benchHub('vdb-propose-bench-');
  const { dir, dataDir, dbFile } = setup;
  let { hub } = setup;
  try {
    await hubApi(hub, 'POST', '/databases', { ...BENCH_DB, visibility: 'public' });
    console.log(`building ${rows.toLocaleString('en')} rows × 10 columns …`);
    await jsonChild([join(ROOT, 'bench', 'export.mjs'), '--build', dbFile, String(rows)]);
    await hub.stop();
    hub = await startHub({ dataDir, token: hub.token });
    const step = Math.floor(rows / edits);
    const base = (await hubApi(hub, 'GET', `${BASE}/branches`)).find((b) => b.name === 'main').head_commit_sha;
    const before = await readRows(hub, base, `id % ${step} = 0`, edits);
    const after = before.map((r) => [r[0], `${r[1]} (edited)`, r[2], String(Number(r[3]) + 1), ...r.slice(4)]);
    console.log(`${before.length.toLocaleString('en')} rows edited (every ${step}th), main at ${base.slice(0, 8)}`);
    const times = { hand: [], propose: [] };
    for (let i = 0; i < runs; i++) {
      times.hand.push(await byHand(hub, `hand-${i}`, after));
      await checkBranch(hub, `hand-${i}`, before.length);
      const edits = join(dir, 'edits.json');
      writeFileSync(edits, JSON.stringify({ before, after, i }));
      const r = await jsonChild(['--import', 'tsx', self, '--propose', hub.url, hub.token, base, edits]);
      times.propose.push(r.ms);
      await checkBranch(hub, r.branch, before.length);
      console.log(`run ${i + 1}: by hand ${fmt(times.hand.at(-1))}, Propose Changes… ${fmt(r.ms)}`);
    }
    const h = median(times.hand);
    const p = median(times.propose);
    console.log(`\n${new Date().toISOString()}, load average at the end ${loadAverage()}`);
    console.log('| path | median of ' + runs + ' | ratio |');
    console.log('|---|---|---|');
    console.log(`| by hand: branch, JSON update import (${before.length.toLocaleString('en')} rows), pull request | ${fmt(h)} | 1.00× |`);
    console.log(
      `| Propose Changes… (stale-base check, branch, import, proof by DOLT_DIFF, pull request) | ${fmt(p)} | ${(p / h).toFixed(2)}× |`,
    );
  } finally {
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows of `big` at `ref` matching `where`, in key order, as strings (the API's cells). */
async function readRows(hub, ref, where, expect) {
  const r = await hubApi(hub, 'POST', `${BASE}/sql`, { ref, q: `SELECT * FROM big WHERE ${where} ORDER BY id`, limit: expect });
  if (r.rows.length !== expect) throw new Error(`read ${r.rows.length} rows, expected ${expect}`);
  return r.rows;
}

/** The baseline: what a script does with the API to land the same rows on a branch with a pull. */
async function byHand(hub, branch, after) {
  const t0 = performance.now();
  await hubApi(hub, 'POST', `${BASE}/branches`, { name: branch, from: { branch: 'main' } });
  const objects = after.map((r) => Object.fromEntries(COLUMNS.map(([name], c) => [name, r[c]])));
  const data = Buffer.from(JSON.stringify(objects));
  const parts = Math.max(1, Math.ceil(data.length / PART));
  const s = await hubApi(hub, 'POST', `${BASE}/imports/uploads`, { content_length: data.length, num_parts: parts, file_type: 'json' });
  const completed = [];
  const { createHash } = await import('node:crypto');
  const md5s = [];
  for (const part of s.parts) {
    const chunk = data.subarray((part.part_number - 1) * PART, part.part_number * PART);
    md5s.push(createHash('md5').update(chunk).digest('base64'));
    const res = await fetch(part.url, { method: s.http_method ?? 'PUT', body: chunk });
    if (!res.ok) throw new Error(`part ${part.part_number}: ${res.status}`);
    completed.push({ part_number: part.part_number, etag: res.headers.get('etag') });
  }
  const op = await hubApi(hub, 'POST', `${BASE}/imports`, {
    branch_name: branch,
    table_name: 'big',
    file_name: 'big-edits.json',
    file_size: data.length,
    file_type: 'json',
    import_operation: 'update',
    token: s.token,
    contents_key: s.contents_key,
    completed_parts: completed,
    file_parts_md5: createHash('md5').update(md5s.join('')).digest('base64'),
    primary_keys: [],
    commit_message: `Edit big: ${after.length} rows`,
  });
  const done = await waitForOperation(hub, op.id);
  if (done.status !== 'succeeded') throw new Error(`import: ${JSON.stringify(done.error)}`);
  const ref = (branch_name) => ({ database: { owner: BENCH_DB.owner, name: BENCH_DB.name }, branch_name });
  await hubApi(hub, 'POST', `${BASE}/pulls`, {
    title: `Edit big (${branch})`,
    description: '',
    from_branch: ref(branch),
    to_branch: ref('main'),
  });
  return performance.now() - t0;
}

/** The branch differs from main in exactly the edited rows (plain reads: counts of rows that differ). */
async function checkBranch(hub, branch, edited) {
  const q = (ref, where) => hubApi(hub, 'POST', `${BASE}/sql`, { ref, q: `SELECT COUNT(*) FROM big WHERE ${where}` });
  const changed = (await q(branch, "name LIKE '% (edited)'")).rows[0][0];
  const total = (await q(branch, '1 = 1')).rows[0][0];
  const mainTotal = (await q('main', '1 = 1')).rows[0][0];
  if (Number(changed) !== edited || total !== mainTotal)
    throw new Error(`${branch}: ${changed} edited rows of ${total} (main ${mainTotal})`);
}

/** Propose Changes… in this child, standing in for the extension host; replies { ms, branch }. */
async function proposeChild(url, token, baseCommit, editsFile) {
  const { before, after, i } = JSON.parse(readFileSync(editsFile, 'utf8'));
  const { HubClient } = await import('../src/api/index.ts');
  const { SqlPort } = await import('../src/core/sql/sqlPort.ts');
  const { proposeChanges } = await import('../src/commands/proposeChanges.ts');
  const { ScriptedUi } = await import('../test/helpers/scriptedUi.ts');
  const client = new HubClient({ baseUrl: url, token });
  const sql = new SqlPort(
    () => client,
    () => ({ timeoutMs: 60_000, rowLimit: 10_000 }),
  );
  const branch = `propose-${i}`;
  const scope = { hostId: 'hub', ...BENCH_DB, branch: 'main', table: 'big', baseCommit };
  let input = {
    scope,
    columns: COLUMNS.map(([name, type], c) => ({ name, type, is_primary_key: c === 0 })),
    keyColumns: [0],
    problems: [],
    updated: before.map((b, k) => ({ before: b, after: after[k] })),
    inserted: [],
    deleted: [],
  };
  const changeSets = {
    snapshot: () => input,
    remove: async () => (input = undefined),
    rebase: async () => {
      throw new Error('main does not move in this bench');
    },
  };
  const ui = new ScriptedUi({
    'Propose changes to big (1/4)': branch,
    'Propose changes (2/4)': '',
    'Propose changes (3/4)': '',
    'Propose changes (4/4)': 'main',
  });
  const env = {
    ui,
    log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    clientFor: () => client,
    sql,
    changeSets,
    refreshDatabase: () => undefined,
    showPull: async () => undefined,
    showChanges: async () => undefined,
    now: () => new Date(),
  };
  // Each step's start on stderr, so a run shows where the time goes.
  const step = (what) => process.stderr.write(`  ${((performance.now() - t0) / 1000).toFixed(2)} s  ${what}\n`);
  const withProgress = ui.withProgress.bind(ui);
  ui.withProgress = (title, task) => (
    step(title),
    withProgress(title, (p, signal) => task({ report: (m) => (step(m), p.report(m)) }, signal))
  );
  const review = sql.review.bind(sql);
  sql.review = (hostId, db) => {
    const run = review(hostId, db);
    return async (query, opts) => {
      const t = performance.now();
      const out = await run(query, opts);
      step(`    ${(performance.now() - t).toFixed(0)} ms for ${query.sql.slice(0, 60).replace(/\s+/g, ' ')}…`);
      return out;
    };
  };
  const t0 = performance.now();
  const pull = await proposeChanges(env, scope);
  step('pull request open');
  const ms = performance.now() - t0;
  if (!pull) throw new Error(`no pull request: ${JSON.stringify({ errors: ui.errors, infos: ui.infos })}`);
  process.stdout.write(`${JSON.stringify({ ms, branch })}\n`);
}

function fmt(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}
