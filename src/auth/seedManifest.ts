// The seed manifest the local hub writes into a data folder it seeded (`seed.json`: users,
// databases, primary), and the local user name. vscode-free so it is unit-tested directly.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DatabaseRef } from '../shared/wire';
import { isValidName } from '../core/databaseInput';

/** Reads the seed manifest the hub writes into its data folder; tolerant of its exact shape. */
export async function readSeedManifest(dataDir: string): Promise<{ users: string[]; databases: DatabaseRef[] } | undefined> {
  for (const file of ['seed.json', 'seed-manifest.json']) {
    let text: string;
    try {
      text = await fs.readFile(path.join(dataDir, file), 'utf8');
    } catch {
      continue;
    }
    const raw = JSON.parse(text) as { users?: unknown; databases?: unknown; sample_user?: unknown; primary_user?: unknown };
    const users: string[] = [];
    for (const u of [raw.primary_user, raw.sample_user]) if (typeof u === 'string') users.push(u);
    if (Array.isArray(raw.users)) {
      for (const u of raw.users) {
        const name =
          typeof u === 'string' ? u : ((u as { username?: unknown; name?: unknown })?.username ?? (u as { name?: unknown })?.name);
        if (typeof name === 'string' && !users.includes(name)) users.push(name);
      }
    }
    const databases: DatabaseRef[] = [];
    if (Array.isArray(raw.databases)) {
      for (const d of raw.databases) {
        if (typeof d === 'string' && d.includes('/')) {
          const [owner, name] = d.split('/');
          if (owner && name) databases.push({ owner, name });
        } else if (d && typeof d === 'object') {
          const { owner, name } = d as { owner?: unknown; name?: unknown };
          if (typeof owner === 'string' && typeof name === 'string') databases.push({ owner, name });
        }
      }
    }
    return { users, databases };
  }
  return undefined;
}

/** An OS user name made acceptable as a hub user name. */
export function localUserName(osUser: string): string {
  const cleaned = osUser
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return cleaned && isValidName(cleaned) ? cleaned : 'me';
}
