// Site URLs and the `versionedDb.hosts` setting. Pure: no vscode, no I/O.

export interface HostSetting {
  readonly name: string;
  /** Normalized site URL: origin + path, no trailing slash, no query or fragment. */
  readonly url: string;
}

/**
 * The stable id of a host: its normalized site URL. Throws a message fit for the user when the
 * text is not an http(s) URL, because a host id built from garbage would never match again.
 */
export function normalizeSiteUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`"${text}" is not a URL. Use the site address, e.g. https://www.example.com.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`"${text}" must start with http:// or https://.`);
  }
  if (url.username || url.password) {
    throw new Error(`"${text}" must not contain a user name or password; sign in instead.`);
  }
  let path = url.pathname.replace(/\/+$/, '');
  // The client appends /api/v2 itself; a pasted API URL would otherwise double it.
  path = path.replace(/\/api\/v2$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

export function parseHostsSetting(raw: unknown): { hosts: HostSetting[]; problems: string[] } {
  const hosts: HostSetting[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { hosts, problems };
  if (!Array.isArray(raw)) {
    return { hosts, problems: ['versionedDb.hosts must be a list of { "name", "url" } entries.'] };
  }
  const seen = new Set<string>();
  raw.forEach((entry: unknown, index) => {
    const where = `versionedDb.hosts[${index}]`;
    if (typeof entry !== 'object' || entry === null) {
      problems.push(`${where} must be an object with "name" and "url".`);
      return;
    }
    const { name, url } = entry as { name?: unknown; url?: unknown };
    if (typeof url !== 'string' || url.trim() === '') {
      problems.push(`${where} has no "url".`);
      return;
    }
    let normalized: string;
    try {
      normalized = normalizeSiteUrl(url);
    } catch (e) {
      problems.push(`${where}: ${(e as Error).message}`);
      return;
    }
    if (seen.has(normalized)) {
      problems.push(`${where} repeats ${normalized}; the first entry is used.`);
      return;
    }
    seen.add(normalized);
    const label = typeof name === 'string' && name.trim() !== '' ? name.trim() : new URL(normalized).host;
    hosts.push({ name: label, url: normalized });
  });
  return { hosts, problems };
}
