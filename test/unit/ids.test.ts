import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { Commands, ContextValues, NumericSettings, Settings, Views, WebviewTypes } from '../../src/shared/ids';
import { readSqlSettings } from '../../src/platform/settings';
import { IMPORT_FORMATS, importFileWhenClause } from '../../src/shared/importFormats';

interface Manifest {
  name: string;
  publisher: string;
  contributes: {
    commands?: { command: string }[];
    viewsContainers?: Record<string, { id: string }[]>;
    configuration?: { properties?: Record<string, unknown> } | { properties?: Record<string, unknown> }[];
    menus?: Record<string, { command: string; when?: string }[]>;
  };
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;

interface SettingProperty {
  type?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

function settingProperties(): Record<string, SettingProperty> {
  const config = manifest.contributes.configuration;
  const blocks = Array.isArray(config) ? config : config ? [config] : [];
  return Object.assign({}, ...blocks.map((b) => b.properties ?? {})) as Record<string, SettingProperty>;
}

function sourceFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => `${dir}/${f}`);
}

describe('ids match package.json', () => {
  it('names the package as the design card says', () => {
    assert.equal(manifest.name, 'versioned-db');
  });

  it('contributes every command id declared in Commands, and no unknown one', () => {
    const contributed = new Set((manifest.contributes.commands ?? []).map((c) => c.command));
    const declared = new Set<string>(Object.values(Commands));
    for (const id of declared) assert.ok(contributed.has(id), `command ${id} is not in package.json`);
    for (const id of contributed) assert.ok(declared.has(id), `package.json command ${id} is not in Commands`);
  });

  it('declares the view container', () => {
    const containers = Object.values(manifest.contributes.viewsContainers ?? {}).flat();
    assert.ok(
      containers.some((c) => c.id === Views.container),
      'view container missing',
    );
  });

  it('prefixes every setting with the section', () => {
    const config = manifest.contributes.configuration;
    const blocks = Array.isArray(config) ? config : config ? [config] : [];
    for (const b of blocks) {
      for (const key of Object.keys(b.properties ?? {})) {
        assert.ok(key.startsWith(`${Settings.section}.`), `setting ${key} lacks the prefix`);
      }
    }
  });

  it('declares every setting of package.json in Settings, and no other', () => {
    const declared = Object.entries(Settings)
      .filter(([k]) => k !== 'section')
      .map(([, v]) => v)
      .sort();
    assert.deepEqual(Object.keys(settingProperties()).sort(), declared);
  });

  it("holds every numeric setting's default and bounds in NumericSettings, both ways", () => {
    const numeric = Object.entries(settingProperties()).filter(([, p]) => p.type === 'integer' || p.type === 'number');
    assert.deepEqual(numeric.map(([k]) => k).sort(), Object.keys(NumericSettings).sort(), 'numeric settings');
    for (const [key, p] of numeric) {
      const bounds = NumericSettings[key as keyof typeof NumericSettings];
      assert.deepEqual({ default: p.default, minimum: p.minimum, maximum: p.maximum }, { ...bounds }, key);
    }
  });

  it('the settings reader clamps to those bounds and falls back to the default', () => {
    const read = (values: Record<string, unknown>) => readSqlSettings({ get: <T>(k: string) => values[k] as T });
    const key = Settings.sqlTimeoutMs;
    assert.equal(read({}).timeoutMs, NumericSettings[key].default);
    assert.equal(read({ [key]: 1 }).timeoutMs, NumericSettings[key].minimum);
    assert.equal(read({ [key]: 10 ** 9 }).timeoutMs, NumericSettings[key].maximum);
    assert.equal(read({ [key]: 'soon' }).timeoutMs, NumericSettings[key].default);
    assert.equal(read({ [Settings.sqlRowLimit]: 2.9 }).rowLimit, 2);
  });

  it('opens webview panels only with a view type of WebviewTypes', () => {
    const offences: string[] = [];
    const declared = new Set<string>(Object.values(WebviewTypes));
    for (const file of sourceFiles('src')) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/'versionedDb\.[A-Za-z]+'/g)) {
        if (declared.has(m[0].slice(1, -1)) && !file.endsWith('src/shared/ids.ts')) offences.push(`${file}: ${m[0]}`);
      }
      for (const m of text.matchAll(/createWebviewPanel\(\s*([^,]+),/g)) {
        if (!/^(WebviewTypes\.\w+|opts\.viewType)$/.test(m[1]!.trim())) offences.push(`${file}: createWebviewPanel(${m[1]}`);
      }
      for (const m of text.matchAll(/viewType:\s*([^,}\n]+)/g)) {
        if (!/^(WebviewTypes\.\w+|string;?)$/.test(m[1]!.trim()) && !file.endsWith('pagedGridPanel.ts'))
          offences.push(`${file}: viewType: ${m[1]}`);
      }
    }
    assert.deepEqual(offences, []);
  });

  it('every viewItem a menu tests is a context value of ContextValues (src/shared/ids.ts)', () => {
    const values: readonly string[] = Object.values(ContextValues);
    const menus = Object.values(manifest.contributes.menus ?? {}).flat();
    let checked = 0;
    for (const { command, when } of menus) {
      for (const m of (when ?? '').matchAll(/viewItem\s*(==|=~)\s*(\/(?:\\.|[^/])+\/|[^\s&|)]+)/g)) {
        checked++;
        const [, op, operand] = m as unknown as [string, string, string];
        if (op === '==') {
          assert.ok(values.includes(operand), `${command}: viewItem == ${operand} is not in ContextValues`);
          continue;
        }
        // A regex: each alternative must match some value, so no branch of it is dead.
        const source = operand.slice(1, -1).replace(/\\\\/g, '\\');
        const group = /^\^\((.*)\)(\$?)$/.exec(source);
        const alternatives = group ? group[1]!.split('|').map((a) => `^(?:${a})${group[2]}`) : [source];
        for (const alternative of alternatives) {
          const re = new RegExp(alternative);
          assert.ok(
            values.some((v) => re.test(v)),
            `${command}: /${alternative}/ in "${when}" matches no context value`,
          );
        }
      }
    }
    assert.ok(checked >= 21, `found only ${checked} viewItem tests in package.json menus`);
  });

  it('the tree provider sets context values only from ContextValues', () => {
    const provider = readFileSync('src/tree/databaseTreeDataProvider.ts', 'utf8');
    assert.deepEqual(provider.match(/contextValue\s*=\s*['"`].*$/gm) ?? [], []);
  });

  it("the Explorer's Import File entry lists exactly the registry's file extensions", () => {
    const entries = (manifest.contributes.menus?.['explorer/context'] ?? []).filter((e) => e.command === Commands.importFile);
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.when, importFileWhenClause());
    // And the clause means what it says: every extension of every format, in any case, and no other.
    const re = new RegExp(/\/(.*)\/i$/.exec(entries[0]!.when!)![1]!, 'i');
    for (const f of IMPORT_FORMATS) for (const ext of f.extensions) assert.ok(re.test(`.${ext.toUpperCase()}`), ext);
    for (const other of ['.txt', '.csvx', '.ym', '.xls']) assert.ok(!re.test(other), other);
  });
});
