/**
 * Builds API paths one escaped segment at a time, so a name holding `/`, `%`, `?`, `#`, `..` or
 * unicode can never change which resource a request reaches.
 */
export function escapeSegment(segment: string): string {
  const escaped = encodeURIComponent(segment);
  // encodeURIComponent leaves `.` alone; an all-dot segment would be collapsed by URL
  // normalizers (`..` climbs a level), so its dots are escaped too.
  return /^\.+$/.test(escaped) ? escaped.replace(/\./g, '%2E') : escaped;
}

/** Refuses an empty segment (`/databases//x` would reach another resource or none) before any request. */
export function joinSegments(segments: readonly string[]): string {
  return segments
    .map((s) => {
      if (typeof s !== 'string' || s === '')
        throw new TypeError(`An empty name cannot be part of an API path (${JSON.stringify(segments)})`);
      return '/' + escapeSegment(s);
    })
    .join('');
}

/** `?a=1&b=2` from defined values, in the given order; '' when none. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
