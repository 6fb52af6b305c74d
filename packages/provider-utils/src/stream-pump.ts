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
   * Maps one source event, pushing output events to `out` (only push: `out` may still hold
   * slots of events already handed out, so what this step added starts at the `out.length` it
   * found). `'stop'` ends the stream after them
   * (the source is closed); `'reopen'` closes the source and opens the next one (`open()` again,
   * e.g. to continue a paused response). A returned promise is awaited (async work on a
   * terminal event).
   */
  step(event: S, out: T[]): StepResult | Promise<StepResult>;
  /** The source ended without a `'stop'`: push the last events (as in `step`), or throw. */
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
/** How many events one queue array holds (handed out or not) before a fresh one is taken. */
const QUEUE_REUSE = 32;
/** How long a stopped source may take to end by itself (see `settle`). */
const SETTLE_MS = 1000;

/** A stopped source reading to its end in the background (see `StreamPump#settle`). */
interface Settling {
  deadline: number;
  close(): void;
}
/** Every settling source, and one timer for all of them (not one per stream). */
const settling = new Set<Settling>();
let settleTimer: ReturnType<typeof setTimeout> | undefined;
/**
 * The `setTimeout` the timer was armed with: when another one is installed (fake timers in a
 * test, then real ones again), a timer of the old clock may never fire, so a new one is armed.
 */
let armedWith: typeof setTimeout | undefined;

function armSettleTimer(delayMs: number): void {
  armedWith = setTimeout;
  settleTimer = setTimeout(sweepSettling, delayMs);
  (settleTimer as { unref?: () => void }).unref?.();
}

/** Closes the settling sources past their deadline; re-arms for the next deadline. */
function sweepSettling(): void {
  settleTimer = undefined;
  const now = Date.now();
  let next = Number.POSITIVE_INFINITY;
  for (const entry of settling) {
    if (entry.deadline <= now) {
      settling.delete(entry);
      entry.close();
    } else if (entry.deadline < next) next = entry.deadline;
  }
  if (settling.size > 0) armSettleTimer(Math.max(1, next - now));
}

/** What a source's `next()` resolving to a non-object fails with (as `for await` does). */
function notAResult(value: unknown): TypeError {
  return new TypeError(`Iterator result ${String(value)} is not an object`);
}

/**
 * Lets a source that sent its terminal event read to its end in the background, so that the
 * connection can be reused: `next()` reads once more; `close()` is called (once) when that read
 * is not the end, or when no end comes within 1 s (one timer watches every settling source). A
 * `next()` that throws or rejects leaves nothing to close.
 */
export function settleSource(next: () => PromiseLike<{ done?: boolean }>, close: () => void): void {
  let pending: PromiseLike<{ done?: boolean }>;
  try {
    pending = next();
  } catch {
    return;
  }
  let open = true;
  const entry: Settling = {
    deadline: Date.now() + SETTLE_MS,
    close: () => {
      if (!open) return;
      open = false;
      settling.delete(entry);
      close();
    },
  };
  const ended = () => {
    open = false;
    settling.delete(entry);
  };
  settling.add(entry);
  if (settleTimer === undefined || armedWith !== setTimeout) armSettleTimer(SETTLE_MS);
  Promise.resolve(pending).then((read) => (read.done ? ended() : entry.close()), ended);
}

