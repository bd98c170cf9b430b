// What a user types or pastes to name a database: `owner/name` or a web URL of the database.
import { normalizeSiteUrl } from './hostUrl';

export interface ParsedDatabaseInput {
  readonly owner: string;
  readonly name: string;
  /** Present when a URL was pasted: the site it names (normalized), to pick the host. */
  readonly siteUrl?: string;
}

/** Owner and database names: letters, digits, `-`, `_`; not starting or ending with `-`. */
const NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?$/;

export function isValidName(text: string): boolean {
  return NAME.test(text);
}

/** A message saying what is wrong with a new database/branch-ish name, or undefined if fine. */
export function validateDatabaseName(text: string): string | undefined {
  if (text.trim() === '') return 'Enter a name.';
  if (!isValidName(text)) return 'Use letters, digits, "-" and "_" only, not starting or ending with "-".';
  return undefined;
}

/**
 * Parses `owner/name`, or a pasted web URL such as `https://site/repositories/owner/name/...`
 * or `https://site/owner/name`. Throws an Error whose message tells the user what to type.
 */
export function parseDatabaseInput(input: string, knownSiteUrls: readonly string[] = []): ParsedDatabaseInput {
  const text = input.trim();
  if (text === '') throw new Error('Enter a database as owner/name or paste its web address.');
  if (/^https?:\/\//i.test(text)) return parseDatabaseUrl(text, knownSiteUrls);
  const parts = text.split('/');
  if (parts.length !== 2) {
    throw new Error(`"${text}" is not owner/name. Type e.g. alice/inventory or paste the database's web address.`);
  }
  return checked(parts[0]!, parts[1]!, text);
}

function parseDatabaseUrl(text: string, knownSiteUrls: readonly string[]): ParsedDatabaseInput {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`"${text}" is not a valid web address.`);
  }
  // A configured host may live under a path prefix (https://corp/dolt); strip the longest match.
  const normalizedKnown = knownSiteUrls.map((u) => normalizeSiteUrl(u)).sort((a, b) => b.length - a.length);
  const href = `${url.protocol}//${url.host}${url.pathname}`;
  let site = `${url.protocol}//${url.host}`;
  let rest = url.pathname;
  for (const known of normalizedKnown) {
    if (href === known || href.startsWith(`${known}/`)) {
      site = known;
      rest = href.slice(known.length);
      break;
    }
  }
  const segments = rest
    .split('/')
    .filter((s) => s !== '')
    .map((s) => safeDecode(s));
  // Web addresses of a database: /repositories/owner/name[/...], /databases/owner/name, /owner/name.
  let i = 0;
  if (segments[0] === 'repositories' || segments[0] === 'databases') i = 1;
  else if (segments[0] === 'api' && segments[1] === 'v2' && segments[2] === 'databases') i = 3;
  const owner = segments[i];
  const name = segments[i + 1];
  if (owner === undefined || name === undefined) {
    throw new Error(`"${text}" does not name a database. Paste an address like ${site}/repositories/owner/name.`);
  }
  return { ...checked(owner, name, text), siteUrl: normalizeSiteUrl(site) };
}

function checked(owner: string, name: string, text: string): ParsedDatabaseInput {
  if (!isValidName(owner) || !isValidName(name)) {
    throw new Error(`"${text}" is not owner/name: names use letters, digits, "-" and "_".`);
  }
  return { owner, name };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The web page of a database on a site, each segment escaped on its own. */
export function databaseWebUrl(siteUrl: string, owner: string, name: string): string {
  return `${siteUrl}/repositories/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
}
