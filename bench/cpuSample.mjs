// Where the CPU of a run goes, per process kind: samples /proc every 0.5 s while a command runs and
// sums each process's utime+stime (its last sample; a process that ends between two samples loses
// at most half a second), grouped by what the process is (Chromium renderer/GPU/browser,
// code-server's server, extension host, file watcher, a hub, mocha, tsc, ESLint…) and by the
// `npm test` step it belongs to (the nearest ancestor that is a step's command). The machine's
// own busy time (/proc/stat) is printed beside it, so what the sampling missed shows.
//
//   node bench/cpuSample.mjs [--out FILE.json] -- <command…>
//   e.g. flock /tmp/vdb-heavy.lock node bench/cpuSample.mjs --out /tmp/e2e.json -- env E2E_ONLY=01,10 npm run test:e2e
//   node bench/cpuSample.mjs --report FILE.json   (the tables again, from a saved run)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { TICK, kind, machine, read, stat } from './procCpu.mjs';

const INTERVAL_MS = 500;

/** The `npm test` step a process runs under: the first ancestor whose command is a step's. */
export function step(chain) {
  const steps = [
    [/e2e\/run\.mjs/, 'e2e'],
    [/test\/hub\/\.mocharc/, 'hub'],
    [/test\/unit\/\.mocharc/, 'unit'],
    [/runInVscodeServer/, 'integration'],
    [/test\/contract\/\.mocharc/, 'contract'],
    [/test\/scripts\/\.mocharc/, 'scripts'],
    [/scripts\/typecheck\.mjs/, 'typecheck'],
    [/eslint \. && prettier|bin\/eslint|bin\/prettier/, 'lint'],
    [/esbuild\.mjs/, 'build'],
    [/toolchain\.mjs/, 'toolchain'],
  ];
  for (const cmd of chain) for (const [re, name] of steps) if (re.test(cmd)) return name;
  return 'other';
}

function sample(seen) {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(name);
    if (!s) continue;
    const key = `${name}:${s.start}`;
    let p = seen.get(key);
    if (!p) {
      const cmd = read(`/proc/${name}/cmdline`).replace(/\0/g, ' ').trim();
      // The ancestors' command lines, read now: a parent may be gone by the end.
      const chain = [cmd];
      const pids = [Number(name)];
      for (let pp = s.ppid, n = 0; pp > 1 && n < 30; n++) {
        chain.push(read(`/proc/${pp}/cmdline`).replace(/\0/g, ' ').trim());
        pids.push(pp);
        pp = stat(pp)?.ppid ?? 0;
      }
      p = { pid: Number(name), cmd, chain, pids, ticks: s.ticks };
      seen.set(key, p);
    }
    p.ticks = s.ticks;
  }
}

function table(title, rows, total) {
  console.log(`\n${title}`);
  for (const [name, t] of [...rows].sort((a, b) => b[1] - a[1])) {
    if (t / TICK < 0.5) continue;
    console.log(`  ${(t / TICK).toFixed(0).padStart(6)} s  ${((100 * t) / total).toFixed(1).padStart(5)}%  ${name}`);
  }
}

function report({ procs, wallMs, busy, cores }) {
  const total = procs.reduce((a, p) => a + p.ticks, 0);
  const by = (f) => {
    const m = new Map();
    for (const p of procs) m.set(f(p), (m.get(f(p)) ?? 0) + p.ticks);
    return m;
  };
  console.log(
    `\nwall ${(wallMs / 1000).toFixed(0)} s; CPU of the run's processes ${(total / TICK).toFixed(0)} s; the machine busy ${(busy / TICK).toFixed(0)} s of ${((cores * wallMs) / 1000).toFixed(0)} (${cores} cores)`,
  );
  table(
    'by kind of process',
    by((p) => kind(p.cmd)),
    total,
  );
  table(
    'by npm test step',
    by((p) => step(p.chain)),
    total,
  );
  table(
    'by step and kind',
    by((p) => `${step(p.chain).padEnd(12)} ${kind(p.cmd)}`),
    total,
  );
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--report') return report(JSON.parse(readFileSync(args[1], 'utf8')));
  const out = args[0] === '--out' ? args[1] : undefined;
  const command = args.slice(args.indexOf('--') + 1);
  if (!command.length) throw new Error('usage: node bench/cpuSample.mjs [--out FILE.json] -- <command…>');
  const seen = new Map();
  sample(seen);
  const m0 = machine();
  const t0 = Date.now();
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
  const timer = setInterval(() => sample(seen), INTERVAL_MS);
  const code = await new Promise((r) => child.on('close', (c) => r(c ?? 1)));
  clearInterval(timer);
  sample(seen);
  const m1 = machine();
  // Only what the command started counts, not other engineers' work beside it.
  const procs = [...seen.values()]
    .filter((p) => p.pids.includes(child.pid))
    .map((p) => ({ pid: p.pid, cmd: p.cmd.slice(0, 400), chain: p.chain.map((c) => c.slice(0, 200)), ticks: p.ticks }));
  const cores = (read('/proc/stat').match(/^cpu\d+/gm) ?? []).length;
  const run = { command, code, wallMs: Date.now() - t0, busy: m1.busy - m0.busy, cores, procs };
  if (out) writeFileSync(out, JSON.stringify(run));
  report(run);
  return code;
}

main().then(
  (code) => process.exit(code ?? 0),
  (e) => {
    console.error(e.stack ?? e);
    process.exit(2);
  },
);
