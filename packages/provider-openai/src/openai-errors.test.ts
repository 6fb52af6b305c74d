import { ModelCallError } from '@baton/kernel';
import { type FixtureServer, startFixtureServer } from '@baton/testing';
import { RateLimitError } from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collect, jsonFixture, testModel, thrown, userRequest } from './__fixtures__/fixtures.js';
import { getOpenAIRetryAdvice, isRetryableStatus, parseRetryAfterMs } from './openai-errors.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

describe('HTTP errors', () => {
  it('429 with retry-after: retryable ModelCallError with retryAfterMs and matching advice; the retry succeeds', async () => {
    server.enqueue(
      jsonFixture('error-429-rate-limit.json', 429, { 'retry-after': '2' }),
      jsonFixture('text.json'),
    );
    const model = testModel(server);
    const request = userRequest('Weather?');
    const error = await thrown(() => model.getResponse(request));
    expect(ModelCallError.isInstance(error)).toBe(true);
    const e = error as ModelCallError;
    expect(e).toMatchObject({
      statusCode: 429,
      retryable: true,
      retryAfterMs: 2000,
      code: 'rate_limit_exceeded',
    });
    expect(e.message).toContain('Rate limit reached for gpt-4.1');
    expect(model.getRetryAdvice(e, 1)).toEqual({ retry: true, delayMs: 2000, replaySafe: true });
    expect(server.requests).toHaveLength(1);
    const response = await model.getResponse(request);
    expect(response.responseId).toBe('resp_0b1e7f3c2a9d4e5f00691a0c1d2e3f4a5b6c7d8e9f0a1b2c3d');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].rawBody).toBe(server.requests[0].rawBody);
  });

  it('429 on a streamed call fails before any event, with retryAfterMs from retry-after-ms', async () => {
    server.enqueue(
      jsonFixture('error-429-rate-limit.json', 429, {
        'retry-after-ms': '1250',
        'retry-after': '9',
      }),
    );
    const error = await thrown(() =>
      collect(testModel(server).getStreamedResponse(userRequest('x'))),
    );
    expect(error).toMatchObject({ statusCode: 429, retryable: true, retryAfterMs: 1250 });
  });

  it('400 is not retryable, names the parameter, and the client sent exactly one request', async () => {
    server.enqueue(jsonFixture('error-400.json', 400));
    const model = testModel(server);
    const error = await thrown(() => model.getResponse(userRequest('x')));
    expect(error).toMatchObject({ statusCode: 400, retryable: false, code: 'invalid_type' });
    expect((error as Error).message).toContain('parameter "input[0].content"');
    expect(model.getRetryAdvice(error, 1)).toEqual({ retry: false, replaySafe: true });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [401, false],
    [403, false],
    [404, false],
    [422, false],
    [408, true],
    [409, true],
    [500, true],
    [503, true],
  ])('HTTP %i → retryable %s', async (status, retryable) => {
    server.enqueue({
      kind: 'json',
      status,
      body: { error: { message: `status ${status}`, type: 'x', param: null, code: null } },
    });
    const error = await thrown(() => testModel(server).getResponse(userRequest('x')));
    expect(error).toMatchObject({ statusCode: status, retryable });
    expect(server.requests).toHaveLength(1);
  });

  it('obeys x-should-retry over the status rule', async () => {
    server.enqueue(
      {
        kind: 'json',
        status: 500,
        headers: { 'x-should-retry': 'false' },
        body: { error: { message: 'no', type: 'server_error', param: null, code: null } },
      },
      {
        kind: 'json',
        status: 400,
        headers: { 'x-should-retry': 'true' },
        body: { error: { message: 'yes', type: 'invalid_request_error', param: null, code: null } },
      },
    );
    const model = testModel(server);
    expect(await thrown(() => model.getResponse(userRequest('x')))).toMatchObject({
      statusCode: 500,
      retryable: false,
    });
    expect(await thrown(() => model.getResponse(userRequest('x')))).toMatchObject({
      statusCode: 400,
      retryable: true,
    });
  });

  it('a connection reset before any response is a retryable ModelCallError', async () => {
    server.enqueue({ kind: 'reset' });
    const error = await thrown(() => testModel(server).getResponse(userRequest('x')));
    expect(error).toMatchObject({
      retryable: true,
      code: 'connection_error',
      statusCode: undefined,
    });
  });

  it('a refused connection on a streamed call is a retryable ModelCallError', async () => {
    const url = server.url;
    await server.close();
    server = await startFixtureServer();
    const dead = { ...server, url } as FixtureServer;
    const error = await thrown(() =>
      collect(testModel(dead).getStreamedResponse(userRequest('x'))),
    );
    expect(error).toMatchObject({ retryable: true, code: 'connection_error' });
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after': '3' }, 3000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after-ms': '250.5' }, 250.5],
    [{ 'Retry-After': 'Thu, 01 Jan 2026 00:00:07 GMT' }, 7000],
    [{ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, 0],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after-ms': 'x', 'retry-after': '1' }, 1000],
    [{}, undefined],
  ])('%o → %s ms', (headers, expected) => {
    expect(parseRetryAfterMs(headers as Record<string, string>, now)).toBe(expected);
    expect(parseRetryAfterMs(new Headers(headers as Record<string, string>), now)).toBe(expected);
  });
});

describe('retry advice', () => {
  it('converts a raw openai RateLimitError and leaves unknown errors to the default rule', () => {
    const raw = new RateLimitError(
      429,
      { message: 'slow down', code: 'rate_limit_exceeded' },
      undefined,
      new Headers({ 'retry-after': '1' }),
    );
    expect(getOpenAIRetryAdvice(raw, 1)).toEqual({ retry: true, delayMs: 1000, replaySafe: true });
    expect(getOpenAIRetryAdvice(new Error('boom'), 1)).toBeUndefined();
  });

  it('never retries insufficient_quota, even though it arrives as HTTP 429', () => {
    expect(isRetryableStatus(429, 'insufficient_quota')).toBe(false);
    expect(isRetryableStatus(429, 'rate_limit_exceeded')).toBe(true);
  });
});
