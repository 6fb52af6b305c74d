import { chunksToSse, readFixture, recordedFixturePath } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  collect,
  collectUntilError,
  type Harness,
  makeRequest,
  ownFixture,
  ownJson,
  startHarness,
} from './__fixtures__/harness.js';
import { retryAfterMsFromHeaders } from './chat-errors.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('HTTP errors → ModelCallError and retry advice', () => {
  it('maps 429 with retry-after to a retryable error with retryAfterMs, and advises the delay', async () => {
    h.server.enqueue({
      kind: 'json',
      status: 429,
      headers: { 'retry-after': '20' },
      body: ownJson('rate-limit-error.json'),
    });
    const error = await h.model.getResponse(makeRequest()).catch((e) => e);
    expect(error).toMatchObject({
      kind: 'ModelCallError',
      statusCode: 429,
      retryable: true,
      retryAfterMs: 20_000,
      code: 'rate_limit_exceeded',
    });
    expect(error.message).toContain('Rate limit reached for gpt-4.1-mini');
    expect(h.model.getRetryAdvice(error, 1)).toEqual({ retry: true, delayMs: 20_000 });
    // The client itself did not retry: the kernel owns retries.
    expect(h.server.requests).toHaveLength(1);
  });

  it('prefers retry-after-ms (milliseconds) over retry-after', async () => {
    h.server.enqueue({
      kind: 'json',
      status: 429,
      headers: { 'retry-after-ms': '1500', 'retry-after': '2' },
      body: ownJson('rate-limit-error.json'),
    });
    const error = await h.model.getResponse(makeRequest()).catch((e) => e);
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 1500 });
    expect(h.model.getRetryAdvice(error, 2)).toEqual({ retry: true, delayMs: 1500 });
  });

  it('succeeds on the next call after a 429 (two requests recorded, same body)', async () => {
    h.server.enqueue(
      {
        kind: 'json',
        status: 429,
        headers: { 'retry-after': '0' },
        body: ownJson('rate-limit-error.json'),
      },
      { kind: 'json', body: ownJson('text.json') },
    );
    const request = makeRequest();
    const error = await h.model.getResponse(request).catch((e) => e);
    expect(h.model.getRetryAdvice(error, 1)).toEqual({ retry: true, delayMs: 0 });
    const response = await h.model.getResponse(request);
    expect((response.output[0] as any).content[0].text).toBe('Hello! How can I help you today?');
    expect(h.server.requests).toHaveLength(2);
    expect(h.server.requests[1].body).toEqual(h.server.requests[0].body);
  });

  it('does not retry a 400 and keeps the server message and code', async () => {
    h.server.enqueue({
      kind: 'json',
      status: 400,
      body: readFixture(
        recordedFixturePath('chat-completions/reasoning-model-legacy-parameter-error.json'),
      ),
    });
    const error = await h.model.getResponse(makeRequest()).catch((e) => e);
    expect(error).toMatchObject({
      kind: 'ModelCallError',
      statusCode: 400,
      retryable: false,
      retryAfterMs: undefined,
      code: 'unsupported_parameter',
    });
    expect(error.message).toContain("Unsupported parameter: 'max_tokens'");
    expect(h.model.getRetryAdvice(error, 1)).toEqual({ retry: false });
    expect(h.server.requests).toHaveLength(1);
  });

  it.each([
    [401, false],
    [403, false],
    [404, false],
    [500, true],
    [503, true],
  ])('classifies HTTP %i as retryable=%s', async (status, retryable) => {
    h.server.enqueue({ kind: 'json', status, body: ownJson('bad-request-error.json') });
    const error = await h.model.getResponse(makeRequest()).catch((e) => e);
    expect(error).toMatchObject({ kind: 'ModelCallError', statusCode: status, retryable });
    expect(h.model.getRetryAdvice(error, 1)).toEqual({ retry: retryable });
  });

  it('maps an HTTP error of a streaming request before any chunk', async () => {
    h.server.enqueue({
      kind: 'json',
      status: 503,
      headers: { 'retry-after': '3' },
      body: {
        error: {
          message: 'The server is overloaded.',
          type: 'server_error',
          param: null,
          code: null,
        },
      },
    });
    const { events, error } = await collectUntilError(h.model.getStreamedResponse(makeRequest()));
    expect(events).toEqual([]);
    expect(error).toMatchObject({
      kind: 'ModelCallError',
      statusCode: 503,
      retryable: true,
      retryAfterMs: 3000,
    });
  });
});

