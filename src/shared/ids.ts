// Every identifier VS Code knows us by, declared once. test/unit/ids.test.ts checks these
// against package.json so a renamed command cannot silently lose its menu entry.

export const EXTENSION_ID = 'versioned-db.versioned-db' as const;

export const Commands = {
  showLog: 'versionedDb.showLog',
} as const;

export const Views = {
  container: 'versionedDb',
} as const;

export const Settings = {
  section: 'versionedDb',
} as const;

export const ContextKeys = {} as const;
