import { strict as assert } from 'node:assert';
import { AccountStore } from '../../../src/auth/accountStore';
import { OAuthDeniedError } from '../../../src/auth/oauthDeniedError';
import { signIn, type SignInDeps } from '../../../src/auth/signInFlow';
import type { HostInfo } from '../../../src/auth/clientSource';
import { ApiError } from '../../../src/api/index';
import type { User } from '../../../src/shared/wire';
import { MemorySecrets, MemoryState, silent } from '../../helpers/memoryFakes';
import { ScriptedUi, dismiss, input, pick, type Step } from '../../helpers/scriptedUi';

const HOSTS: HostInfo[] = [
  { id: 'https://a.example', label: 'A', siteUrl: 'https://a.example', isLocal: false },
  { id: 'https://b.example', label: 'B', siteUrl: 'https://b.example', isLocal: false },
];

function setup(steps: Step[], validate: (site: string, token: string) => Promise<User>) {
  const ui = new ScriptedUi(steps);
  const secrets = new MemorySecrets();
  const accounts = new AccountStore(new MemoryState(), secrets);
  const validated: string[] = [];
  let localCalls = 0;
  const deps: SignInDeps = {
    ui,
    accounts,
    hosts: () => HOSTS,
    validate: async (site, token) => {
      validated.push(`${site} ${token}`);
      return validate(site, token);
    },
    oauth: async () => 'oauth-token',
    signInToLocalHub: async () => {
      localCalls++;
      return undefined;
    },
    log: silent,
  };
  return { ui, secrets, accounts, deps, validated, localCalls: () => localCalls };
}

const alice = async (): Promise<User> => ({ username: 'alice', display_name: 'Alice', email_addresses: [] });

describe('sign-in flow', () => {
  it('validates a personal access token with GET /user before storing it', async () => {
    const s = setup([pick('B'), pick('Personal access token'), input('  pat-1  ')], alice);
    const account = await signIn(s.deps);
    assert.equal(account?.username, 'alice');
    assert.equal(account?.hostId, 'https://b.example');
    assert.deepEqual(s.validated, ['https://b.example pat-1']);
    assert.equal(await s.accounts.activeToken('https://b.example'), 'pat-1');
    assert.match(s.ui.infos[0]!, /Signed in to B as alice/);
    assert.equal(s.ui.remaining(), 0);
  });

  it('stores nothing when the host refuses the token, and reports it with the host', async () => {
    const refuse = async (): Promise<User> => {
      throw new ApiError({
        status: 401,
        code: 'UNAUTHENTICATED',
        title: 'Unauthorized',
        method: 'GET',
        path: '/api/v2/user',
        isProblem: true,
        requestId: 'r1',
      });
    };
    const s = setup([pick('Personal access token'), input('bad')], refuse);
    const account = await signIn(s.deps, 'https://a.example');
    assert.equal(account, undefined);
    assert.equal(s.secrets.map.size, 0);
    assert.equal(s.accounts.accounts().length, 0);
    assert.equal(s.ui.errors.length, 1);
    assert.equal(s.ui.errorContexts[0]?.hostId, 'https://a.example');
  });

  it('OAuth: the browser token is validated and stored as an oauth account', async () => {
    const s = setup([pick('Sign in with the browser')], alice);
    const account = await signIn(s.deps, 'https://a.example');
    assert.equal(account?.kind, 'oauth');
    assert.deepEqual(s.validated, ['https://a.example oauth-token']);
  });

  it('OAuth denied in the browser: says so plainly, stores nothing, reports no error', async () => {
    const s = setup([pick('Sign in with the browser')], alice);
    s.deps.oauth = async () => {
      throw new OAuthDeniedError();
    };
    assert.equal(await signIn(s.deps, 'https://a.example'), undefined);
    assert.equal(s.accounts.accounts().length, 0);
    assert.equal(s.secrets.map.size, 0);
    assert.deepEqual(s.validated, []);
    assert.equal(s.ui.errors.length, 0);
    assert.deepEqual(s.ui.infos, ['Sign-in to A was denied in the browser; nothing was stored.']);
  });

  it('cancelling at any prompt stores nothing and shows no error', async () => {
    for (const steps of [
      [pick('A'), dismiss('pick')],
      [pick('A'), pick('Personal access token'), input(undefined)],
    ]) {
      const s = setup(steps, alice);
      assert.equal(await signIn(s.deps), undefined);
      assert.equal(s.secrets.map.size, 0);
      assert.equal(s.ui.errors.length, 0);
    }
  });

  it('picking the local hub hands over to the local hub flow', async () => {
    const s = setup([pick('Local Hub')], alice);
    await signIn(s.deps);
    assert.equal(s.localCalls(), 1);
    assert.equal(s.validated.length, 0);
  });

  it('the token box rejects blanks and spaces', async () => {
    let validate: ((v: string) => string | undefined) | undefined;
    const s = setup(
      [pick('Personal access token'), { kind: 'input', reply: (_labels, p) => ((validate = p.input?.validate), undefined) }],
      alice,
    );
    await signIn(s.deps, 'https://a.example');
    assert.match(validate!('') ?? '', /Paste/);
    assert.match(validate!('a b') ?? '', /no spaces/);
    assert.equal(validate!('abc'), undefined);
  });
});
