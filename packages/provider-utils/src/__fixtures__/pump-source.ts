/**
 * Test helpers of the StreamPump tests: a scripted source and a pump over it whose step hands
 * out `raw:<event>` then `<event>`, and whose end pushes `end`.
 */
import { type PumpSteps, StreamPump } from '../stream-pump.js';

/** A source whose reads resolve when the test says so (or at once, from `events`). */
export class Source implements AsyncIterator<string> {
  reads = 0;
  returned = 0;
  private waiting: ((r: IteratorResult<string>) => void)[] = [];
  private failing: ((e: unknown) => void)[] = [];
  constructor(
    private readonly events: string[] = [],
    private readonly manual = false,
  ) {}
  next(): Promise<IteratorResult<string>> {
    this.reads++;
    if (!this.manual) {
      const value = this.events.shift();
      return Promise.resolve(
        value === undefined ? { value: undefined, done: true } : { value, done: false },
      );
    }
    return new Promise((resolve, reject) => {
      this.waiting.push(resolve);
      this.failing.push(reject);
    });
  }
  return(): Promise<IteratorResult<string>> {
    this.returned++;
    return Promise.resolve({ value: undefined, done: true });
  }
  /** Resolves the oldest pending read. */
  push(value: string | undefined): void {
    this.failing.shift();
    this.waiting.shift()?.(
      value === undefined ? { value: undefined, done: true } : { value, done: false },
    );
  }
  fail(error: unknown): void {
    this.waiting.shift();
    this.failing.shift()?.(error);
  }
  [Symbol.asyncIterator]() {
    return this;
  }
}

export function pump(
  source: Source | (() => Source),
  steps: Partial<PumpSteps<string, string>> = {},
): StreamPump<string, string> {
  return new StreamPump<string, string>({
    open: () => (typeof source === 'function' ? source() : source),
    step: (event, out) => {
      out.push(`raw:${event}`, event);
      return undefined;
    },
    end: (out) => {
      out.push('end');
    },
    error: (error, phase) => new Error(`${phase}: ${(error as Error).message}`),
    ...steps,
  });
}
