/**
 * The 1 s settle deadline after a 'stop', on fake timers. A file of its own: the pump's one
 * settle timer is module state, so no test on real timers may arm it before these run.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pump, Source } from './__fixtures__/pump-source.js';
import { openaiSseRules, sseEvents } from './sse-events.js';
import type { PumpSteps } from './stream-pump.js';

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

describe('sseEvents after [DONE]: the same settle deadline', () => {
  /** A body that sends `text`, then neither ends nor sends more. */
  function stalledBody(text: string) {
    const state = { cancelled: false };
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) controller.enqueue(new TextEncoder().encode(text));
        sent = true;
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { response: new Response(body), state };
  }
  const rules = openaiSseRules((error) => new Error(String(error)));

  it('a body that stays open after [DONE] is cancelled after 1 s (the socket is not held)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { response, state } = stalledBody('data: {"a":1}\n\ndata: [DONE]\n\n');
    const events = sseEvents(response, rules);
    expect(await events.next()).toEqual({ value: { a: 1 }, done: false });
    expect(await events.next()).toEqual({ value: undefined, done: true });
    await vi.advanceTimersByTimeAsync(990);
    expect(state.cancelled).toBe(false);
    await vi.advanceTimersByTimeAsync(20);
    expect(state.cancelled).toBe(true);
  });

  it('a body that ends after [DONE] is not cancelled, and no timer is left', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let cancelled = false;
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0)
          controller.enqueue(new TextEncoder().encode('data: {"a":1}\n\ndata: [DONE]\n\n'));
        else controller.close();
      },
      cancel() {
        cancelled = true;
      },
    });
    const events = sseEvents(new Response(body), rules);
    expect(await events.next()).toEqual({ value: { a: 1 }, done: false });
    expect(await events.next()).toEqual({ value: undefined, done: true });
    await vi.advanceTimersByTimeAsync(1100);
    expect(cancelled).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
