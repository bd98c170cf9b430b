// CPU time of processes from /proc: what a process is (by its command line), its utime+stime, and
// the machine's busy time. Used by bench/cpuSample.mjs (a whole command) and by benches that split
// one phase's CPU between the processes taking part (bench/pullDiff.mjs).
import { readFileSync, readdirSync } from 'node:fs';

export const TICK = 100; // USER_HZ (getconf CLK_TCK) on Linux
export const read = (p) => {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
};

/** pid → { ppid, ticks, start } from /proc/<pid>/stat (fields after the command's closing paren). */
export function stat(pid) {
  const s = read(`/proc/${pid}/stat`);
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  if (f.length < 20) return undefined;
  return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), start: f[19] };
}

/** Busy and total ticks of the whole machine. */
export function machine() {
  const f = read('/proc/stat').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const idle = f[3] + f[4];
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** What a process is, from its command line. */
export function kind(cmd) {
  const rules = [
    [/chrom.*--type=renderer.*--extension-process|--type=renderer/, 'chromium renderer'],
    [/chrom.*--type=gpu-process/, 'chromium gpu'],
    [/chrom.*--type=utility/, 'chromium utility (network, storage)'],
    [/chrom.*--type=zygote/, 'chromium zygote'],
    [/chrom/, 'chromium browser'],
    [/--type=extensionHost/, 'code-server extension host'],
    [/--type=fileWatcher/, 'code-server file watcher'],
    [/--type=ptyHost/, 'code-server pty host'],
    [/code-server/, 'code-server server'],
    [/hub\.js|scripts\/hub\.mjs/, 'hub'],
    [/typecheck|\btsc\b|typescript\/bin/, 'tsc'],
    [/eslint/, 'eslint'],
    [/prettier/, 'prettier'],
    [/esbuild/, 'esbuild'],
    [/mocha/, 'mocha'],
    [/vsce|package\.mjs/, 'packaging'],
    [/e2e\/run\.mjs/, 'e2e runner (node, playwright)'],
    [/runInVscodeServer/, 'integration runner'],
    [/npm|scripts\/test\.mjs|bootstrap/, 'npm / test runner'],
    [/^(sh|bash|nice|flock|env) /, 'shell'],
  ];
  for (const [re, name] of rules) if (re.test(cmd)) return name;
  return `other: ${cmd.split(' ')[0].split('/').pop()}`;
}

/** CPU seconds of this process and every process under it, summed by kind; and the machine's busy seconds. */
export function cpuOfTree(root = process.pid) {
  const procs = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(name);
    if (s) procs.set(Number(name), s);
  }
  const under = (pid) => {
    for (let p = pid, n = 0; p > 1 && n < 30; n++, p = procs.get(p)?.ppid ?? 0) if (p === root) return true;
    return false;
  };
  const byKind = new Map();
  for (const [pid, s] of procs) {
    if (!under(pid)) continue;
    const k = pid === root ? 'this process' : kind(read(`/proc/${pid}/cmdline`).replace(/\0/g, ' ').trim());
    byKind.set(k, (byKind.get(k) ?? 0) + s.ticks / TICK);
  }
  return { byKind, machineBusy: machine().busy / TICK };
}

/** What `after` adds to `before` (two cpuOfTree results), as rows "kind: seconds", largest first. */
export function cpuSpent(before, after) {
  const rows = [...after.byKind].map(([k, s]) => [k, s - (before.byKind.get(k) ?? 0)]).filter(([, s]) => s >= 0.01);
  rows.sort((a, b) => b[1] - a[1]);
  return { rows, machineBusy: after.machineBusy - before.machineBusy };
}
