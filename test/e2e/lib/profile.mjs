// Windows that start signed in. Signing in and adding databases through the UI costs a scenario
// 10–40 s, and most scenarios test something else. So a scenario may declare the state it starts
// in (`export const given = { signedIn: 'alice', databases: ['alice/prices'] }`): the first
// scenario that declares a state reaches it through the UI, as a person would (lib/context.mjs
// fixture), and the runner keeps a copy of the browser origin's storage once the workbench has
// saved it; every later scenario with that state gets a new window whose storage is that copy.
//
// Nothing is added to the extension for this: VS Code for the browser keeps the extension's
// globalState (accounts, the databases in the view) in the origin's IndexedDB and its
// SecretStorage (the token) sealed in localStorage, the key half held by code-server; a window
// opened on that storage is what a person sees when they open VS Code again after signing in.
// The copy is only good for the code-server and seeded hub of this run, and it is never written
// to disk.
import { waitFor } from '../../helpers/waitFor.cjs';

/** The key of a `given` state (its user and databases, in a fixed order). */
export function givenKey(given) {
  if (!given) return undefined;
  return JSON.stringify({ signedIn: given.signedIn ?? null, databases: [...(given.databases ?? [])].sort() });
}

/** Checks a scenario's `given` export; throws a message naming the file. */
export function checkGiven(given, file) {
  if (given === undefined) return;
  const ok =
    given &&
    typeof given === 'object' &&
    (given.signedIn === undefined || typeof given.signedIn === 'string') &&
    (given.databases === undefined ||
      (Array.isArray(given.databases) && given.databases.every((d) => typeof d === 'string' && /^[^/\s]+\/[^/\s]+$/.test(d)))) &&
    Object.keys(given).every((k) => k === 'signedIn' || k === 'databases');
  if (!ok) throw new Error(`${file}: 'given' must be { signedIn?: 'user', databases?: ['owner/name', ...] }`);
}

/**
 * Runs in the page: every localStorage item and every IndexedDB database of the origin, with
 * binary values (ArrayBuffer, typed arrays) carried as base64 so the copy is plain JSON.
 */
async function readOriginStorage() {
  const encode = (v) => {
    if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) {
      const bytes = v instanceof ArrayBuffer ? new Uint8Array(v) : new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return { $bytes: btoa(s), $type: v instanceof ArrayBuffer ? 'ArrayBuffer' : v.constructor.name };
    }
    if (Array.isArray(v)) return v.map(encode);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encode(x)]));
    return v;
  };
  const request = (r) =>
    new Promise((resolve, reject) => {
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
  const databases = [];
  for (const info of await indexedDB.databases()) {
    const db = await request(indexedDB.open(info.name));
    const stores = [];
    for (const name of db.objectStoreNames) {
      const store = db.transaction(name, 'readonly').objectStore(name);
      const indexes = [...store.indexNames].map((i) => {
        const x = store.index(i);
        return { name: i, keyPath: x.keyPath, unique: x.unique, multiEntry: x.multiEntry };
      });
      const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
      stores.push({
        name,
        keyPath: store.keyPath,
        autoIncrement: store.autoIncrement,
        indexes,
        records: keys.map((k, i) => [encode(k), encode(values[i])]),
      });
    }
    databases.push({ name: info.name, version: db.version, stores });
    db.close();
  }
  const local = {};
  for (let i = 0; i < localStorage.length; i++) local[localStorage.key(i)] = localStorage.getItem(localStorage.key(i));
  return { localStorage: local, indexedDB: databases };
}

/** Runs in the page: writes a copy made by readOriginStorage into an origin whose storage is empty. */
async function writeOriginStorage(copy) {
  const decode = (v) => {
    if (Array.isArray(v)) return v.map(decode);
    if (v && typeof v === 'object') {
      if (typeof v.$bytes === 'string' && typeof v.$type === 'string') {
        const bytes = Uint8Array.from(atob(v.$bytes), (c) => c.charCodeAt(0));
        return v.$type === 'ArrayBuffer' ? bytes.buffer : new globalThis[v.$type](bytes.buffer);
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]));
    }
    return v;
  };
  for (const [k, v] of Object.entries(copy.localStorage)) localStorage.setItem(k, v);
  for (const d of copy.indexedDB) {
    const open = indexedDB.open(d.name, d.version);
    open.onupgradeneeded = () => {
      for (const s of d.stores) {
        const store = open.result.createObjectStore(s.name, { keyPath: s.keyPath ?? undefined, autoIncrement: s.autoIncrement });
        for (const i of s.indexes) store.createIndex(i.name, i.keyPath, { unique: i.unique, multiEntry: i.multiEntry });
      }
    };
    const db = await new Promise((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const names = d.stores.map((s) => s.name);
    if (names.length) {
      const tx = db.transaction(names, 'readwrite');
      for (const s of d.stores) {
        const store = tx.objectStore(s.name);
        for (const [k, v] of s.records) {
          if (s.keyPath === null) store.put(decode(v), decode(k));
          else store.put(decode(v));
        }
      }
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
    }
    db.close();
  }
}

/**
 * A same-origin page that is not the workbench, for reading and writing the origin's storage
 * while no workbench has it open (or beside one that does). code-server answers /healthz.
 */
async function originPage(context, origin) {
  const page = await context.newPage();
  await page.goto(`${origin}/healthz`, { waitUntil: 'domcontentloaded' });
  return page;
}

/**
 * Copies the origin's storage once the workbench of the current window has saved the `given`
 * state: the account (globalState and its sealed token) and every database of the view.
 * Waits for it (the workbench writes a moment after a change), never a fixed time.
 */
export async function captureGiven({ context, origin, given, timeout }) {
  const page = await originPage(context, origin);
  try {
    let missing = [];
    return await waitFor(
      () => `the workbench to save ${missing.join(', ')}`,
      async () => {
        const copy = await page.evaluate(readOriginStorage);
        const text = JSON.stringify(copy.indexedDB);
        missing = [];
        if (given.signedIn) {
          if (!copy.localStorage['secrets.provider']) missing.push('the sealed token (localStorage "secrets.provider")');
          if (!text.includes('versionedDb.accounts.v1') || !text.includes(given.signedIn)) missing.push(`the account of ${given.signedIn}`);
        }
        for (const name of given.databases ?? [])
          if (!name.split('/').every((part) => text.includes(part))) missing.push(`database ${name}`);
        return missing.length ? undefined : copy;
      },
      { timeoutMs: timeout, intervalMs: 200 },
    );
  } finally {
    await page.close();
  }
}

/** Writes a copy made by captureGiven into the origin (whose storage the caller has cleared). */
export async function restoreGiven({ context, origin, copy }) {
  const page = await originPage(context, origin);
  try {
    await page.evaluate(writeOriginStorage, copy);
  } finally {
    await page.close();
  }
}
