import { strict as assert } from 'node:assert';
import { forkNetwork, MAX_NETWORK_DATABASES, networkBranches, type NetworkApi } from '../../../src/commands/pullNetwork';
import type { DatabaseRef } from '../../../src/shared/wire';
import { aBranch } from '../../builders/wire';

const ref = (s: string): DatabaseRef => {
  const [owner, name] = s.split('/') as [string, string];
  return { owner, name };
};
const key = (d: DatabaseRef): string => `${d.owner}/${d.name}`;

/** A network given as parent → children, with every database's root. */
function api(children: Record<string, string[]>, root: string, failing: string[] = []): NetworkApi & { forkCalls: string[] } {
  const forkCalls: string[] = [];
  return {
    forkCalls,
    async getDatabase(db) {
      return key(db) === root ? {} : { network_root: ref(root) };
    },
    async listForks(db) {
      forkCalls.push(key(db));
      if (failing.includes(key(db))) throw new Error('403');
      return (children[key(db)] ?? []).map(ref);
    },
    async listBranches(db) {
      if (failing.includes(key(db))) throw new Error('404');
      return { items: [aBranch({ head_commit_sha: key(db) })] };
    },
  };
}

describe('fork network of a pull request', () => {
  it('walks from the root through forks of forks, the database itself first', async () => {
    const a = api({ 'alice/db': ['bob/db', 'carol/db'], 'bob/db': ['dave/db'] }, 'alice/db');
    const net = await forkNetwork(a, ref('bob/db'));
    assert.deepEqual(net.map(key), ['bob/db', 'alice/db', 'carol/db', 'dave/db']);
    assert.equal(new Set(a.forkCalls).size, a.forkCalls.length, 'no database is walked twice');
  });

  it('keeps the rest of the network when one fork cannot be read', async () => {
    const a = api({ 'alice/db': ['bob/db', 'carol/db'], 'carol/db': ['erin/db'] }, 'alice/db', ['bob/db']);
    const net = await forkNetwork(a, ref('alice/db'));
    assert.deepEqual(net.map(key), ['alice/db', 'bob/db', 'carol/db', 'erin/db']);
    const branches = await networkBranches(a, net);
    assert.deepEqual(
      branches.map((b) => key(b.db)),
      ['alice/db', 'carol/db', 'erin/db'],
    );
  });

  it('stops at a bound on a huge network', async () => {
    const many = Array.from({ length: 100 }, (_, i) => `u${i}/db`);
    const net = await forkNetwork(api({ 'alice/db': many }, 'alice/db'), ref('alice/db'));
    assert.equal(net.length, MAX_NETWORK_DATABASES);
  });
});
