// In-memory stand-ins for VS Code's Memento and SecretStorage, and a silent logger. The scripted
// Ui is test/helpers/scriptedUi.ts.

export class MemoryState {
  private readonly map = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    const v = this.map.get(key);
    return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, JSON.parse(JSON.stringify(value)));
  }
  keys(): readonly string[] {
    return [...this.map.keys()];
  }
}

/** The extension folder's URI where command logic needs one but a unit test opens no webview. */
export const TEST_EXTENSION_URI = Object.freeze({ scheme: 'file', path: '/test-extension', fsPath: '/test-extension' }) as never;

export class MemorySecrets {
  readonly map = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.map.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.map.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.map.delete(key);
  }
}

export const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
