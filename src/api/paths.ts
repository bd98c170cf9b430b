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

export function joinSegments(segments: readonly string[]): string {
  return segments.map((s) => '/' + escapeSegment(s)).join('');
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
