// The layers of src/ and the direction of their imports (STYLE.md, docs/architecture.md):
// shared <- core <- api <- adapters <- extension.ts; renderer and webview import only shared; the hub
// only core and shared. Each folder is a TypeScript project referencing the layers it may import, so
// `npm run typecheck` (tsc -b) rejects a wrong import. These tests hold the project files to that
// policy, prove a wrong import really fails to compile, and check what references cannot express
// (bare modules such as `vscode`, and import cycles between files).
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');

/** Which layers each layer may import (besides itself): the policy the tsconfig references implement. */
const ALLOWED: Record<string, readonly string[]> = {
  shared: [],
  core: ['shared'],
  api: ['core', 'shared'],
  hub: ['core', 'shared'],
  platform: ['api', 'core', 'shared'],
  auth: ['platform', 'api', 'core', 'shared'],
  tree: ['auth', 'platform', 'api', 'core', 'shared'],
  views: ['platform', 'api', 'core', 'shared'],
  notebook: ['tree', 'auth', 'platform', 'api', 'core', 'shared'],
  commands: ['notebook', 'views', 'tree', 'auth', 'platform', 'api', 'core', 'shared'],
  renderer: ['shared'],
  webview: ['shared'],
  // src/tsconfig.json: the composition root, src/extension.ts.
  extension: ['commands', 'notebook', 'views', 'tree', 'auth', 'platform', 'api', 'core', 'shared'],
};

/** Layers that run outside the extension host: `vscode` cannot be imported there. */
const NO_VSCODE = ['shared', 'core', 'api', 'hub', 'renderer', 'webview'];
/** Layers that run in a webview or in both runtimes: no Node built-ins either. */
const NO_NODE = ['shared', 'renderer', 'webview'];

function projectFile(layer: string): string {
  return layer === 'extension' ? path.join(SRC, 'tsconfig.json') : path.join(SRC, layer, 'tsconfig.json');
}

