// An upload part straight from the request to disk: hashed and counted as it streams, never held
// whole in memory, refused with 413 the moment it passes what the session allows, and renamed
// into place only once complete and synced, so a part file is always whole.
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

export async function receivePart(req: IncomingMessage, dir: string, name: string, maxBytes: number): Promise<ReceivedPart> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && /^\d{1,15}$/.test(declared) && Number(declared) > maxBytes) throw refuseBody(req, maxBytes, 0);
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
        if (size > maxBytes) {
          fail(refuseBody(req, maxBytes, size));
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