describe('connection failures', () => {
  it('maps a connection reset before any output to a retryable ModelCallError', async () => {
    h.server.enqueue({ kind: 'reset' });
    const error = await h.model.getResponse(makeRequest()).catch((e) => e);
    expect(error).toMatchObject({
      kind: 'ModelCallError',
      retryable: true,
      code: 'connection_error',
    });
    expect(h.model.getRetryAdvice(error, 1)).toEqual({ retry: true });
  });

  it('maps a reset of a streaming request before output to a retryable error', async () => {
    h.server.enqueue({ kind: 'reset' });
    const { events, error } = await collectUntilError(h.model.getStreamedResponse(makeRequest()));
    expect(events).toEqual([]);
    expect(error).toMatchObject({ kind: 'ModelCallError', retryable: true });
  });

  it('fails a stream cut midway (after output) with a non-retryable ModelCallError and no response_done', async () => {
    const body = chunksToSse(ownFixture('text.chunks.txt'), 'chat');
    const cut = body.indexOf('" today"');
    h.server.enqueue({ kind: 'sse', body, chunkBytes: 200, cutAfterBytes: cut });
    const { events, error } = await collectUntilError(h.model.getStreamedResponse(makeRequest()));
    const text = events
      .filter((e) => e.type === 'text_delta')
      .map((e: any) => e.delta)
      .join('');
    expect(text.length).toBeGreaterThan(0);
    expect('Hello! How can I help you today?'.startsWith(text)).toBe(true);
    expect(events.some((e) => e.type === 'response_done')).toBe(false);
    expect(error).toMatchObject({ kind: 'ModelCallError', retryable: false });
    expect(error.message).toContain('not replayed');
  });

  it('fails a stream cut after the headers but before any chunk as retryable', async () => {
    h.server.enqueue({
      kind: 'sse',
      body: chunksToSse(ownFixture('text.chunks.txt'), 'chat'),
      cutAfterBytes: 10,
    });
    const { events, error } = await collectUntilError(h.model.getStreamedResponse(makeRequest()));
    expect(events.filter((e) => e.type !== 'raw' && e.type !== 'response_started')).toEqual([]);
    expect(error).toMatchObject({ kind: 'ModelCallError', retryable: true });
  });

  it('fails a stream that ends cleanly without a finish_reason (no silent truncation)', async () => {
    h.server.enqueue({
      kind: 'sse',
      body: 'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n',
    });
    const { error } = await collectUntilError(h.model.getStreamedResponse(makeRequest()));
    expect(error).toMatchObject({
      kind: 'ModelCallError',
      retryable: false,
      code: 'stream_incomplete',
    });
  });

  it('maps an error payload inside a stream to ModelCallError with the server message', async () => {
    h.server.enqueue({
      kind: 'sse',
      body: 'data: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":"server_error"}}\n\n',
    });
    const { error } = await collectUntilError(h.model.getStreamedResponse(makeRequest()));
    expect(error).toMatchObject({ kind: 'ModelCallError', retryable: true, code: 'server_error' });
    expect(error.message).toContain('The server had an error');
  });

  it('ends with the abort reason when the signal aborts mid-stream', async () => {
    const controller = new AbortController();
    h.server.enqueue({
      kind: 'sse',
      body: chunksToSse(ownFixture('text.chunks.txt'), 'chat'),
      chunkBytes: 64,
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of h.model.getStreamedResponse(
        makeRequest({ signal: controller.signal }),
      )) {
        seen.push(event.type);
        if (event.type === 'text_delta') controller.abort(new Error('user stopped'));
      }
    })().catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('user stopped');
    expect(seen).not.toContain('response_done');
  });

  it('still completes normally when nothing goes wrong (control for the cases above)', async () => {
    h.server.enqueue({
      kind: 'sse',
      body: chunksToSse(ownFixture('text.chunks.txt'), 'chat'),
      chunkBytes: 64,
    });
    const events = await collect(h.model.getStreamedResponse(makeRequest()));
    expect(events.at(-1)?.type).toBe('response_done');
  });
});

describe('retryAfterMsFromHeaders', () => {
  it('reads seconds, milliseconds and HTTP dates, and ignores garbage', () => {
    expect(retryAfterMsFromHeaders(new Headers({ 'retry-after': '1.5' }))).toBe(1500);
    expect(retryAfterMsFromHeaders(new Headers({ 'retry-after-ms': '250.4' }))).toBe(250);
    expect(retryAfterMsFromHeaders({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMsFromHeaders(undefined)).toBeUndefined();
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const fromDate = retryAfterMsFromHeaders(new Headers({ 'retry-after': inTenSeconds }));
    expect(fromDate).toBeGreaterThan(8_000);
    expect(fromDate).toBeLessThanOrEqual(10_000);
    expect(
      retryAfterMsFromHeaders(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' })),
    ).toBe(0);
  });
});
