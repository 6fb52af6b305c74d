/**
 * Output capping for command results: keeps the first and the last bytes of a stream up to a
 * byte budget and inserts a marker for what was dropped. Shared by the sandbox backends.
 */

/** Default `maxOutputBytes` of `exec`: 1 MiB per stream. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** The marker line put where output was dropped, e.g. `[... 12345 bytes truncated ...]`. */
export function truncationMarker(droppedBytes: number): string {
  return `\n[... ${droppedBytes} bytes truncated ...]\n`;
}

/**
 * Collects one output stream under a byte cap: the first half of the budget is kept from the
 * start, the second half from the end (a command's errors are usually at the end).
 * `text()` decodes UTF-8 (a character cut at the boundary becomes U+FFFD).
 */
export class OutputCollector {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Bytes received in total. */
  totalBytes = 0;

  constructor(readonly maxBytes: number) {
    if (!(maxBytes >= 0)) throw new RangeError('maxOutputBytes must be >= 0');
    this.headLimit = Math.ceil(maxBytes / 2);
    this.tailLimit = maxBytes - this.headLimit;
  }

  push(chunk: Uint8Array | string): void {
    let buf =
      typeof chunk === 'string'
        ? Buffer.from(chunk)
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.totalBytes += buf.length;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(buf.length, this.headLimit - this.headBytes);
      this.head.push(Buffer.from(buf.subarray(0, take)));
      this.headBytes += take;
      buf = buf.subarray(take);
    }
    if (buf.length === 0 || this.tailLimit === 0) return;
    this.tail.push(Buffer.from(buf.subarray(Math.max(0, buf.length - this.tailLimit))));
    this.tailBytes += Math.min(buf.length, this.tailLimit);
    while (this.tailBytes - this.tail[0].length >= this.tailLimit)
      this.tailBytes -= this.tail.shift()!.length;
  }

  /** True when bytes were dropped. */
  get truncated(): boolean {
    return this.totalBytes > this.maxBytes;
  }

  text(): string {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    if (!this.truncated) return Buffer.concat([head, tail]).toString('utf8');
    if (tail.length > this.tailLimit) tail = tail.subarray(tail.length - this.tailLimit);
    const dropped = this.totalBytes - head.length - tail.length;
    return head.toString('utf8') + truncationMarker(dropped) + tail.toString('utf8');
  }
}
