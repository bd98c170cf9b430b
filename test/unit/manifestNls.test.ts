// Every user-visible string of package.json is a %key% of package.nls.json (issue #27), so a
// translation is one file beside it (package.nls.<locale>.json); and every key there is used.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;
const nls = JSON.parse(readFileSync('package.nls.json', 'utf8')) as Record<string, string>;

/** Field names whose string values VS Code shows to a person. */
const VISIBLE = new Set([
  'displayName',
  'description',
  'markdownDescription',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'title',
  'shortTitle',
  'category',
  'label',
  'name',
  'contextualTitle',
  'contents',
  'altText',
]);

/** [path, value] of every visible string under `node` (enumDescriptions too). */
function visibleStrings(node: unknown, path: string[] = []): [string, string][] {
  if (Array.isArray(node)) return node.flatMap((v, i) => visibleStrings(v, [...path, String(i)]));
  if (!node || typeof node !== 'object') return [];
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(node)) {
    const here = [...path, k];
    if (typeof v === 'string' && VISIBLE.has(k)) out.push([here.join('.'), v]);
    else if (k === 'enumDescriptions' && Array.isArray(v)) v.forEach((d, i) => out.push([[...here, String(i)].join('.'), String(d)]));
    else out.push(...visibleStrings(v, here));
  }
  return out;
}

describe('package.json strings are localizable', () => {
  const strings = visibleStrings({
    displayName: manifest['displayName'],
    description: manifest['description'],
    contributes: manifest['contributes'],
  });

  it('finds the strings it checks (commands, settings, views, walkthrough)', () => {
    assert.ok(strings.length > 80, `only ${strings.length} strings found`);
    for (const part of ['contributes.commands', 'contributes.configuration', 'contributes.walkthroughs', 'contributes.viewsWelcome'])
      assert.ok(
        strings.some(([p]) => p.startsWith(part)),
        `none under ${part}`,
      );
  });

  it('every visible string is a %key% that package.nls.json defines', () => {
    const literal = strings.filter(([, v]) => !/^%[\w.-]+%$/.test(v));
    assert.deepEqual(literal, [], 'literal strings: move them into package.nls.json');
    for (const [p, v] of strings) assert.ok(nls[v.slice(1, -1)] !== undefined, `${p}: ${v} is not in package.nls.json`);
  });

  it('every key of package.nls.json is used, and none is empty', () => {
    const used = new Set(strings.map(([, v]) => v.slice(1, -1)));
    for (const [k, v] of Object.entries(nls)) {
      assert.ok(used.has(k), `package.nls.json: ${k} is not used`);
      assert.ok(v.trim().length > 0, `package.nls.json: ${k} is empty`);
    }
  });
});
