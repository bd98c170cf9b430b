// The real extension follows VS Code's http.proxy setting as soon as it changes: a host reached by
// name goes through the proxy, while the local hub (loopback) never does, so a proxy that cannot
// reach this machine does not cut the user off from it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../../src/shared/ids';
import type { VersionedDbApi } from '../../src/extension';
import { startProxy, type TestProxy } from '../helpers/proxy';
import { integrationConfig } from './testEnv';

describe('network: VS Code proxy settings', function () {
  this.timeout(60_000);
  let proxy: TestProxy | undefined;
  const http = () => vscode.workspace.getConfiguration('http');

  afterEach(async () => {
    await http().update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await http().update('noProxy', undefined, vscode.ConfigurationTarget.Global);
    await proxy?.close();
    proxy = undefined;
  });

  it('requests to a named host go through http.proxy once it is set; the local hub never does; noProxy opts a host out', async () => {
    const { hubUrl, token } = integrationConfig();
    const api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as VersionedDbApi;
    const hubPort = Number(new URL(hubUrl).port);
    // The proxy reaches "hub.example.test" at the test hub; nothing else can resolve that name.
    proxy = await startProxy({ route: () => ({ host: '127.0.0.1', port: hubPort }) });
    const byName = `http://hub.example.test:${hubPort}`;

    await http().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    const viaProxy = await api.services.clients.clientWithToken(byName, token).getCurrentUser();
    assert.equal(viaProxy.username, 'alice');
    assert.deepEqual(
      proxy.seen.map((r) => [r.kind, r.target]),
      [['forward', `${byName}/api/v2/user`]],
    );

    const direct = await api.services.clients.clientWithToken(hubUrl, token).getCurrentUser();
    assert.equal(direct.username, 'alice', 'the loopback hub answers with the proxy set');
    assert.equal(proxy.seen.length, 1, 'and the proxy did not see that request');

    await http().update('noProxy', ['example.test'], vscode.ConfigurationTarget.Global);
    const optedOut = await api.services.clients
      .clientWithToken(byName, token)
      .getCurrentUser()
      .then(
        () => 'answered',
        (e: unknown) => (e as { code?: string }).code,
      );
    // Direct, the name does not resolve: the proxy was not asked.
    assert.equal(optedOut, 'NETWORK_ERROR');
    assert.equal(proxy.seen.length, 1);
  });
});
