// "3 minutes ago" for tree descriptions. Pure: the caller passes `now` so tests are exact.
import * as l10n from '../shared/l10n';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 minutes ago" and its kin, one message per unit and direction, as Intl's English says them. */
function phrase(n: number, unit: Intl.RelativeTimeFormatUnit): string {
  const past = n < 0;
  const k = Math.abs(n);
  const one = k === 1;
  switch (unit) {
    case 'year':
      return one ? (past ? l10n.t('last year') : l10n.t('next year')) : past ? l10n.t('{0} years ago', k) : l10n.t('in {0} years', k);
    case 'month':
      return one ? (past ? l10n.t('last month') : l10n.t('next month')) : past ? l10n.t('{0} months ago', k) : l10n.t('in {0} months', k);
    case 'week':
      return one ? (past ? l10n.t('last week') : l10n.t('next week')) : past ? l10n.t('{0} weeks ago', k) : l10n.t('in {0} weeks', k);
    case 'day':
      return one ? (past ? l10n.t('yesterday') : l10n.t('tomorrow')) : past ? l10n.t('{0} days ago', k) : l10n.t('in {0} days', k);
    case 'hour':
      return one ? (past ? l10n.t('1 hour ago') : l10n.t('in 1 hour')) : past ? l10n.t('{0} hours ago', k) : l10n.t('in {0} hours', k);
    default:
      if (k === 0) return l10n.t('this minute');
      return one
        ? past
          ? l10n.t('1 minute ago')
          : l10n.t('in 1 minute')
        : past
          ? l10n.t('{0} minutes ago', k)
          : l10n.t('in {0} minutes', k);
  }
}

/** Relative time of an ISO timestamp, or undefined when missing or unparsable. */
export function formatRelativeTime(iso: string | undefined, now: number): string | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  const seconds = Math.round((t - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return l10n.t('just now');
  for (const [unit, size] of UNITS) {
    if (abs >= size) return phrase(Math.round(seconds / size), unit);
  }
  return phrase(Math.round(seconds / 60), 'minute');
}

const SHORT_UNITS: [string, number][] = [
  ['y', 365 * 24 * 3600],
  ['mo', 30 * 24 * 3600],
  ['w', 7 * 24 * 3600],
  ['d', 24 * 3600],
  ['h', 3600],
  ['m', 60],
];

/**
 * A compact age for narrow rows ("3h", "2d", "5mo", "now"), or undefined when missing or
 * unparsable; times ahead of `now` (a server clock ahead of ours) read as "now".
 */
export function formatShortAge(iso: string | undefined, now: number): string | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  const seconds = Math.round((now - t) / 1000);
  if (seconds < 45) return l10n.t('now');
  for (const [unit, size] of SHORT_UNITS) if (seconds >= size) return `${Math.round(seconds / size)}${unit}`;
  return '1m';
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
