// Shared set-up of F1's integration tests: the live extension's objects, its host id for the test
// hub, and command deps with a scripted person in place of the real UI.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { HubClient } from '../../src/api/index';
import { signIn } from '../../src/auth/signInFlow';
import type { AccountCommandDeps } from '../../src/commands/accountCommands';
import { normalizeSiteUrl } from '../../src/core/hostUrl';
import { silentLogger } from '../../src/core/logger';
import type { VersionedDbApi } from '../../src/extension';
import { EXTENSION_ID } from '../../src/shared/ids';
import type { TreeNode } from '../../src/tree/treeNodes';
import { integrationConfig } from './testEnv';
import type { ScriptedUi } from '../helpers/scriptedUi';
import { waitFor } from '../helpers/waitFor.cjs';
import { hostScriptedUi } from './hostScriptedUi';

export interface Harness {
  api: VersionedDbApi;
  ui: ScriptedUi;
  deps: AccountCommandDeps;
  hostId: string;
  /** The server as alice sees it, independent of the extension. */
  server: HubClient;
  hubUrl: string;
  /** Signs in as alice with her token through the real sign-in flow (scripted answers). */
  signInAsAlice(): Promise<void>;
  /** Children labels at a path of labels from the root, via the live tree model. */
  childrenAt(...path: string[]): Promise<TreeNode[]>;
}

export async function harness(): Promise<Harness> {
  const config = integrationConfig();
  const ext = vscode.extensions.getExtension<VersionedDbApi>(EXTENSION_ID);
  assert.ok(ext, 'extension not loaded');
  const api = await ext.activate();
  const hostId = normalizeSiteUrl(config.hubUrl);
  // The runner applies versionedDb.hosts before the suite; wait until the extension sees it.
  await waitFor(`the test hub ${hostId} among the hosts`, () => api.services.clients.host(hostId), { intervalMs: 100 });
  const ui = hostScriptedUi();
  const deps: AccountCommandDeps = { ...api.commandDeps, ui };
  const h: Harness = {
    api,
    ui,
    deps,
    hostId,
    server: new HubClient({ baseUrl: config.hubUrl, token: config.token }),
    hubUrl: config.hubUrl,
    async signInAsAlice() {
      ui.answer('Personal access token', config.token);
      const account = await signIn(
        {
          ui,
          accounts: api.services.accounts,
          hosts: () => api.services.clients.hosts(),
          validate: (site, token, signal) => api.services.validate(site, token, signal),
          oauth: () => Promise.reject(new Error('not in this test')),
          signInToLocalHub: async () => undefined,
          log: silentLogger,
        },
        hostId,
      );
      assert.equal(account?.username, 'alice', `sign-in failed: ${ui.errors.map(String).join('; ')}`);
    },
    async childrenAt(...path: string[]) {
      let nodes = await api.tree.model.children();
      let parent: TreeNode | undefined;
      for (const step of path) {
        parent = nodes.find((n) => labelOf(n, h) === step);
        assert.ok(parent, `no "${step}" among ${nodes.map((n) => labelOf(n, h)).join(', ')}`);
        nodes = await api.tree.model.children(parent);
      }
      return nodes;
    },
  };
  return h;
}

/** The label the tree shows for a node (as the provider renders it). */
export function labelOf(n: TreeNode, h: Pick<Harness, 'api'>): string {
  switch (n.kind) {
    case 'host':
      return h.api.services.clients.labelOf(n.hostId);
    case 'database':
      return `${n.db.owner}/${n.db.name}`;
    case 'category':
      return { branches: 'Branches', tags: 'Tags', releases: 'Releases', pulls: 'Pull Requests', forks: 'Forks', operations: 'Operations' }[
        n.category
      ];
    case 'branch':
      return n.branch.name;
    case 'tag':
      return n.tag.name;
    case 'release':
      return n.release.title;
    case 'pull':
      return `#${n.pull.pull_number} ${n.pull.title}`;
    case 'fork':
      return `${n.fork.owner}/${n.fork.name}`;
    case 'operation':
      return `${n.operation.type} ${n.operation.status}`;
    case 'commits':
      return 'Commits';
    case 'commit':
      return n.commit.subject;
    case 'tables':
      return 'Tables';
    case 'table':
      return n.table.name;
    case 'column':
      return n.column.name;
    case 'tests':
      return 'Tests';
    case 'testGroup':
      return n.group;
    case 'test':
      return n.test.name;
    case 'loadMore':
      return 'Load more…';
    case 'error':
      return 'error';
    case 'message':
      return n.text;
  }
}

/** VS Code's own list of accounts for a provider (the Accounts menu); finalized after the 1.90 typings. */
export async function accountsMenu(): Promise<string[]> {
  const auth = vscode.authentication as typeof vscode.authentication & {
    getAccounts?(providerId: string): Thenable<readonly { id: string; label: string }[]>;
  };
  assert.ok(auth.getAccounts, 'this VS Code has no authentication.getAccounts');
  return (await auth.getAccounts('versionedDb')).map((a) => a.label);
}
