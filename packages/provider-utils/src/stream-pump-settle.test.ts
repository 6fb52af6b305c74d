/**
 * The 1 s settle deadline after a 'stop', on fake timers. A file of its own: the pump's one
 * settle timer is module state, so no test on real timers may arm it before these run.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type PumpSteps, StreamPump } from './stream-pump.js';

/** A source whose reads resolve when the test says so (or at once, from `events`). */
class Source implements AsyncIterator<string> {
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

function pump(
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

afterEach(() => {
  vi.useRealTimers();
});

describe("StreamPump after 'stop': the settle deadline", () => {
  const stopAt = (last: string): Partial<PumpSteps<string, string>> => ({
    step: (event, out) => {
      out.push(event);
      return event === last ? 'stop' : undefined;
    },
  });

  it('a source that does not end within 1 s is closed; each stopped stream on its own deadline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const first = new Source([], true);
    const second = new Source([], true);
    const read = async (source: Source) => {
      const it = pump(source, stopAt('done'));
      const pending = it.next();
      await Promise.resolve();
      source.push('done');
      expect(await pending).toEqual({ value: 'done', done: false });
      expect(await it.next()).toEqual({ value: undefined, done: true });
    };
    await read(first);
    await vi.advanceTimersByTimeAsync(600);
    await read(second);
    await vi.advanceTimersByTimeAsync(399);
    expect(first.returned).toBe(0);
    await vi.advanceTimersByTimeAsync(2);
    expect(first.returned).toBe(1);
    expect(second.returned).toBe(0);
    await vi.advanceTimersByTimeAsync(600);
    expect(second.returned).toBe(1);
    // ended later: nothing more to do
    first.push(undefined);
    second.push(undefined);
    await vi.advanceTimersByTimeAsync(2000);
    expect([first.returned, second.returned]).toEqual([1, 1]);
  });

  it('a source that ends in time is never closed, and its deadline is dropped', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const source = new Source([], true);
    const it = pump(source, stopAt('done'));
    const pending = it.next();
    await Promise.resolve();
    source.push('done');
    await pending;
    await vi.advanceTimersByTimeAsync(10);
    source.push(undefined);
    await vi.advanceTimersByTimeAsync(5000);
    expect(source.returned).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
