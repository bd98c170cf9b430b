// `npm run hub`: serve the sample data on http://127.0.0.1:8787 (or HUB_PORT). Seeds the
// git-ignored folder .demo/hub-data (or HUB_DATA) on first use, then prints the URL and a token
// for alice. Ctrl+C, or SIGINT/SIGTERM/SIGHUP sent to npm or to this process, stops the hub.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopEverythingOnExit } from './lib/stopTree.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const hub = join(root, 'dist', 'hub.js');
const data = process.env.HUB_DATA ? resolve(process.env.HUB_DATA) : join(root, '.demo', 'hub-data');
const port = process.env.HUB_PORT ?? '8787';

const stopping = stopEverythingOnExit({ name: 'npm', before: (why) => console.log(`hub: stopping (${why})`) });

/** Runs a node script to completion; resolves its stdout, or exits with its output and code. */
function run(args, { inherit = false } = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ['ignore', inherit ? 'inherit' : 'pipe', inherit ? 'inherit' : 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d) => {
      out += d;
    });
    child.stderr?.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code, signal) => {
      if (code === 0) return resolvePromise(out.trim());
      if (signal || stopping()) return; // stopping: the exit handler owns the exit code
      process.stderr.write(err || out);
      process.exit(code ?? 1);
    });
  });
}

if (!existsSync(hub)) await run([join(root, 'esbuild.mjs')], { inherit: true });
if (!existsSync(data) || readdirSync(data).length === 0) {
  console.log(`Seeding ${data} ...`);
  await run([hub, 'seed', '--data', data]);
}
const token = await run([hub, 'token', 'create', '--user', 'alice', '--data', data]);

const child = spawn(process.execPath, [hub, 'serve', '--data', data, '--port', port, ...process.argv.slice(2)], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
child.stdout.setEncoding('utf8');
child.stdout.on('data', (line) => {
  process.stdout.write(line);
  if (/Hub listening on/.test(line)) {
    console.log(`Token for alice (password alice-password): ${token}`);
    console.log(`Try: curl -H "Authorization: Bearer ${token}" ${line.trim().replace('Hub listening on ', '')}/api/v2/user`);
    console.log(`Sample databases: see ${join(data, 'seed.json')}. Ctrl+C stops the hub.`);
  }
});
child.on('exit', (code) => {
  if (!stopping()) process.exit(code ?? 1);
});
