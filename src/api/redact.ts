/**
 * Keeps secrets out of logs and error messages: bearer tokens, the configured token itself,
 * and the signatures of pre-signed storage URLs.
 */
const REDACTED = '[REDACTED]';

/** Query parameters whose values are never logged (pre-signed URL credentials, tokens). */
const SECRET_PARAM = /(sig|signature|token|credential|key|secret|password|auth|policy|security)/i;

export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(/(bearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`);
  for (const s of secrets) {
    if (s.length >= 4) out = out.split(s).join(REDACTED);
  }
  return out;
}

/**
 * A path-and-query (or absolute URL) safe to log: secret-looking query values are replaced,
 * other values truncated so a long SQL text does not flood the log.
 */
export function redactUrl(url: string, maxValueLength = 80): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const head = url.slice(0, q);
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      let decodedName = name;
      try {
        decodedName = decodeURIComponent(name);
      } catch {
        // keep the raw name
      }
      if (SECRET_PARAM.test(decodedName)) return `${name}=${REDACTED}`;
      const value = pair.slice(eq + 1);
      return value.length > maxValueLength ? `${name}=${value.slice(0, maxValueLength)}…` : pair;
    });
  return `${head}?${params.join('&')}`;
}

/** A short single-line excerpt of a body for error messages: tags stripped, whitespace collapsed. */
export function excerptOf(body: string, secrets: readonly string[] = [], max = 200): string {
  const flat = body
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = flat.length > max ? `${flat.slice(0, max)}…` : flat;
  return redactText(cut, secrets);
}
