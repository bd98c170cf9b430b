// Type-checks every runtime with its own tsconfig so layer rules are enforced by the compiler:
// api/core/hub cannot see `vscode`, shared sees neither node nor DOM, renderer sees only DOM.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = [
  'tsconfig.json',
  'src/shared/tsconfig.json',
  'src/core/tsconfig.json',
  'src/api/tsconfig.json',
  'src/hub/tsconfig.json',
  'src/renderer/tsconfig.json',
  'src/webview/tsconfig.json',
  'test/tsconfig.json',
];
let failed = false;
for (const p of projects) {
  if (!existsSync(p)) continue;
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', p], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`typecheck failed: ${p}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
