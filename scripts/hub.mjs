// `npm run hub`: serve the sample data on http://127.0.0.1:8787 (or HUB_PORT). Seeds the
// git-ignored folder .demo/hub-data on first use, then prints the URL and a token for alice.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const hub = join(root, 'dist', 'hub.js');
const data = join(root, '.demo', 'hub-data');
const port = process.env.HUB_PORT ?? '8787';

if (!existsSync(hub)) {
  const b = spawnSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const run = (args) => {
  const r = spawnSync(process.execPath, [hub, ...args], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(r.stderr || r.stdout);
    process.exit(r.status ?? 1);
  }
  return r.stdout.trim();
};

if (!existsSync(data) || readdirSync(data).length === 0) {
  console.log(`Seeding ${data} ...`);
  run(['seed', '--data', data]);
}
const token = run(['token', 'create', '--user', 'alice', '--data', data]);

const child = spawn(process.execPath, [hub, 'serve', '--data', data, '--port', port, ...process.argv.slice(2)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.setEncoding('utf8');
child.stdout.on('data', (line) => {
  process.stdout.write(line);
  if (/Hub listening on/.test(line)) {
    console.log(`Token for alice (password alice-password): ${token}`);
    console.log(`Try: curl -H "Authorization: Bearer ${token}" ${line.trim().replace('Hub listening on ', '')}/api/v2/user`);
    console.log('Sample databases: see .demo/hub-data/seed.json. Ctrl+C stops the hub.');
  }
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
