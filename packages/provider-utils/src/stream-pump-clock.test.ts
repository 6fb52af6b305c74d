/**
 * The pump's one settle timer is module state: a stopped stream settling while a test switches
 * between real and fake timers (`vi.useFakeTimers()` / `vi.useRealTimers()`) must still be closed
 * by its deadline on the clock now in use — a timer armed on the other clock may never fire.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { StreamPump } from './stream-pump.js';

/** A stopped stream whose source never ends; `closed()` says whether the pump closed it. */
async function stoppedForever(): Promise<() => boolean> {
  let reads = 0;
  let returned = false;
  const source: AsyncIterator<string> = {
    next: () =>
      reads++ === 0 ? Promise.resolve({ value: 'last', done: false }) : new Promise(() => {}),
    return: () => {
      returned = true;
      return Promise.resolve({ value: undefined, done: true });
    },
  };
  const it = new StreamPump<string, string>({
    open: () => ({ [Symbol.asyncIterator]: () => source }),
    step: (event, out) => {
      out.push(event);
      return 'stop';
    },
    end: () => {},
    error: (error) => error,
  });
  expect(await it.next()).toEqual({ value: 'last', done: false });
  return () => returned;
}

afterEach(() => {
  vi.useRealTimers();
});

it('real timers, then fake ones, then real ones again: each stopped stream is closed by its deadline', async () => {
  const first = await stoppedForever(); // arms the timer on the real clock
  vi.useFakeTimers();
  const second = await stoppedForever();
  await vi.advanceTimersByTimeAsync(1001);
  expect(second()).toBe(true);
  vi.useRealTimers();
  const third = await stoppedForever();
  await new Promise((r) => setTimeout(r, 1300));
  expect(first()).toBe(true);
  expect(third()).toBe(true);
});
