// "3 minutes ago" for tree descriptions. Pure: the caller passes `now` so tests are exact.

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

// Made on first use: constructing it loads ICU data (about 7 ms), which activation must not pay.
let format: Intl.RelativeTimeFormat | undefined;
const formatter = (): Intl.RelativeTimeFormat => (format ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' }));

/** Relative time of an ISO timestamp, or undefined when missing or unparsable. */
export function formatRelativeTime(iso: string | undefined, now: number): string | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  const seconds = Math.round((t - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (abs >= size) return formatter().format(Math.round(seconds / size), unit);
  }
  return formatter().format(Math.round(seconds / 60), 'minute');
}

/** The full timestamp for tooltips, in UTC so it reads the same for everyone. */
export function formatTimestamp(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return new Date(t)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')
    .replace(/Z$/, ' UTC');
}
