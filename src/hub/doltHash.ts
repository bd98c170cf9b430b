// Dolt shows a commit's 20 bytes as 32 characters of base32 with the alphabet `0-9a-v`;
// DoltLite prints the same bytes as 40 hex characters. The API speaks the former.

const ALPHABET = '0123456789abcdefghijklmnopqrstuv';
const HEX40 = /^[0-9a-f]{40}$/;
const B32 = /^[0-9a-v]{32}$/;

export function hexToDoltHash(hex: string): string {
  const h = hex.toLowerCase();
  if (!HEX40.test(h)) throw new Error(`not a 40-character hex hash: ${hex}`);
  return bytesToDoltHash(Buffer.from(h, 'hex'));
}

export function bytesToDoltHash(bytes: Uint8Array): string {
  if (bytes.length !== 20) throw new Error('a Dolt hash is 20 bytes');
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}

export function doltHashToHex(hash: string): string {
  if (!B32.test(hash)) throw new Error(`not a 32-character base32 hash: ${hash}`);
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of hash) {
    acc = (acc << 5) | ALPHABET.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 255);
    }
    acc &= (1 << bits) - 1;
  }
  return Buffer.from(bytes).toString('hex');
}

export function isDoltHash(text: string): boolean {
  return B32.test(text);
}
