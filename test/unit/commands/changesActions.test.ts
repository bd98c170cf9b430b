import { strict as assert } from 'node:assert';
import { ScriptedUi, pick, pickOrType, typeInPicker } from '../../helpers/scriptedUi';
import { aBranch, aTag } from '../../builders/wire';
import { compareRefs, parseChangesRequest, type CompareEnv } from '../../../src/commands/changesActions';
import type { ChangesRequest } from '../../../src/core/review/requests';
import type { DatabaseTarget } from '../../../src/core/targets';

const target: DatabaseTarget = { hostId: 'h', db: { owner: 'alice', name: 'prices' } };

function env(ui: ScriptedUi, opened: ChangesRequest[]): CompareEnv {
  return {
    ui,
    clientFor: () => ({
      listBranches: async () => ({ items: [aBranch({ name: 'main' }), aBranch({ name: 'dev' })] }),
      listTags: async () => ({ items: [aTag({ name: 'v1' }), aTag({ name: 'v2' })] }),
    }),
    database: async () => target,
    showChanges: async (r: ChangesRequest) => {
      opened.push(r);
    },
  } as unknown as CompareEnv;
}

describe('Changes commands', () => {
  describe('parseChangesRequest', () => {
    it('takes the three kinds of request, with a table', () => {
      assert.deepEqual(parseChangesRequest({ kind: 'refs', target, from: 'v1', to: 'v2', threeDot: true, table: 'products' }), {
        request: { kind: 'refs', target, from: 'v1', to: 'v2', threeDot: true, table: 'products' },
      });
      const commit = '0123456789abcdefghijklmnopqrstuv';
      assert.deepEqual(parseChangesRequest({ kind: 'commit', target, commit }), { request: { kind: 'commit', target, commit } });
      assert.deepEqual(parseChangesRequest({ kind: 'pull', target: { ...target, pullNumber: 4 } }), {
        request: { kind: 'pull', target: { ...target, pullNumber: 4 } },
      });
    });

    it('says what is wrong with a bad one', () => {
      assert.match((parseChangesRequest(undefined) as { error: string }).error, /needs a request/);
      assert.match((parseChangesRequest({ kind: 'refs', target: {}, from: 'a', to: 'b' }) as { error: string }).error, /names no database/);
      assert.match((parseChangesRequest({ kind: 'refs', target, from: 'a' }) as { error: string }).error, /second ref is missing/);
      assert.match((parseChangesRequest({ kind: 'refs', target, from: 'HEAD', to: 'main' }) as { error: string }).error, /Show Changes: /);
      assert.match((parseChangesRequest({ kind: 'pull', target }) as { error: string }).error, /no pull request/);
      assert.match((parseChangesRequest({ kind: 'blame', target }) as { error: string }).error, /unknown kind/);
    });
  });

  describe('Compare Refs…', () => {
    it('opens the Changes view of two picked refs with two or three dots', async () => {
      const opened: ChangesRequest[] = [];
      const ui = new ScriptedUi([pickOrType('v1'), pickOrType('v2'), pick('v1...v2')]);
      const r = await compareRefs(env(ui, opened), undefined);
      assert.deepEqual(r, { kind: 'refs', target, from: 'v1', to: 'v2', threeDot: true });
      assert.deepEqual(opened, [r]);
    });

    it('offers the node it ran on first as the newer side, and takes a typed commit hash', async () => {
      const opened: ChangesRequest[] = [];
      const hash = '0123456789abcdefghijklmnopqrstuv';
      const ui = new ScriptedUi([
        typeInPicker(hash),
        (labels: string[]) => {
          assert.equal(labels[0], '$(git-branch) dev');
          return 'dev';
        },
        pick(`${hash}..dev`),
      ]);
      const r = await compareRefs(env(ui, opened), { kind: 'branch', hostId: 'h', db: target.db, branch: aBranch({ name: 'dev' }) });
      assert.deepEqual(r, { kind: 'refs', target, from: hash, to: 'dev', threeDot: false });
    });

    it('refuses a typed ref that is no revision, and a ref compared with itself, opening nothing', async () => {
      const opened: ChangesRequest[] = [];
      const bad = new ScriptedUi([typeInPicker('HEAD')]);
      assert.equal(await compareRefs(env(bad, opened), undefined), undefined);
      assert.match(bad.infos[0] ?? '', /Cannot compare from that/);
      const same = new ScriptedUi([pickOrType('main'), typeInPicker('main')]);
      assert.equal(await compareRefs(env(same, opened), undefined), undefined);
      assert.match(same.infos[0] ?? '', /compared with itself/);
      assert.deepEqual(opened, []);
    });
  });
});