/**
 * An `AsyncIterableIterator` over `steps`. Like an async generator, it runs nothing before the
 * first `next()`, serializes overlapping `next()` calls, is done for good once it threw or
 * ended, and closes the source when the consumer stops early (`return()`, e.g. `break` in
 * `for await`) and after an error; after a `'stop'` it lets the source end (see `settle`).
 *
 * Cost: a `next()` that finds a mapped event waiting resolves at once; one that must read maps
 * the source event in the read's own `then` callback (no async function frame per event).
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
    if (this.pulling) return this.pulling.then(this.nextAgain, this.nextAgain);
    if (this.head < this.queue.length) return Promise.resolve(this.take());
    if (this.finished) return Promise.resolve(DONE);
    // The queue is handed out (`head` is at its end): new events are appended to it, and a
    // fresh array is taken only every QUEUE_REUSE events (not one per read).
    if (this.head >= QUEUE_REUSE) {
      this.queue = [];
      this.head = 0;
    }
    const out = this.queue;
    this.pulling = this.source === undefined ? this.pull(out) : this.read(this.source);
    return this.pulling;
  }

  async return(): Promise<IteratorResult<T>> {
    this.finished = true;
    this.queue = [];
    this.head = 0;
    await this.close();
    return DONE;
  }

  private readonly nextAgain = (): Promise<IteratorResult<T>> => this.next();

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
    settleSource(
      () => source.next(),
      () => {
        try {
          Promise.resolve(source.return?.()).catch(() => {
            // closing a broken stream: nothing more to do
          });
        } catch {
          // closing a broken stream: nothing more to do
        }
      },
    );
  }

  /**
   * The common read: the source's `next()`, mapped in its `then` callback. Anything but an event
   * that `step` maps synchronously into at least one event without a `'reopen'` (the end, an
   * error, an async step, an empty step) goes on in `pull`.
   */
  private read(source: AsyncIterator<S>): Promise<IteratorResult<T>> {
    let pending: Promise<IteratorResult<S>>;
    try {
      pending = Promise.resolve(source.next());
    } catch (error) {
      this.sourceDone = true;
      return this.fail(error, 'read');
    }
    return pending.then(this.mapRead, this.readFailed);
  }

  private readonly readFailed = (error: unknown): Promise<IteratorResult<T>> => {
    this.sourceDone = true;
    return this.fail(error, 'read');
  };

  private readonly mapRead = (
    next: IteratorResult<S>,
  ): IteratorResult<T> | Promise<IteratorResult<T>> => {
    if (this.finished) {
      // `return()` was called meanwhile (it dropped the queue)
      this.pulling = undefined;
      return DONE;
    }
    if (typeof next !== 'object' || next === null) return this.readFailed(notAResult(next));
    const out = this.queue;
    if (next.done) return this.pull(out, next);
    let stop: StepResult | Promise<StepResult>;
    try {
      stop = this.steps.step(next.value, out);
    } catch (error) {
      return this.fail(error, 'step');
    }
    if (stop === undefined) {
      if (out.length === this.head) return this.pull(out); // nothing to hand out
    } else if (stop === 'stop') {
      this.finished = true;
      this.settle();
    } else return this.pull(out, next, stop); // 'reopen', or a step still running
    this.pulling = undefined;
    return this.head < out.length ? this.take() : DONE;
  };

  /**
   * The general loop: opens the source when needed, reads and maps until `out` holds an event or
   * the stream is finished. `next` / `stop`: a read already made (and what `step` returned).
   */
  private async pull(
    out: T[],
    next?: IteratorResult<S>,
    stop?: StepResult | Promise<StepResult>,
  ): Promise<IteratorResult<T>> {
    let phase: 'open' | 'read' | 'step' = 'step';
    try {
      for (;;) {
        if (next === undefined) {
          if (out.length > this.head || this.finished) break;
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
          try {
            next = await source.next();
            if (typeof next !== 'object' || next === null) throw notAResult(next);
          } catch (error) {
            this.sourceDone = true;
            throw error;
          }
          if (this.finished) break; // return() was called meanwhile
          phase = 'step';
          if (!next.done) stop = this.steps.step(next.value, out);
        }
        if (next.done) {
          this.sourceDone = true;
          this.finished = true;
          await this.steps.end(out);
          break;
        }
        if (stop !== undefined && typeof stop !== 'string') stop = await stop;
        if (stop === 'stop') {
          this.finished = true;
          this.settle();
        } else if (stop === 'reopen') {
          await this.close();
          this.source = undefined;
        }
        next = undefined;
        stop = undefined;
      }
    } catch (error) {
      return this.fail(error, phase);
    }
    this.pulling = undefined;
    // `return()` during the pull dropped the queue.
    return this.queue === out && this.head < out.length ? this.take() : DONE;
  }

  /** Ends the stream for good after `error`: drops the queue, closes the source, throws. */
  private async fail(error: unknown, phase: 'open' | 'read' | 'step'): Promise<never> {
    this.finished = true;
    this.queue = [];
    this.head = 0;
    this.pulling = undefined;
    await this.close();
    throw this.steps.error(error, phase);
  }
}
