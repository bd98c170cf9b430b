// What a newcomer meets first on the hub's command line: help that is not an error, and a
// one-line refusal (no stack trace) when seeding a folder that already holds databases.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HUB_JS, startHub } from '../helpers/hub';

/** Runs `node dist/hub.js ...args` to its end, whatever the exit code. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HUB_JS, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('hub CLI: help and refusals', function () {
  this.timeout(120000);

  for (const args of [['--help'], ['-h'], ['help'], ['seed', '--help'], ['serve', '-h']]) {
    it(`'hub ${args.join(' ')}' prints the usage on stdout and exits 0`, async () => {
      const r = await cli(args);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^Usage: node dist\/hub\.js COMMAND/);
      for (const command of ['serve', 'user add', 'token create', 'org add', 'seed', 'help'])
        assert.ok(r.stdout.includes(`hub ${command}`), `usage names 'hub ${command}'`);
      assert.equal(r.stderr, '');
    });
  }

  it('no command at all is a usage error: the reason and the usage on stderr, exit 2', async () => {
    const r = await cli([]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^hub: No command given\.\n\nUsage:/);
    assert.equal(r.stdout, '');
  });

  it('seeding a folder that already holds databases says so in one line, exit 1, and changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vdb-cli-seeded-'));
    try {
      // A folder with one database, made through the hub's own API.
      const hub = await startHub({ dataDir: dir, users: ['dora'] });
      try {
        const res = await hub.fetch('/databases', {
          user: 'dora',
          method: 'POST',
          json: { owner: 'dora', name: 'stuff', visibility: 'public' },
        });
        assert.equal(res.status, 201, res.text);
      } finally {
        await hub.stop({ keep: true });
      }
      const files = (): string[] => readdirSync(dir, { recursive: true }).map(String).sort();
      const before = { files: files(), state: readFileSync(join(dir, 'hub.json'), 'utf8') };

      const r = await cli(['seed', '--data', dir]);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      const lines = r.stderr.split('\n').filter(Boolean);
      assert.equal(lines.length, 1, `one line, got:\n${r.stderr}`);
      assert.equal(
        lines[0],
        `hub: ${dir} already holds 1 database(s) (dora/stuff); seed an empty folder, or serve this one with 'hub serve --data ${dir}'.`,
      );
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
      assert.deepEqual({ files: files(), state: readFileSync(join(dir, 'hub.json'), 'utf8') }, before, 'the folder is untouched');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
