// An upload part straight from the request to disk: hashed and counted as it streams, never held
// whole in memory, refused with 413 the moment it passes what the session allows, and renamed
// into place only once complete and synced, so a part file is always whole. The parts of one
// session share its declared content_length, also while several arrive at once (SessionBytes).
import type { IncomingMessage } from 'node:http';
import { mkdirSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { HttpProblem, refuseBody } from './http';
import { fsyncDir } from './atomicFile';

export interface ReceivedPart {
  size: number;
  md5: Buffer;
}

/**
 * What one part may write: `take(n)` says whether `n` more bytes fit (and counts them); `room()`
 * is how large the whole part may be now, for the 413's message.
 */
export interface PartAllowance {
  take(n: number): boolean;
  room(): number;
}

/**
 * The bytes each upload session holds (parts stored) and is receiving (parts arriving), so that
 * concurrent parts cannot each take what the session leaves: every chunk is counted against the
 * session before it is written. A session's count starts from its stored parts when its first
 * part begins to arrive and is dropped when its last one ends.
 */
export class SessionBytes {
  private readonly sessions = new Map<string, { used: number; streams: number }>();

  /** Is a part of session `id` arriving now? */
  has(id: string): boolean {
    return this.sessions.has(id);
  }

  /**
   * Starts receiving a part: `stored()` sums the sizes of the parts the session holds; `replaced()`
   * is the stored size of the part number being sent again, which the new part may take over.
   */
  open(
    id: string,
    limit: number,
    stored: () => number,
    replaced: () => number,
  ): PartAllowance & { done(replacedSize: number | undefined): void } {
    let entry = this.sessions.get(id);
    if (!entry) this.sessions.set(id, (entry = { used: stored(), streams: 0 }));
    const e = entry;
    e.streams++;
    let taken = 0;
    return {
      room: () => Math.max(0, limit - e.used + replaced() + taken),
      take: (n) => {
        if (e.used - replaced() + n > limit) return false;
        e.used += n;
        taken += n;
        return true;
      },
      // Called in the same turn as the store's update, with the size of the part it replaced:
      // the new part (counted while it arrived) takes the old one's place. A part not stored
      // gives back what it took.
      done: (replacedSize) => {
        e.used -= replacedSize ?? taken;
        if (--e.streams === 0) this.sessions.delete(id);
      },
    };
  }
}

export async function receivePart(req: IncomingMessage, dir: string, name: string, allowance: PartAllowance): Promise<ReceivedPart> {
  const declared = req.headers['content-length'];
  // A declared length is taken whole at once: a part that cannot fit is refused before any byte.
  const reserved = declared !== undefined && /^\d{1,15}$/.test(declared) ? Number(declared) : undefined;
  if (reserved !== undefined && !allowance.take(reserved)) throw refuseBody(req, allowance.room(), 0);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `${name}.${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(tmp, 'w');
  const hash = createHash('md5');
  let size = 0;
  let done = false;
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (e: unknown): void => {
        req.off('data', onData);
        req.off('end', onEnd);
        reject(e);
      };
      const onData = (c: Buffer): void => {
        size += c.length;
        if ((reserved !== undefined && size > reserved) || (reserved === undefined && !allowance.take(c.length))) {
          fail(refuseBody(req, reserved ?? allowance.room(), size));
          return;
        }
        hash.update(c);
        // One write at a time: the request waits while the disk catches up.
        req.pause();
        fh.write(c).then(() => req.resume(), fail);
      };
      const onEnd = (): void => resolve();
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', fail);
      req.on('aborted', () => fail(new HttpProblem(400, 'VALIDATION_FAILED', 'The part upload was cut off.')));
    });
    await fh.sync();
    await fh.close();
    await rename(tmp, join(dir, name));
    fsyncDir(dir);
    done = true;
    return { size, md5: hash.digest() };
  } finally {
    if (!done) {
      await fh.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
    }
  }
}
