// Secrets the hub hands out or checks: personal/OAuth tokens (stored as SHA-256 only) and
// login passwords (scrypt).
import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

export function newToken(prefix: 'vdbp' | 'vdbo'): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `${salt.toString('hex')}:${scryptSync(password, salt, 32).toString('hex')}`;
}

export function verifyPassword(password: string, stored: string | undefined): boolean {
  if (!stored) return false;
  const [saltHex, hashHex] = stored.split(':');
  if (!saltHex || !hashHex) return false;
  const want = Buffer.from(hashHex, 'hex');
  const got = scryptSync(password, Buffer.from(saltHex, 'hex'), want.length);
  return timingSafeEqual(want, got);
}

export function md5Base64(data: Uint8Array): string {
  return createHash('md5').update(data).digest('base64');
}

/** What the service computes over an upload: base64(MD5(concat of each part's base64 MD5)). */
export function filePartsMd5(partMd5sBase64: string[]): string {
  return createHash('md5').update(partMd5sBase64.join(''), 'utf8').digest('base64');
}
