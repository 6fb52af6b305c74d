/**
 * API failures through the real SDK → `ModelCallError` and retry advice. The client never
 * retries by itself (the kernel owns retries).
 */
import { extractText, type MessageItem, ModelCallError } from '@baton/kernel';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  collect,
  type Harness,
  ownFixture,
  request,
  startHarness,
} from './__fixtures__/harness.js';
import { parseRetryAfterMs } from './anthropic-errors.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.close();
});
beforeEach(() => {
  h.server.requests.length = 0;
  expect(h.server.pending()).toBe(0);
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  ) as Promise<ModelCallError>;

describe('Anthropic errors', () => {
  it('529 overloaded, then success: retryable with the retry-after delay; the SDK did not retry on its own', async () => {
    const model = h.model();
    h.server.enqueue({
      kind: 'json',
      status: 529,
      headers: { 'retry-after': '2' },
      body: ownFixture('overloaded-529.json'),
    });
    const error = await failure(model.getResponse(request('hi')));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      statusCode: 529,
      retryable: true,
      retryAfterMs: 2000,
      code: 'overloaded_error',
    });
    expect(error.message).toContain(
      `Anthropic API error 529 (overloaded_error) from ${h.server.url}/v1/messages: Overloaded [request req_fx_overloaded_01]. Anthropic is overloaded: retry later.`,
    );
    expect(h.server.requests).toHaveLength(1);
    expect(model.getRetryAdvice(error, 1)).toEqual({ retry: true, delayMs: 2000 });

    h.server.enqueue({ kind: 'json', body: ownFixture('text.json') });
    const res = await model.getResponse(request('hi'));
    expect(extractText(res.output[0] as MessageItem)).toBe('The capital of France is Paris.');
    expect(h.server.requests).toHaveLength(2);
  });

  it('429 is retryable with retry-after-ms; 401 is not', async () => {
    const model = h.model();
    h.server.enqueue({
      kind: 'json',
      status: 429,
      headers: { 'retry-after-ms': '1500', 'retry-after': '9' },
      body: ownFixture('rate-limit-429.json'),
    });
    const limited = await failure(model.getResponse(request('hi')));
    expect(limited).toMatchObject({
      statusCode: 429,
      retryable: true,
      retryAfterMs: 1500,
      code: 'rate_limit_error',
    });
    expect(model.getRetryAdvice(limited, 1)).toEqual({ retry: true, delayMs: 1500 });

    h.server.enqueue({ kind: 'json', status: 401, body: ownFixture('authentication-401.json') });
    const denied = await failure(model.getResponse(request('hi')));
    expect(denied).toMatchObject({
      statusCode: 401,
      retryable: false,
      code: 'authentication_error',
    });
    expect(denied.message).toContain('Check the API key');
    expect(model.getRetryAdvice(denied, 1)).toEqual({ retry: false });
  });

  it('500, 503 and 404 from the server', async () => {
    const model = h.model();
    const cases: [number, boolean][] = [
      [500, true],
      [503, true],
      [404, false],
      [403, false],
    ];
    for (const [status, retryable] of cases) {
      h.server.enqueue({
        kind: 'json',
        status,
        body: {
          type: 'error',
          error: {
            type: status >= 500 ? 'api_error' : 'not_found_error',
            message: `status ${status}`,
          },
        },
      });
      const error = await failure(model.getResponse(request('hi')));
      expect(error).toMatchObject({ statusCode: status, retryable });
      expect(error.retryAfterMs).toBeUndefined();
    }
  });

  it('an overloaded_error event after output was streamed is a ModelCallError (529) that is not retryable', async () => {
    h.server.enqueue({ kind: 'sse', body: ownFixture('overloaded-mid-stream.sse') });
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const e of h.model().getStreamedResponse(request('hi')))
          if (e.type === 'text_delta') seen.push(e.delta);
      })(),
    );
    expect(seen).toEqual(['Hel']);
    expect(error).toMatchObject({ statusCode: 529, retryable: false, code: 'overloaded_error' });
    expect(error.message).toContain('Anthropic stream error (overloaded_error) from');
    expect(error.message).toContain('Output had already been streamed');
    expect(h.model().getRetryAdvice(error, 1)).toEqual({ retry: false });
  });

  it('an overloaded_error event before any output is retryable (529)', async () => {
    const body = ownFixture('overloaded-mid-stream.sse');
    const before =
      body.slice(0, body.indexOf('event: content_block_start')) +
      body.slice(body.indexOf('event: error'));
    h.server.enqueue({ kind: 'sse', body: before });
    const error = await failure(collect(h.model().getStreamedResponse(request('hi'))));
    expect(error).toMatchObject({ statusCode: 529, retryable: true, code: 'overloaded_error' });
  });

  it('a stream cut before message_stop: retryable before any output, not retryable after', async () => {
    const body = ownFixture('tool-use-stream.sse');
    h.server.enqueue({ kind: 'sse', body, cutAfterBytes: body.indexOf('event: message_delta') });
    const error = await failure(collect(h.model().getStreamedResponse(request('hi'))));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error.retryable).toBe(false);
    h.server.enqueue({
      kind: 'sse',
      body,
      cutAfterBytes: body.indexOf('event: content_block_start'),
    });
    const early = await failure(collect(h.model().getStreamedResponse(request('hi'))));
    expect(ModelCallError.isInstance(early)).toBe(true);
    expect(early.retryable).toBe(true);
  });

  it('an aborted call rejects with the signal reason and is not retried', async () => {
    const model = h.model();
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    h.server.enqueue({ kind: 'json', body: ownFixture('text.json') });
    await expect(model.getResponse(request('hi', { signal: controller.signal }))).rejects.toBe(
      reason,
    );
    h.server.requests.length = 0;
    while (h.server.pending() > 0) await model.getResponse(request('drain'));

    const mid = new AbortController();
    h.server.enqueue({ kind: 'sse', body: ownFixture('tool-use-stream.sse'), chunkBytes: 64 });
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const e of model.getStreamedResponse(request('hi', { signal: mid.signal }))) {
          seen.push(e.type);
          if (e.type === 'response_started') mid.abort(reason);
        }
      })(),
    );
    expect(error).toBe(reason);
    expect(seen).not.toContain('response_done');
    expect(model.getRetryAdvice(error, 1)).toBeUndefined();
  });

  it('parses retry-after headers: milliseconds, seconds, HTTP dates, garbage', () => {
    const headers = (h: Record<string, string>) => new Headers(h);
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfterMs(headers({ 'retry-after': '1.5' }))).toBe(1500);
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const fromDate = parseRetryAfterMs(headers({ 'retry-after': inTenSeconds }))!;
    expect(fromDate).toBeGreaterThan(8_000);
    expect(fromDate).toBeLessThanOrEqual(10_000);
    expect(parseRetryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfterMs(headers({}))).toBeUndefined();
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
  });
});
