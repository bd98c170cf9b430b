// E2E_STRESS=N: N CPU-bound processes beside the suite, as on a laptop that is busy with other
// work. The runner starts them before anything else and stops them at the end (also when it is
// interrupted or dies), so a stressed run needs nothing but the variable.
import { spawn } from 'node:child_process';

// Pure CPU, no allocation; every ~16M steps it checks that the runner is still its parent, so
// even a runner killed with SIGKILL leaves no busy loop behind.
const burn = (parent) =>
  `let x = 0; for (let i = 1; ; i++) { x = (x * 1103515245 + 12345) % 2147483648; if ((i & 0xffffff) === 0 && process.ppid !== ${parent}) process.exit(0); }`;

/** Starts `count` busy loops; returns stop(). */
export function startStress(count, { log = () => {} } = {}) {
  const children = [];
  for (let i = 0; i < count; i++) {
    children.push(spawn(process.execPath, ['-e', burn(process.pid)], { stdio: 'ignore' }));
  }
  if (count > 0) log(`stress: ${count} CPU-bound process(es) running beside the suite (pids ${children.map((c) => c.pid).join(', ')})`);
  const stop = () => {
    for (const c of children) if (c.exitCode === null && !c.signalCode) c.kill('SIGKILL');
  };
  // Whatever way the runner ends, the busy loops end with it.
  process.once('exit', stop);
  return stop;
}
