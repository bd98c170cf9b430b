// Write locks per database key: a promise chain per key, taken in a fixed order so two writers
// that need the same keys never wait on each other.
export class KeyLocks {
  private readonly locks = new Map<string, Promise<unknown>>();

  /** Runs `fn` while holding the write lock of every key, in a fixed order to avoid deadlock. */
  async withLocks<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const acquire = async (i: number): Promise<T> => {
      if (i >= sorted.length) return fn();
      const key = sorted[i] as string;
      const prev = this.locks.get(key) ?? Promise.resolve();
      let release: () => void = () => undefined;
      const mine = new Promise<void>((r) => (release = r));
      const chained = prev.then(() => mine);
      this.locks.set(key, chained);
      await prev.catch(() => undefined);
      try {
        return await acquire(i + 1);
      } finally {
        release();
        if (this.locks.get(key) === chained) this.locks.delete(key);
      }
    };
    return acquire(0);
  }
}
