// Revision specs as Dolt users write them (branch, tag, 32-character commit hash, HEAD, each with
// an optional ~N / ^ ancestry suffix, and the two- and three-dot ranges) and as DoltLite reads
// them (commit hashes in 40 hex characters).
import { doltHashToHex, hexToDoltHash } from '../doltHash';
import { DoltSqlError } from './common';

const B32_SPEC = /^([0-9a-v]{32})((?:[~^][0-9]*)*)$/;
const HEX40 = /^[0-9a-f]{40}$/;

/**
 * The spec DoltLite understands: a leading base32 commit hash becomes 40 hex; anything else is
 * kept. A NUL is refused: the engine reads a revision as a C string, so `main\0x` would be `main`.
 */
export function toEngineRevision(spec: string): string {
  if (spec.includes('\0')) throw new DoltSqlError(`a revision cannot contain a NUL character: ${JSON.stringify(spec)}`);
  const m = B32_SPEC.exec(spec);
  return m ? doltHashToHex(m[1] as string) + (m[2] ?? '') : spec;
}

/** A hash from DoltLite in the form the API and Dolt show; anything that is not a hash is kept. */
export function toDoltHash(value: unknown): unknown {
  return typeof value === 'string' && HEX40.test(value) ? hexToDoltHash(value) : value;
}

export type RevisionRange =
  { kind: 'single'; spec: string } | { kind: 'twoDot'; from: string; to: string } | { kind: 'threeDot'; from: string; to: string };

/** Reads `a..b` / `a...b`; a side left empty means HEAD, as in Dolt and Git. */
export function parseRange(arg: string): RevisionRange {
  const three = arg.indexOf('...');
  if (three >= 0) return { kind: 'threeDot', from: arg.slice(0, three) || 'HEAD', to: arg.slice(three + 3) || 'HEAD' };
  const two = arg.indexOf('..');
  if (two >= 0) return { kind: 'twoDot', from: arg.slice(0, two) || 'HEAD', to: arg.slice(two + 2) || 'HEAD' };
  return { kind: 'single', spec: arg };
}
