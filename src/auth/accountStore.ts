// Who is signed in where. Account metadata (no secrets) lives in globalState; each token lives
// only in SecretStorage under a key derived from the account id. Structural interfaces so unit
// tests use in-memory fakes; VS Code's SecretStorage and Memento satisfy them.

export type CredentialKind = 'token' | 'oauth' | 'localHub';

export interface Account {
  /** Stable: `${hostId}#${username}` so signing in again as the same user replaces the token. */
  readonly id: string;
  readonly hostId: string;
  readonly username: string;
  readonly displayName?: string;
  readonly kind: CredentialKind;
  readonly signedInAt: string;
}

export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

interface StoredState {
  accounts: Account[];
  /** hostId → account id used for requests to that host. */
  active: Record<string, string>;
}

const STATE_KEY = 'versionedDb.accounts.v1';
const SECRET_PREFIX = 'versionedDb.token:';

export function accountId(hostId: string, username: string): string {
  return `${hostId}#${username}`;
}

type Listener = () => void;

export class AccountStore {
  private readonly listeners = new Set<Listener>();
  /** Serializes writes so two sign-ins at once cannot drop each other's account. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly state: StateStore,
    private readonly secrets: SecretStore,
  ) {}

  onDidChange(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  accounts(): readonly Account[] {
    return this.read().accounts;
  }

  accountsFor(hostId: string): readonly Account[] {
    return this.read().accounts.filter((a) => a.hostId === hostId);
  }

  /** The account requests to `hostId` use: the one last signed in or chosen, if any. */
  activeAccount(hostId: string): Account | undefined {
    const s = this.read();
    const id = s.active[hostId];
    return s.accounts.find((a) => a.id === id) ?? s.accounts.find((a) => a.hostId === hostId);
  }

  async token(account: Account): Promise<string | undefined> {
    return this.secrets.get(SECRET_PREFIX + account.id);
  }

  /** The token requests to `hostId` carry, read at request time so sign-out applies at once. */
  async activeToken(hostId: string): Promise<string | undefined> {
    const account = this.activeAccount(hostId);
    return account ? this.token(account) : undefined;
  }

  /**
   * Stores the token first and the account second: a crash in between leaves an orphan secret
   * (overwritten on the next sign-in), never an account without a token.
   */
  async add(account: Omit<Account, 'id' | 'signedInAt'>, token: string, now = new Date()): Promise<Account> {
    if (token.trim() === '') throw new Error('An empty token cannot be stored.');
    const full: Account = { ...account, id: accountId(account.hostId, account.username), signedInAt: now.toISOString() };
    await this.serialized(async () => {
      await this.secrets.store(SECRET_PREFIX + full.id, token);
      const s = this.read();
      await this.write({
        accounts: [...s.accounts.filter((a) => a.id !== full.id), full],
        active: { ...s.active, [full.hostId]: full.id },
      });
    });
    this.fire();
    return full;
  }

  /** Makes `account` the one its host's requests use. Refuses an account signed out meanwhile. */
  async setActive(account: Account): Promise<void> {
    await this.serialized(async () => {
      const s = this.read();
      if (!s.accounts.some((a) => a.id === account.id))
        throw new Error(`${account.username} is no longer signed in; sign in again to use it.`);
      await this.write({ ...s, active: { ...s.active, [account.hostId]: account.id } });
    });
    this.fire();
  }

  /** Forgets the account and deletes its secret. Unknown ids are a no-op. */
  async remove(id: string): Promise<Account | undefined> {
    let removed: Account | undefined;
    await this.serialized(async () => {
      const s = this.read();
      removed = s.accounts.find((a) => a.id === id);
      if (!removed) return;
      const active = { ...s.active };
      if (active[removed.hostId] === id) delete active[removed.hostId];
      await this.write({ accounts: s.accounts.filter((a) => a.id !== id), active });
      await this.secrets.delete(SECRET_PREFIX + id);
    });
    if (removed) this.fire();
    return removed;
  }

  private read(): StoredState {
    const s = this.state.get<StoredState>(STATE_KEY);
    if (!s || !Array.isArray(s.accounts)) return { accounts: [], active: {} };
    return { accounts: s.accounts, active: s.active ?? {} };
  }

  private async write(s: StoredState): Promise<void> {
    await this.state.update(STATE_KEY, s);
  }

  private serialized(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private fire(): void {
    for (const l of [...this.listeners]) l();
  }
}