function parseProject(layer: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    projectFile(layer),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${projectFile(layer)}`);
  return parsed;
}

function layerOf(file: string): string {
  const rel = path.relative(SRC, file).split(path.sep);
  return rel.length === 1 ? 'extension' : rel[0]!;
}

function sourceFiles(): string[] {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(SRC, f));
}

/** Every module specifier a file imports: import/export declarations (type-only too), import types, import() and require(). */
function importsOf(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const edges: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      edges.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      edges.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      edges.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0]!)
    ) {
      edges.push((node.arguments[0] as ts.StringLiteral).text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}

function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    try {
      if (readdirSync(path.dirname(candidate)).includes(path.basename(candidate)) && candidate.endsWith('.ts')) return candidate;
    } catch {
      // not a directory
    }
  }
  return undefined;
}

/**
 * Compiles a layer's project with one extra, in-memory file, the way `tsc -b` would, and returns
 * the diagnostics about that file's imports. Referenced projects are read from source (as editors
 * do), so this needs no prior build.
 */
function compileWithProbe(layer: string, text: string): ts.Diagnostic[] {
  const parsed = parseProject(layer);
  const probe = path.join(SRC, layer, '__layerProbe.ts');
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (file, language, ...rest) => {
    if (path.resolve(file) === probe) return ts.createSourceFile(file, text, language);
    // Parsed once for all probes (lib and @types files are most of the time).
    const key = `${file}\n${JSON.stringify(language)}`;
    if (!parsedFiles.has(key)) parsedFiles.set(key, getSourceFile(file, language, ...rest));
    return parsedFiles.get(key);
  };
  host.fileExists = (file) => path.resolve(file) === probe || fileExists(file);
  (host as ts.CompilerHost & { useSourceOfProjectReferenceRedirect(): boolean }).useSourceOfProjectReferenceRedirect = () => true;
  const program = ts.createProgram({
    rootNames: [...parsed.fileNames, probe],
    options: parsed.options,
    projectReferences: parsed.projectReferences ?? [],
    host,
  });
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSemanticDiagnostics(program.getSourceFile(probe)),
  ];
}

const parsedFiles = new Map<string, ts.SourceFile | undefined>();

/** TS6307: "File … is not listed within the file list of project …": an import of a layer not referenced. */
const NOT_IN_PROJECT = 6307;

describe('layers', () => {
  it('each layer project references exactly the layers it may import', () => {
    for (const [layer, allowed] of Object.entries(ALLOWED)) {
      const refs = (parseProject(layer).projectReferences ?? []).map((r) => layerOf(path.join(r.path, 'x.ts')));
      assert.deepEqual([...refs].sort(), [...allowed].sort(), `${path.relative(ROOT, projectFile(layer))} references`);
    }
  });

  it('every folder of src/ is one of the layers, in a project of its own', () => {
    const folders = new Set(sourceFiles().map(layerOf));
    assert.deepEqual([...folders].sort(), Object.keys(ALLOWED).sort());
    for (const layer of Object.keys(ALLOWED)) {
      const files = parseProject(layer).fileNames.filter((f) => !f.endsWith('.d.ts'));
      assert.ok(files.length > 0, `${layer} has files`);
      for (const f of files) assert.equal(layerOf(path.resolve(f)), layer, `${f} belongs to ${layer}`);
    }
  });

  it('a wrong import fails to compile, a right one compiles (checked with the real project files)', function () {
    this.timeout(120_000);
    const wrong: [string, string][] = [
      ['core', "import { registerCommands } from '../commands/registerCommands';\nexport const probe = registerCommands;\n"],
      ['hub', "import { isTreeNode } from '../tree/treeNodes';\nexport const probe = isTreeNode;\n"],
      ['notebook', "import { registerCommands } from '../commands/registerCommands';\nexport const probe = registerCommands;\n"],
      ['renderer', "import { describeError } from '../core/errorMessages';\nexport const probe = describeError;\n"],
    ];
    for (const [layer, text] of wrong) {
      const codes = compileWithProbe(layer, text).map((d) => d.code);
      assert.ok(
        codes.includes(NOT_IN_PROJECT),
        `${layer}: ${text.split('\n')[0]} should fail with TS${NOT_IN_PROJECT}, got ${codes.join(', ') || 'no error'}`,
      );
    }
    const right: [string, string][] = [
      ['core', "import { Commands } from '../shared/ids';\nexport const probe = Commands;\n"],
      ['notebook', "import { isTreeNode } from '../tree/treeNodes';\nexport const probe = isTreeNode;\n"],
    ];
    for (const [layer, text] of right) {
      const diagnostics = compileWithProbe(layer, text);
      assert.deepEqual(
        diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')),
        [],
        `${layer}: ${text.split('\n')[0]}`,
      );
    }
  });

  it('no vscode outside the extension host, no Node built-ins where the code runs in a webview', () => {
    // Project references cannot express this: an explicit `import 'vscode'` resolves @types/vscode
    // whatever `types` says. So it is checked here, on every import of every file.
    const builtins = new Set(require('node:module').builtinModules as string[]);
    const offences: string[] = [];
    for (const file of sourceFiles()) {
      const layer = layerOf(file);
      for (const specifier of importsOf(file)) {
        if (specifier === 'vscode' && NO_VSCODE.includes(layer)) offences.push(`${path.relative(ROOT, file)} imports vscode`);
        if ((specifier.startsWith('node:') || builtins.has(specifier)) && NO_NODE.includes(layer)) {
          offences.push(`${path.relative(ROOT, file)} imports ${specifier}`);
        }
      }
    }
    assert.deepEqual(offences, []);
  });

  it('the import scanner sees every kind of import (so the rule above cannot miss one)', () => {
    const tmp = path.join(require('node:os').tmpdir(), `layers-${process.pid}.ts`);
    require('node:fs').writeFileSync(
      tmp,
      "import * as a from 'vscode';\nimport type { B } from './b';\nexport { c } from './c';\nconst d = require('node:fs');\n" +
        "type E = import('./e').E;\nvoid import('./f');\n// import 'not-this';\nconst s = \"import 'nor-this'\";\n",
    );
    try {
      assert.deepEqual(importsOf(tmp), ['vscode', './b', './c', 'node:fs', './e', './f']);
    } finally {
      require('node:fs').rmSync(tmp);
    }
  });

  it('every import form (import, export from, import type, import(), require) goes only to a layer it may', () => {
    // The compiler refuses a static import of a layer the project does not reference, but not a
    // require() or an import() of a relative path: this is the one rule that sees every form.
    assert.deepEqual(layerOffences(sourceFiles()), []);
  });

  it('the layer rule names a require() and an import() that run the wrong way (it can fail)', () => {
    const dir = path.join(SRC, 'api');
    const probe = path.join(dir, '__layerRuleProbe.ts');
    require('node:fs').writeFileSync(
      probe,
      "const t = require('../tree/treeNodes');\nvoid import('../commands/registerCommands');\nexport { t };\n",
    );
    try {
      assert.deepEqual(layerOffences([probe]), [
        'src/api/__layerRuleProbe.ts imports ../tree/treeNodes (api may import core, shared)',
        'src/api/__layerRuleProbe.ts imports ../commands/registerCommands (api may import core, shared)',
      ]);
    } finally {
      require('node:fs').rmSync(probe);
    }
  });

  it('no import cycle between files, type-only imports included (a circle means two modules are one)', () => {
    const graph = new Map<string, string[]>();
    for (const file of sourceFiles()) {
      graph.set(
        file,
        importsOf(file)
          .map((specifier) => resolveRelative(file, specifier))
          .filter((t): t is string => t !== undefined),
      );
    }
    const cycles = findCycles(graph).map((c) => c.map((f) => path.relative(SRC, f)).join(' -> '));
    assert.deepEqual(cycles, []);
  });

  it('the cycle finder names a cycle and ignores a diamond', () => {
    const g = new Map<string, string[]>([
      ['a', ['b', 'c']],
      ['b', ['d']],
      ['c', ['d']],
      ['d', []],
      ['x', ['y']],
      ['y', ['z']],
      ['z', ['x']],
    ]);
    assert.deepEqual(findCycles(g), [['x', 'y', 'z', 'x']]);
  });
});

/** Each relative import, of any form, that reaches a layer its file's layer may not import. */
function layerOffences(files: string[]): string[] {
  const offences: string[] = [];
  for (const file of files) {
    const layer = layerOf(file);
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(SRC + path.sep)) continue;
      const targetLayer = layerOf(target.endsWith('.ts') ? target : `${target}.ts`);
      if (targetLayer === layer || ALLOWED[layer]!.includes(targetLayer)) continue;
      offences.push(`${path.relative(ROOT, file)} imports ${specifier} (${layer} may import ${ALLOWED[layer]!.join(', ') || 'nothing'})`);
    }
  }
  return offences;
}

/** One cycle per strongly connected component with more than one file (or a file importing itself). */
function findCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const strongConnect = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(pathThrough(graph, new Set(component)));
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indexOf.has(v)) strongConnect(v);
  return cycles;
}

/** A readable cycle inside a component: from its first file (sorted) back to itself. */
function pathThrough(graph: Map<string, string[]>, component: Set<string>): string[] {
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const cycle = [start];
        for (let u = v; u !== start; u = previous.get(u)!) cycle.splice(1, 0, u);
        return [...cycle, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
