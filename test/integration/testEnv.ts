import * as fs from 'node:fs';
import * as path from 'node:path';

/** What the runner (runInVscodeServer.mjs / runInElectron.mjs) tells the suite running in the extension host. */
export interface IntegrationConfig {
  /** Where the suite writes its results; the runner waits for this file. */
  readonly resultsFile: string;
  /** The seeded local hub the suite talks to (site URL; the client appends /api/v2). */
  readonly hubUrl: string;
  /** The hub's data folder. */
  readonly hubDataDir: string;
  /** A personal access token of the seeded user `alice`. */
  readonly token: string;
  /** User settings applied (Global target) before the tests run, e.g. `versionedDb.hosts`. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Optional mocha grep. */
  readonly grep?: string;
}

/**
 * Read from the file named by VERSIONED_DB_TEST_CONFIG, else `config.json` beside the bundle:
 * env does not always reach the extension host, a file always does.
 */
export function integrationConfig(): IntegrationConfig {
  const file = process.env.VERSIONED_DB_TEST_CONFIG ?? path.join(__dirname, 'config.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as IntegrationConfig;
}
