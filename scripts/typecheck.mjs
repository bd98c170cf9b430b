// Type-checks every layer of src/ (and the tests) as its own TypeScript project, in dependency
// order: `tsc -b` over the solution tsconfig.json. Each layer's project references only the layers
// it may import (see docs/architecture.md), so an import that runs the wrong way fails here with
// TS6307; each project also loads only its runtime's types (no DOM in the host, no node in the
// webviews). test/unit/layers.test.ts holds the projects to the policy. Declarations go to the
// git-ignored .tsbuild/, which makes a second run incremental.
import { spawnSync } from 'node:child_process';

const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'tsconfig.json', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
if (r.status !== 0) console.error('typecheck failed');
process.exit(r.status ?? 1);
