// The wire-case rule (docs/architecture.md, "Names"): wire objects keep the server's snake_case
// wherever they travel, typed once in src/shared/wire.ts; every name the code itself chooses is
// camelCase. So a snake_case property may be declared only in src/shared/wire.ts, and in api/ and
// hub/, which parse and store loose views of the same wire shapes.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const SRC = path.resolve(__dirname, '../../src');
const WIRE_PLACES = [path.join('shared', 'wire.ts'), `api${path.sep}`, `hub${path.sep}`];
/** Other protocols' wire shapes, declared where they are parsed. */
const OTHER_WIRES = [
  // OAuth 2.0's token response (RFC 6749, 5.1 and 5.2).
  'auth/oauthFlow.ts access_token',
  'auth/oauthFlow.ts error_description',
  // The local hub's seed manifest file (written by src/hub/seed.ts).
  'auth/seedManifest.ts sample_user',
  'auth/seedManifest.ts primary_user',
];

function snakeCaseDeclarations(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isPropertySignature(node) || ts.isPropertyDeclaration(node)) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
      const name = node.name.text;
      if (/^[a-z0-9]+(_[a-z0-9]+)+$/.test(name)) {
        found.push(`${path.relative(SRC, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${name}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('wire case', () => {
  it('declares snake_case properties only for wire shapes (shared/wire.ts, api/, hub/)', () => {
    const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    const offences = files
      .filter((f) => !WIRE_PLACES.some((w) => f === w || f.startsWith(w)))
      .flatMap((f) => snakeCaseDeclarations(path.join(SRC, f)))
      .filter((d) => !OTHER_WIRES.includes(d.replace(/:\d+ /, ' ')));
    assert.deepEqual(offences, []);
  });

  it('finds a snake_case property where there is one (the check can fail)', () => {
    const wire = snakeCaseDeclarations(path.join(SRC, 'shared', 'wire.ts'));
    assert.ok(
      wire.some((d) => d.endsWith(' head_commit_sha')),
      wire.slice(0, 5).join('; '),
    );
  });
});
