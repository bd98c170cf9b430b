// The built-in local hub: dist/hub.js run with the editor's own runtime (process.execPath with
// ELECTRON_RUN_AS_NODE=1), data in global storage or a configured folder. Started only on request.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import type { DatabaseRef } from '../shared/wire';
import type { Logger } from '../core/logger';
import { Disposable } from '../platform/disposable';
import type { LocalHubLocation } from './accountClientSource';
import { localUserName, readSeedManifest } from './seedManifest';

export { localUserName, readSeedManifest } from './seedManifest';

export interface LocalHubOptions {
  /** Absolute path of dist/hub.js inside the installed extension. */
  readonly hubScript: string;
  /** The runtime to run it with: process.execPath (Electron or Node). */
  readonly execPath: string;
  /** Data folder; the caller resolves the setting override against global storage. */
  dataDirectory(): string;
  /** The local user to sign in as, when the setting names one. */
  configuredUser(): string | undefined;
  osUserName(): string;
  readonly log: Logger;
  /** How long `serve` may take to print its listening line. */
  readonly startTimeoutMs?: number;
}

export interface LocalHubStart {
  readonly url: string;
  readonly dataDir: string;
  readonly userName: string;
  /** A token freshly created for `userName` with the hub CLI. Never logged. */
  readonly token: string;
  /** True when the folder was new and has just been seeded. */
  readonly seeded: boolean;
  /** Databases the seed manifest lists (empty when there is no manifest). */
  readonly sampleDatabases: readonly DatabaseRef[];
}

const LISTENING = /Hub listening on (http:\/\/\S+)/;
/** The hub's state file (src/hub/store.ts STATE_FILE): its presence marks a hub data folder. */
const HUB_STATE_FILE = 'hub.json';

export class LocalHub extends Disposable implements LocalHubLocation {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private child: ChildProcess | undefined;
  private currentUrl: string | undefined;
  private starting: Promise<LocalHubStart> | undefined;

  constructor(private readonly o: LocalHubOptions) {
    super();
    this._register({ dispose: () => this.kill() });
  }

  url(): string | undefined {
    return this.currentUrl;
  }

  isRunning(): boolean {
    return this.currentUrl !== undefined;
  }

  /** Starts the hub (restarting it if it runs) and returns a fresh token for the local user. */
  start(signal?: AbortSignal): Promise<LocalHubStart> {
    if (!this.starting) {
      this.starting = this.doStart(signal).finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  async stop(): Promise<void> {
    this.kill();
  }

  private async doStart(signal: AbortSignal | undefined): Promise<LocalHubStart> {
    this.kill();
    const dataDir = this.o.dataDirectory();
    await fs.mkdir(dataDir, { recursive: true });
    const entries = await fs.readdir(dataDir);
    const seeded = entries.length === 0;
    if (!seeded && !entries.includes(HUB_STATE_FILE)) {
      // Never let the hub write its files into some unrelated folder the setting points at.
      throw new Error(
        `${dataDir} is not a local hub data folder (it has files but no ${HUB_STATE_FILE}). Point versionedDb.localHub.dataDirectory at an empty folder or an existing hub folder.`,
      );
    }
    if (seeded) {
      this.o.log.info(`local hub: seeding the new data folder ${dataDir}`);
      await this.cli(['seed', '--data', dataDir], signal);
    }
    const manifest = await readSeedManifest(dataDir).catch((e: unknown) => {
      this.o.log.warn(`local hub: unreadable seed manifest: ${String(e)}`);
      return undefined;
    });
    const userName = this.o.configuredUser() ?? manifest?.users[0] ?? localUserName(this.o.osUserName());
    let token: string;
    try {
      token = (await this.cli(['token', 'create', '--user', userName, '--data', dataDir], signal)).trim();
    } catch (e) {
      if (signal?.aborted) throw e;
      // A user the hub does not know yet: create it, then the token.
      this.o.log.info(`local hub: creating the local user ${userName}`);
      await this.cli(['user', 'add', userName, '--data', dataDir], signal);
      token = (await this.cli(['token', 'create', '--user', userName, '--data', dataDir], signal)).trim();
    }
    if (!token) throw new Error('The local hub printed no token.');
    const url = await this.serve(dataDir, signal);
    return { url, dataDir, userName, token, seeded, sampleDatabases: manifest?.databases ?? [] };
  }

  private env(): NodeJS.ProcessEnv {
    return { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
  }

  /** Runs one CLI command to completion; rejects with its stderr when it exits non-zero. */
  private cli(args: string[], signal: AbortSignal | undefined): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.o.execPath, [this.o.hubScript, ...args], { env: this.env(), stdio: ['ignore', 'pipe', 'pipe'], signal });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => {
        // args[0..1] name the command; never log the output (token create prints a token).
        if (code === 0) resolve(out);
        else reject(new Error(`local hub "${args.slice(0, 2).join(' ')}" failed (exit ${code}): ${err.trim().slice(0, 500)}`));
      });
    });
  }

  private serve(dataDir: string, signal: AbortSignal | undefined): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.o.execPath, [this.o.hubScript, 'serve', '--data', dataDir, '--port', '0'], {
        env: this.env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.child = child;
      let settled = false;
      let buffered = '';
      const timer = setTimeout(
        () => fail(new Error('The local hub did not start within the time limit.')),
        this.o.startTimeoutMs ?? 30_000,
      );
      const onAbort = (): void => fail(Object.assign(new Error('Starting the local hub was cancelled'), { name: 'AbortError' }));
      signal?.addEventListener('abort', onAbort, { once: true });
      const fail = (e: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.kill();
        reject(e);
      };
      child.stdout!.on('data', (d: Buffer) => {
        const text = d.toString('utf8');
        if (!settled) {
          buffered += text;
          const m = LISTENING.exec(buffered);
          if (m) {
            settled = true;
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            this.currentUrl = m[1]!.replace(/\/+$/, '');
            this.o.log.info(`local hub: listening on ${this.currentUrl} (data ${dataDir})`);
            this.changed.fire();
            resolve(this.currentUrl);
          }
        }
      });
      child.stderr!.on('data', (d: Buffer) => {
        for (const line of d.toString('utf8').split(/\r?\n/)) if (line.trim()) this.o.log.info(`local hub: ${line}`);
      });
      child.on('error', (e) => fail(e));
      child.on('exit', (code, sig) => {
        if (this.child === child) {
          this.child = undefined;
          const wasRunning = this.currentUrl !== undefined;
          this.currentUrl = undefined;
          if (wasRunning) {
            this.o.log.warn(`local hub: stopped (exit ${code ?? sig})`);
            this.changed.fire();
          }
        }
        fail(new Error(`The local hub exited before it was ready (exit ${code ?? sig}).`));
      });
    });
  }

  private kill(): void {
    const child = this.child;
    this.child = undefined;
    const wasRunning = this.currentUrl !== undefined;
    this.currentUrl = undefined;
    if (child && child.exitCode === null) child.kill();
    if (wasRunning && !this.isDisposed) {
      this.o.log.info('local hub: stopped');
      this.changed.fire();
    }
  }
}
