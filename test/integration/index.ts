// The mocha bootstrap that runs inside the real extension host: VS Code calls `run()` once the
// extension under development has been loaded (extensionTestsPath). It applies the runner's
// settings, runs every bundled *.test.js beside it, and writes the results to a file because
// the driver (a browser or test-electron) cannot read the extension host's stdout.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import { integrationConfig } from './testEnv';

export interface IntegrationResults {
  readonly passes: number;
  readonly failures: number;
  readonly pending: number;
  readonly durationMs: number;
  /** A spec-reporter-like transcript, printed by the runner. */
  readonly report: string;
}

/** Collects a readable transcript without writing to stdout. */
function transcriptReporter(lines: string[]): typeof Mocha.reporters.Base {
  const { EVENT_SUITE_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;
  return class extends Mocha.reporters.Base {
    constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
      super(runner, options);
      let depth = 0;
      const failed: { title: string; err: Error }[] = [];
      runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
        if (suite.title) lines.push(`${'  '.repeat(depth)}${suite.title}`);
        depth++;
      });
      runner.on('suite end', () => {
        depth--;
      });
      runner.on(EVENT_TEST_PASS, (t: Mocha.Test) => lines.push(`${'  '.repeat(depth)}✔ ${t.title} (${t.duration ?? 0} ms)`));
      runner.on(EVENT_TEST_PENDING, (t: Mocha.Test) => lines.push(`${'  '.repeat(depth)}- ${t.title}`));
      runner.on(EVENT_TEST_FAIL, (t: Mocha.Test, err: Error) => {
        failed.push({ title: t.fullTitle(), err });
        lines.push(`${'  '.repeat(depth)}${failed.length}) ${t.title}`);
      });
      runner.once('end', () => {
        failed.forEach((f, i) => {
          lines.push(
            '',
            `${i + 1}) ${f.title}:`,
            `   ${String(f.err.stack ?? f.err.message)
              .split('\n')
              .join('\n   ')}`,
          );
        });
      });
    }
  };
}

async function applySettings(settings: Readonly<Record<string, unknown>>): Promise<void> {
  const configuration = vscode.workspace.getConfiguration();
  for (const [key, value] of Object.entries(settings)) {
    if (JSON.stringify(configuration.get(key)) !== JSON.stringify(value)) {
      await configuration.update(key, value, vscode.ConfigurationTarget.Global);
    }
  }
}

export async function run(): Promise<void> {
  const config = integrationConfig();
  const started = Date.now();
  const lines: string[] = [];
  let results: IntegrationResults;
  try {
    await applySettings(config.settings);
    const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: transcriptReporter(lines) });
    if (config.grep) mocha.grep(config.grep);
    for (const f of fs
      .readdirSync(__dirname)
      .filter((n) => n.endsWith('.test.js'))
      .sort()) {
      mocha.addFile(path.join(__dirname, f));
    }
    const counts = await new Promise<{ passes: number; failures: number; pending: number }>((resolve) => {
      const runner = mocha.run(() =>
        resolve({
          passes: runner.stats?.passes ?? 0,
          failures: runner.stats?.failures ?? 0,
          pending: runner.stats?.pending ?? 0,
        }),
      );
    });
    results = { ...counts, durationMs: Date.now() - started, report: lines.join('\n') };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    lines.push(`the suite could not run: ${err.stack ?? err.message}`);
    results = { passes: 0, failures: 1, pending: 0, durationMs: Date.now() - started, report: lines.join('\n') };
  }
  // Written atomically: the runner treats the file's appearance as "done".
  fs.writeFileSync(`${config.resultsFile}.tmp`, JSON.stringify(results, null, 2));
  fs.renameSync(`${config.resultsFile}.tmp`, config.resultsFile);
  if (results.failures > 0) throw new Error(`${results.failures} integration test(s) failed`);
}
