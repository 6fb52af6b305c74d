/**
 * Model-call retries: the backoff schedule (`retry.backoff`), a model's own advice (`delayMs`),
 * the default rule (retryable `ModelCallError`s only), the abortable wait between attempts, and
 * the error an aborted run rejects with.
 */
import { msg, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { ModelCallError, RunAbortedError } from '../errors/errors.js';
import type { Model, ModelRequest } from '../model/model.js';
import { backoffDelayMs, defaultRetryAdvice, sleep, toAbortError } from './retry.js';

afterEach(() => vi.restoreAllMocks());

describe('backoffDelayMs', () => {
  it('grows by the multiplier per attempt from the initial delay, capped at the maximum (no jitter)', () => {
    const o = { initialDelayMs: 100, multiplier: 3, maxDelayMs: 1_000, jitter: 0 };
    expect([0, 1, 2, 3, 4].map((a) => backoffDelayMs(a, o))).toEqual([100, 100, 300, 900, 1_000]);
  });

  it('defaults: 500 ms doubling to at most 8 s, half of each delay random ("equal jitter")', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelayMs(a))).toEqual([
      250, 500, 1_000, 2_000, 4_000, 4_000,
    ]);
    vi.spyOn(Math, 'random').mockReturnValue(1);
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelayMs(a))).toEqual([
      500, 1_000, 2_000, 4_000, 8_000, 8_000,
    ]);
  });

  it('the random share is jitter·delay on top of (1 − jitter)·delay; jitter is clamped to 0..1', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const at = (jitter: number) => backoffDelayMs(1, { initialDelayMs: 1_000, jitter });
    expect(at(0.2)).toBe(900); // 800 fixed + 0.5 · 200
    expect(at(1)).toBe(500);
    expect(at(-3)).toBe(1_000); // clamped to 0
    expect(at(7)).toBe(500); // clamped to 1
  });
});

describe('defaultRetryAdvice', () => {
  it("follows a ModelCallError's retryable, retryAfterMs and replaySafe; anything else is not retried", () => {
    const e = new ModelCallError('busy', { retryable: true, retryAfterMs: 42, replaySafe: true });
    expect(defaultRetryAdvice(e)).toEqual({ retry: true, delayMs: 42, replaySafe: true });
    expect(defaultRetryAdvice(new ModelCallError('no', { retryable: false }))).toMatchObject({
      retry: false,
    });
    expect(defaultRetryAdvice(new TypeError('bug'))).toEqual({ retry: false });
    expect(defaultRetryAdvice({ retryable: true })).toEqual({ retry: false });
  });
});

describe('sleep', () => {
  it('resolves after the delay and leaves no abort listener behind', async () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    await sleep(5, controller.signal);
    expect(add).toHaveBeenCalledTimes(1);
    expect(remove).toHaveBeenCalledWith('abort', add.mock.calls[0][1]);
  });

  it('rejects at once with RunAbortedError for an aborted signal, and when it aborts while waiting', async () => {
    const reason = new Error('stop');
    await expect(sleep(10_000, AbortSignal.abort(reason))).rejects.toMatchObject({
      name: 'RunAbortedError',
      cause: reason,
    });
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const waiting = sleep(10_000, controller.signal);
    expect(add).toHaveBeenCalledWith('abort', expect.any(Function), { once: true });
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(RunAbortedError);
  });
});

describe('toAbortError', () => {
  it('keeps a RunAbortedError reason as is; other reasons (or the given cause) become the cause', () => {
    const own = new RunAbortedError('cancelled by the consumer');
    expect(toAbortError(AbortSignal.abort(own))).toBe(own);
    const reason = new Error('timeout');
    expect(toAbortError(AbortSignal.abort(reason)).cause).toBe(reason);
    const cause = new Error('the model call');
    expect(toAbortError(AbortSignal.abort(reason), cause).cause).toBe(cause);
  });
});

/** A model failing `failures` times with `error()`, then answering; records each request. */
function flaky(failures: number, error: () => unknown, advice?: Model['getRetryAdvice']) {
  const requests: ModelRequest[] = [];
  const inner = new ScriptedModel([
    ...Array.from({ length: failures }, () => () => ({ error: error() })),
    [msg('done')],
  ]);
  const model: Model = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'flaky',
    getResponse: (r) => (requests.push(r), inner.getResponse(r)),
    getStreamedResponse: (r) => (requests.push(r), inner.getStreamedResponse(r)),
    getRetryAdvice: advice,
  };
  return { model, requests };
}

