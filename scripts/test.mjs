// `npm test` after bootstrap: every suite, two at a time where they share nothing, so a 2-core
// machine stays busy (most suites keep about one core busy; run one after the other, the whole
// took over 20 minutes). What may run beside what, and why:
//
// - the pinned Node 24 + code-server install (test/e2e/lib/toolchain.mjs) starts at once in the
//   background (download and a native compile, about one core) and does not take a slot;
// - e2e, the longest suite by far (about 10 minutes), starts the moment the toolchain is there,
//   whatever else runs: it packages the extension in a folder of its own (scripts/package.mjs), so
//   it shares nothing with the suites that run from dist/. It takes one of the two slots. It does
//   not wait for lint either (on a warm machine that cost it half a minute): lint still gates
//   it, since a failed lint stops it (and every step running) at once;
// - lint (ESLint and Prettier's check) and build first; then typecheck, unit, hub, contract, integration (once the toolchain is there)
//   and scripts, in the slots left, longest first. Integration's runner skips its own build of
//   dist/, made here, so the hub tests that run dist/hub.js never see it half-written.
//
// The toolchain install and e2e are what the run waits for, so the other suites run at a lower
// CPU priority (nice 5): where they compete for a core, the critical path gets it. None of them
// gates on wall time.
//
// Each step's output is streamed with its name in front and kept whole in .artifacts/test/<step>.log.
// After a step fails no new step starts; the ones running finish, then the summary names the
// failures. Options: `node scripts/test.mjs unit hub` runs only those steps (and what they need).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const LOGS = join(ROOT, '.artifacts', 'test');
const SLOTS = 2;

/**
 * name, npm script, the steps it needs first, how it runs: 'background' (no slot), 'slot' (one of
 * SLOTS, when one is free) or 'critical' (at once, taking a slot: no new slot step starts until
 * one is free again), and whether it runs at the lower priority.
 */
const STEPS = [
  { name: 'toolchain', run: 'node test/e2e/lib/toolchain.mjs', needs: [], mode: 'background' },
  // Lint and the format check gate every suite: about a minute, against suites of many. A failed
  // gate stops the steps that run (e2e, which starts beside it) and starts no other.
  { name: 'lint', script: 'lint', needs: [], mode: 'slot', low: true, gate: true },
  { name: 'e2e', script: 'test:e2e', needs: ['toolchain'], mode: 'critical' },
  { name: 'build', script: 'build', needs: [], mode: 'slot', low: true },
  { name: 'hub', script: 'test:hub', needs: ['build', 'lint'], mode: 'slot', low: true },
  { name: 'typecheck', script: 'typecheck', needs: [], mode: 'slot', low: true },
  { name: 'unit', script: 'test:unit', needs: ['build', 'lint'], mode: 'slot', low: true },
  {
    name: 'integration',
    script: 'test:integration',
    needs: ['build', 'toolchain', 'lint'],
    mode: 'slot',
    low: true,
    env: { VDB_DIST_BUILT: '1' },
  },
  { name: 'contract', script: 'test:contract', needs: ['build', 'lint'], mode: 'slot', low: true },
  // Its demo test packages the extension (in a folder of its own) and starts code-server.
  { name: 'scripts', script: 'test:scripts', needs: ['build', 'toolchain', 'lint'], mode: 'slot', low: true },
];

/** The `nice` increment of the steps off the critical path. */
const LOW_PRIORITY = 5;

/** package.json's scripts: each step runs its script as npm would, minus npm in between (see runStep). */
const SCRIPTS = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;

const started = Date.now();
const clock = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s`;
const say = (m) => console.log(`[test ${clock()}] ${m}`);

/** The chosen steps and, transitively, what they need. */
function chosenSteps(names) {
  if (!names.length) return STEPS;
  const unknown = names.filter((n) => !STEPS.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown step(s) ${unknown.join(', ')}; steps: ${STEPS.map((s) => s.name).join(', ')}`);
  const want = new Set();
  const add = (n) => {
    if (want.has(n)) return;
    want.add(n);
    for (const d of STEPS.find((s) => s.name === n).needs) add(d);
  };
  for (const n of names) add(n);
  // A step that is not chosen is not waited for, except what the chosen ones need.
  return STEPS.filter((s) => want.has(s.name)).map((s) => ({ ...s, needs: s.needs.filter((d) => want.has(d)) }));
}

