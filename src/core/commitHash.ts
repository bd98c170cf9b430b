// Commit hashes as the API shows them: 32 characters of base32 `0-9a-v`.

const COMMIT_HASH = /^[0-9a-v]{32}$/;

export const SHORT_HASH_LENGTH = 8;

export function shortHash(hash: string): string {
  return hash.slice(0, SHORT_HASH_LENGTH);
}

/** True when the API would treat `text` as a commit hash rather than a branch or tag name. */
export function isCommitHash(text: string): boolean {
  return COMMIT_HASH.test(text.trim());
}
