// The hub's one quoting of SQLite identifiers: names in the SQL the hub itself builds for DoltLite
// (imports, the diff copy, the conflict preview, SHOW TABLES), never the client's SQL, which goes
// through src/core/sql/quote.ts on the extension's side.

/** A name quoted for SQLite's parser (the engine's own SQL, never the client's). */
export const q = (ident: string): string => `"${ident.replace(/"/g, '""')}"`;
