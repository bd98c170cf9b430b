import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { Commands, Views, Settings } from '../../src/shared/ids';

interface Manifest {
  name: string;
  publisher: string;
  contributes: {
    commands?: { command: string }[];
    viewsContainers?: Record<string, { id: string }[]>;
    configuration?: { properties?: Record<string, unknown> } | { properties?: Record<string, unknown> }[];
  };
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;

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
    assert.ok(containers.some((c) => c.id === Views.container), 'view container missing');
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
});
