// What starting a hub costs: `hub serve` on a copy of a seeded folder until it prints "Hub
// listening", its CPU (user + system of the process and its worker threads, /proc) and the time
// it took; `runs` times, with the serve flags given after the folder.
//
//   node dist/hub.js seed --data /tmp/seeded
//   flock /tmp/vdb-heavy.lock node bench/hubStart.mjs dist/hub.js /tmp/seeded 7 [--query-workers 1 …]
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [hubJs, seeded, runs = '7', ...args] = process.argv.slice(2);
if (!hubJs || !seeded) throw new Error('usage: node bench/hubStart.mjs HUB_JS SEEDED_DIR [RUNS] [serve flags…]');

function cpuMs(pid) {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const cpu = [];
const wall = [];
for (let i = 0; i < Number(runs); i++) {
  const dir = mkdtempSync(join(tmpdir(), 'vdb-hubstart-'));
  cpSync(seeded, dir, { recursive: true });
  const t0 = Date.now();
  const child = spawn(process.execPath, [hubJs, 'serve', '--data', dir, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (/Hub listening/.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`hub exited ${code}: ${out}`)));
  });
  wall.push(Date.now() - t0);
  cpu.push(cpuMs(child.pid));
  child.removeAllListeners('exit');
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `hub serve ${args.join(' ')}: CPU ${cpu.join(', ')} ms (median ${median(cpu)}); listening after ${wall.join(', ')} ms (median ${median(wall)})`,
);
