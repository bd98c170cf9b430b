// The extension's SQL port (src/core/sql/sqlPort.ts) over a fake or scripted API client, for unit
// tests: what features run SQL through, with the settings a test chooses.
import { SqlPort, type SqlEndpoint, type SqlRunSettings } from '../../src/core/sql/sqlPort';

export const TEST_SQL_SETTINGS: SqlRunSettings = { timeoutMs: 30_000, rowLimit: 1000 };

/** A port whose every host answers through `endpoint` (any object with the client's `runSql`). */
export function portOver(endpoint: SqlEndpoint | ((hostId: string) => SqlEndpoint), settings: SqlRunSettings = TEST_SQL_SETTINGS): SqlPort {
  return new SqlPort(typeof endpoint === 'function' ? endpoint : () => endpoint, () => settings);
}
