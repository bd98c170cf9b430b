export interface UploadProgress {
  /** Bytes handed to the network so far (never decreases, also across part retries). */
  bytesSent: number;
  totalBytes: number;
  partsDone: number;
  totalParts: number;
}

/**
 * Progress in bytes while parts stream out, reported at most every 256 KiB (and at each finished
 * part) so a slow link still shows movement inside a 5 MiB part. A retried part restarts its own
 * count, but the reported total never goes back.
 */
export class ProgressTracker {
  private confirmed = 0;
  private partsDone = 0;
  private readonly inFlight = new Map<number, number>();
  private reported = -1;

  constructor(
    private readonly totalBytes: number,
    private readonly totalParts: number,
    private readonly onProgress: ((p: UploadProgress) => void) | undefined,
  ) {}

  sent(index: number, bytes: number): void {
    this.inFlight.set(index, (this.inFlight.get(index) ?? 0) + bytes);
    if (this.current() - this.reported >= 256 * 1024) this.emit();
  }

  restart(index: number): void {
    this.inFlight.delete(index);
  }

  partDone(index: number, length: number): void {
    this.inFlight.delete(index);
    this.confirmed += length;
    this.partsDone += 1;
    this.emit(true);
  }

  emit(force = false): void {
    const now = Math.max(this.current(), this.reported);
    if (!force && now === this.reported) return;
    this.reported = now;
    this.onProgress?.({ bytesSent: now, totalBytes: this.totalBytes, partsDone: this.partsDone, totalParts: this.totalParts });
  }

  private current(): number {
    let n = this.confirmed;
    for (const v of this.inFlight.values()) n += v;
    return Math.min(n, this.totalBytes);
  }
}
