/**
 * `StreamPump`: the async iterator behind a provider stream. Each event of the vendor SDK's
 * stream is mapped by a synchronous `step` into zero or more kernel events, handed out one per
 * `next()`: no async generator sits between the SDK and the consumer (a generator `yield` costs
 * a promise round trip, about what the mapping of an event costs). Shared by the provider
 * packages (provider-openai, provider-chat, provider-anthropic).
 */

/** How a pump maps one source. */
export interface PumpSteps<S, T> {
  /** Opens the source; called on the first `next()` (and after a `'reopen'`). */
  open(): AsyncIterable<S> | PromiseLike<AsyncIterable<S>>;
  /**
   * Maps one source event, pushing output events to `out`. `'stop'` ends the stream after them
   * (the source is closed); `'reopen'` closes the source and opens the next one (`open()` again,
   * e.g. to continue a paused response). A returned promise is awaited (async work on a
   * terminal event).
   */
  step(event: S, out: T[]): StepResult | Promise<StepResult>;
  /** The source ended without a `'stop'`: push the last events, or throw. */
  end(out: T[]): void | Promise<void>;
  /**
   * The error to throw: `phase` `'open'` for a failure of `open()`, `'read'` for one of the
   * source's `next()`, `'step'` for an error thrown by `step` / `end`.
   */
  error(error: unknown, phase: 'open' | 'read' | 'step'): unknown;
}

/** What `step` asks for after an event: nothing (`undefined`), `'stop'` or `'reopen'`. */
export type StepResult = undefined | 'stop' | 'reopen';

const DONE: IteratorResult<never> = { value: undefined, done: true };
/** How long a stopped source may take to end by itself (see `settle`). */
const SETTLE_MS = 1000;

/**
 * An `AsyncIterableIterator` over `steps`. Like an async generator, it runs nothing before the
 * first `next()`, serializes overlapping `next()` calls, is done for good once it threw or
 * ended, and closes the source when the consumer stops early (`return()`, e.g. `break` in
 * `for await`) and after an error; after a `'stop'` it lets the source end (see `settle`).
 */
export class StreamPump<S, T> implements AsyncIterableIterator<T> {
  private source: AsyncIterator<S> | undefined;
  private queue: T[] = [];
  private head = 0;
  private finished = false;
  /** The source ended or failed: nothing to close. */
  private sourceDone = false;
  private pulling: Promise<IteratorResult<T>> | undefined;

  constructor(private readonly steps: PumpSteps<S, T>) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.pulling)
      return this.pulling.then(
        () => this.next(),
        () => this.next(),
      );
    if (this.head < this.queue.length) return Promise.resolve(this.take());
    if (this.finished) return Promise.resolve(DONE);
    this.pulling = this.pull();
    return this.pulling;
  }

  async return(): Promise<IteratorResult<T>> {
    this.finished = true;
    this.queue = [];
    this.head = 0;
    await this.close();
    return DONE;
  }

  private take(): IteratorResult<T> {
    const value = this.queue[this.head];
    this.queue[this.head++] = undefined as T;
    return { value, done: false };
  }

  private async close(): Promise<void> {
    if (this.sourceDone || !this.source) return;
    this.sourceDone = true;
    try {
      await this.source.return?.();
    } catch {
      // closing a broken stream: nothing more to do
    }
  }

  /**
   * After a `'stop'`: reads the source to its end in the background instead of closing it (the
   * terminal event is the last one, so that is one more read). Closing a vendor SDK stream before
   * its end aborts the HTTP request, and the connection cannot be reused: the next call would pay
   * a new TCP (and TLS) handshake. Closed anyway if it holds more events or no end within 1 s.
   */
  private settle(): void {
    const source = this.source;
    if (this.sourceDone || !source) return;
    this.sourceDone = true;
    const timer = setTimeout(() => void close(), SETTLE_MS);
    (timer as { unref?: () => void }).unref?.();
    const close = async () => {
      clearTimeout(timer);
      try {
        await source.return?.();
      } catch {
        // closing a broken stream: nothing more to do
      }
    };
    source.next().then(
      (next) => (next.done ? clearTimeout(timer) : close()),
      () => clearTimeout(timer),
    );
  }

  private async pull(): Promise<IteratorResult<T>> {
    const out: T[] = [];
    this.queue = out;
    this.head = 0;
    let phase: 'open' | 'read' | 'step' = 'open';
    try {
      while (out.length === 0 && !this.finished) {
        let source = this.source;
        if (!source) {
          phase = 'open';
          source = (await this.steps.open())[Symbol.asyncIterator]();
          this.source = source;
          this.sourceDone = false;
          if (this.finished) {
            await this.close(); // return() was called while it opened
            break;
          }
        }
        phase = 'read';
        let next: IteratorResult<S>;
        try {
          next = await source.next();
        } catch (error) {
          this.sourceDone = true;
          throw error;
        }
        if (this.finished) break; // return() was called meanwhile
        phase = 'step';
        if (next.done) {
          this.sourceDone = true;
          this.finished = true;
          await this.steps.end(out);
          break;
        }
        let stop = this.steps.step(next.value, out);
        if (stop !== undefined && typeof stop !== 'string') stop = await stop;
        if (stop === 'stop') {
          this.finished = true;
          this.settle();
        } else if (stop === 'reopen') {
          await this.close();
          this.source = undefined;
        }
      }
    } catch (error) {
      this.finished = true;
      this.queue = [];
      this.head = 0;
      this.pulling = undefined;
      await this.close();
      throw this.steps.error(error, phase);
    }
    this.pulling = undefined;
    // `return()` during the pull dropped the queue.
    return this.queue === out && this.head < out.length ? this.take() : DONE;
  }
}
