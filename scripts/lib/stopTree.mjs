// Long-running npm scripts (`npm run hub`, `npm run demo`) stop everything they started when
// they are told to stop: SIGINT, SIGTERM or SIGHUP reaching this process, or this process's
// parent going away (npm ran the script through a shell that died without passing the signal
// on). "Everything" is every process below this one, found by parent id, so helpers that
// started their own children (code-server's extension host, the hub that host started) go too.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** pid -> parent pid of every process we can see. */
function parentsByPid() {
  const map = new Map();
  if (process.platform === 'linux') {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces or parentheses.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        map.set(Number(name), ppid);
      } catch {
        /* exited meanwhile */
      }
    }
    return map;
  }
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  for (const line of out.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid) map.set(pid, ppid);
  }
  return map;
}

/** Every process below `root` (children, their children, ...), parents before children. */
export function descendants(root = process.pid) {
  const parents = parentsByPid();
  const out = [];
  const queue = [root];
  while (queue.length) {
    const p = queue.shift();
    for (const [pid, ppid] of parents) {
      if (ppid === p && !out.includes(pid)) {
        out.push(pid);
        queue.push(pid);
      }
    }
  }
  return out;
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** SIGTERM to every descendant; SIGKILL to those still there after `graceMs`. */
export async function stopDescendants({ graceMs = 5000 } = {}) {
  const pids = descendants();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  const deadline = Date.now() + graceMs;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  // Anything started while we waited (a helper restarting a child) goes too.
  for (const pid of [...pids, ...descendants()]) {
    if (isAlive(pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
}

/**
 * Installs the handlers: on a signal or when the parent goes away, `before()` runs (say what is
 * happening), every descendant is stopped, and the process exits (128 + signal number, as a shell
 * reports a signal death; 1 when orphaned). Returns a function that reports whether stopping began.
 */
export function stopEverythingOnExit({ name, before = () => undefined } = {}) {
  let stopping = false;
  const stop = (why, code) => {
    if (stopping) return;
    stopping = true;
    try {
      before(why);
    } catch {
      /* reporting must not block stopping */
    }
    stopDescendants().finally(() => process.exit(code));
  };
  const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  for (const [sig, code] of Object.entries(codes)) process.on(sig, () => stop(sig, code));
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) stop(`${name ?? 'parent'} went away`, 1);
  }, 500);
  watch.unref();
  return () => stopping;
}
