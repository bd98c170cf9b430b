import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localUserName, readSeedManifest } from '../../../src/auth/seedManifest';

describe('local hub seed manifest', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'vdb-seed-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the users and databases the hub seeded (its seed.json shape)', async () => {
    writeFileSync(
      join(dir, 'seed.json'),
      JSON.stringify({
        version: 1,
        users: [
          { username: 'alice', email: 'a@x', password: 'p' },
          { username: 'bob', email: 'b@x', password: 'p' },
        ],
        orgs: [],
        databases: [
          { owner: 'alice', name: 'prices', visibility: 'public' },
          { owner: 'acme', name: 'payroll', visibility: 'private', parent: 'x/y' },
        ],
        primary: { owner: 'alice', name: 'prices' },
        oauth_client_id: 'versioned-db-vscode',
      }),
    );
    assert.deepEqual(await readSeedManifest(dir), {
      users: ['alice', 'bob'],
      databases: [
        { owner: 'alice', name: 'prices' },
        { owner: 'acme', name: 'payroll' },
      ],
    });
  });

  it('has no manifest in a folder that was not seeded', async () => {
    assert.equal(await readSeedManifest(dir), undefined);
  });

  it('makes OS user names acceptable hub user names', () => {
    assert.equal(localUserName('Jane.Doe'), 'jane-doe');
    assert.equal(localUserName('root'), 'root');
    assert.equal(localUserName('...'), 'me');
    assert.equal(localUserName('DOMAIN\\Ünïcode user'), 'domain-n-code-user');
  });
});
