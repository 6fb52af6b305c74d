/**
 * Coalesces model text deltas before they are written to the run's event stream: one write per
 * `maxDelayMs` (or per `maxChars` of text), in order, instead of one per token.
 */
export interface DeltaCoalescerOptions {
  /** Flush once this many characters are buffered. Default 512. */
  maxChars?: number;
  /** Flush this long after the first buffered delta. Default 50 ms. */
  maxDelayMs?: number;
  /** Writes one coalesced chunk; calls are serialized (never concurrent). */
  flush(text: string): Promise<void>;
}

export class DeltaCoalescer {
  private buffer = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly maxChars: number;
  private readonly maxDelayMs: number;
  private readonly write: (text: string) => Promise<void>;
  /** The first flush failure; later chunks are dropped once set. */
  failure: unknown;
  /** Chunks written so far. */
  flushes = 0;

  constructor(options: DeltaCoalescerOptions) {
    this.maxChars = options.maxChars ?? 512;
    this.maxDelayMs = options.maxDelayMs ?? 50;
    this.write = options.flush;
  }

  /** Buffers a delta; schedules or triggers a flush. */
  push(delta: string): void {
    if (!delta) return;
    this.buffer += delta;
    if (this.buffer.length >= this.maxChars) this.flushNow();
    else if (!this.timer) this.timer = setTimeout(() => this.flushNow(), this.maxDelayMs);
  }

  private flushNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.buffer;
    this.buffer = '';
    if (!text) return;
    this.chain = this.chain.then(async () => {
      if (this.failure !== undefined) return;
      try {
        await this.write(text);
        this.flushes++;
      } catch (error) {
        this.failure = error;
      }
    });
  }

  /** Flushes what is buffered and waits for every write. @throws the first flush failure. */
  async close(): Promise<void> {
    this.flushNow();
    await this.chain;
    if (this.failure !== undefined) throw this.failure;
  }

  /** Drops what is buffered and waits for writes in flight (after a failed model call). */
  async discard(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.buffer = '';
    await this.chain;
  }
}