/** The delays of the retry waits (setTimeout calls of at least `min` ms) during `fn`. */
async function retryDelays<T>(
  fn: () => Promise<T>,
  min = 1,
): Promise<{ value: T; delays: number[] }> {
  const delays: number[] = [];
  const real = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((cb: () => void, ms?: number) => {
    if ((ms ?? 0) >= min) delays.push(ms!);
    return real(cb, 0);
  }) as typeof setTimeout);
  const value = await fn();
  return { value, delays };
}

describe('retries in a run (both modes)', () => {
  const busy = () => new ModelCallError('busy', { retryable: true });
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`waits retry.backoff delays between attempts, one set of items in the end (${mode})`, async () => {
      vi.spyOn(Math, 'random').mockReturnValue(0);
      const { model, requests } = flaky(2, busy);
      const agent = new Agent({ name: 'A', model });
      const backoff = { initialDelayMs: 40, multiplier: 3, jitter: 0 };
      const { value, delays } = await retryDelays(() =>
        runMode(() => ({ agent, input: 'x', options: { retry: { backoff } } }), stream),
      );
      expect(value.error).toBeUndefined();
      expect(value.result!.finalOutput).toBe('done');
      expect(value.result!.newItems).toHaveLength(1);
      expect(requests).toHaveLength(3);
      expect(delays).toEqual([40, 120]);
    });

    it(`a model's retry advice wins: its delay, and no retry where it says so (${mode})`, async () => {
      const advised = flaky(
        1,
        () => new Error('odd'),
        () => ({ retry: true, delayMs: 33 }),
      );
      const agent = new Agent({ name: 'A', model: advised.model });
      const { value, delays } = await retryDelays(() =>
        runMode(() => ({ agent, input: 'x' }), stream),
      );
      expect(value.result!.finalOutput).toBe('done');
      expect(delays).toEqual([33]);

      const refused = flaky(1, busy, () => ({ retry: false }));
      const outcome = await runMode(
        () => ({ agent: new Agent({ name: 'A', model: refused.model }), input: 'x' }),
        stream,
      );
      expect(outcome.error).toBeInstanceOf(ModelCallError);
      expect((outcome.error as Error).message).toMatch(
        /^busy \[Not retried \(attempt 1 of 3\): the retry advice says this error is not retryable\.\]$/,
      );
      expect(refused.requests).toHaveLength(1);
    });

    it(`an error that is not a ModelCallError is rethrown untouched, not retried (${mode})`, async () => {
      const bug = new TypeError('model bug');
      const { model, requests } = flaky(1, () => bug);
      const outcome = await runMode(
        () => ({ agent: new Agent({ name: 'A', model }), input: 'x' }),
        stream,
      );
      expect(outcome.error).toBe(bug);
      expect(bug.message).toBe('model bug');
      expect(requests).toHaveLength(1);
    });

    it(`gives up after retry.maxRetries, saying so (${mode})`, async () => {
      const { model, requests } = flaky(5, busy);
      const options = { retry: { maxRetries: 1, backoff: { initialDelayMs: 1, maxDelayMs: 1 } } };
      const outcome = await runMode(
        () => ({ agent: new Agent({ name: 'A', model }), input: 'x', options }),
        stream,
      );
      expect((outcome.error as Error).message).toBe(
        'busy [Gave up after 2 attempts (retry.maxRetries 1); the retry advice says retryable: try again later or raise retry.maxRetries.]',
      );
      expect(requests).toHaveLength(2);
    });

    it(`an abort during the wait between attempts ends the run with RunAbortedError, no further attempt (${mode})`, async () => {
      const controller = new AbortController();
      const { model, requests } = flaky(1, () => {
        setTimeout(() => controller.abort(), 5);
        return busy();
      });
      const options = { signal: controller.signal, retry: { backoff: { initialDelayMs: 10_000 } } };
      const outcome = await runMode(
        () => ({ agent: new Agent({ name: 'A', model }), input: 'x', options }),
        stream,
      );
      expect(outcome.error).toBeInstanceOf(RunAbortedError);
      expect(requests).toHaveLength(1);
    });
  }
});