const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    // Each runner stops what it started (code-server, hubs, browsers) on this signal.
    for (const child of children) child.kill(signal);
    setTimeout(() => process.exit(signal === 'SIGINT' ? 130 : 143), 10_000).unref();
    Promise.all([...children].map((c) => new Promise((r) => c.once('close', r)))).then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

/**
 * Runs one step; resolves its exit code. A package.json script runs in `sh -c 'exec …'` with
 * node_modules/.bin on PATH, as `npm run` would, but with no npm process between: a signal sent
 * to this runner reaches the suite's own runner, which stops what it started.
 */
function runStep(step, onChild = () => {}) {
  const log = createWriteStream(join(LOGS, `${step.name}.log`));
  const command = step.run ?? SCRIPTS[step.script];
  if (!command) throw new Error(`package.json has no script '${step.script}'`);
  const env = { ...process.env, ...step.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}` };
  // `nice` (coreutils) lowers the priority of the shell and everything the suite starts.
  const argv = ['sh', '-c', `exec ${command}`];
  const [cmd, ...args] = step.low ? ['nice', '-n', String(LOW_PRIORITY), ...argv] : argv;
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  onChild(child);
  child.on('close', () => children.delete(child));
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      log.write(`${line}\n`);
      process.stdout.write(`[${step.name}] ${line}\n`);
    });
  }
  return new Promise((resolve) => {
    child.on('error', (e) => {
      log.end(`${e.stack}\n`);
      resolve(127);
    });
    child.on('close', (code, signal) => {
      log.end();
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

async function main() {
  const steps = chosenSteps(process.argv.slice(2));
  mkdirSync(LOGS, { recursive: true });
  /** name → { state: 'waiting'|'running'|'passed'|'failed'|'stopped', code, ms, child, stoppedBy } */
  const status = new Map(steps.map((s) => [s.name, { state: 'waiting' }]));
  let failed = false;
  let wake;

  const start = (step) => {
    const st = status.get(step.name);
    st.state = 'running';
    st.t0 = Date.now();
    say(`start ${step.name}`);
    runStep(step, (child) => {
      st.child = child;
    }).then((code) => {
      st.ms = Date.now() - st.t0;
      st.code = code;
      st.state = st.stoppedBy ? 'stopped' : code === 0 ? 'passed' : 'failed';
      if (code !== 0) failed = true;
      say(
        `${code === 0 ? 'passed' : st.stoppedBy ? `stopped (${st.stoppedBy} failed)` : `FAILED (exit ${code})`} ${step.name} in ${(st.ms / 1000).toFixed(0)} s`,
      );
      if (code !== 0 && step.gate) stopRunning(step.name);
      wake?.();
    });
  };
  /** A failed gate: the steps still running are told to stop (each runner stops what it started). */
  const stopRunning = (gate) => {
    for (const s of steps) {
      const st = status.get(s.name);
      if (st.state !== 'running' || !st.child) continue;
      st.stoppedBy = gate;
      say(`stopping ${s.name}: ${gate} failed`);
      st.child.kill('SIGTERM');
    }
  };

  for (;;) {
    const running = steps.filter((s) => status.get(s.name).state === 'running');
    const waiting = steps.filter((s) => status.get(s.name).state === 'waiting');
    if (!failed) {
      let slotsUsed = running.filter((s) => s.mode !== 'background').length;
      for (const step of waiting) {
        if (!step.needs.every((d) => status.get(d).state === 'passed')) continue;
        if (step.mode === 'background') {
          start(step);
          continue;
        }
        if (step.mode === 'critical') {
          start(step);
          slotsUsed++;
          continue;
        }
        if (slotsUsed < SLOTS) {
          start(step);
          slotsUsed++;
        }
      }
    }
    const nowRunning = steps.filter((s) => status.get(s.name).state === 'running');
    if (!nowRunning.length) break;
    await new Promise((r) => {
      wake = r;
    });
  }

  const minutes = (ms) => `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
  console.log(`\ntest summary (${minutes(Date.now() - started)}; each step's whole output in ${LOGS}/)`);
  for (const s of steps) {
    const st = status.get(s.name);
    const what =
      st.state === 'waiting'
        ? 'not run'
        : `${st.state}${st.state === 'failed' ? ` (exit ${st.code})` : st.state === 'stopped' ? ` (${st.stoppedBy} failed)` : ''} in ${minutes(st.ms ?? 0)}`;
    console.log(`  ${s.name.padEnd(12)} ${what}`);
  }
  return failed || steps.some((s) => status.get(s.name).state !== 'passed') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`test: ${e.message}`);
    process.exit(2);
  },
);
