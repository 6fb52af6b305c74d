/**
 * Fault injection for the Chat Completions provider: HTTP 429/5xx, connections refused or cut,
 * stalled streams, `data: null` and malformed SSE events, HTML bodies, hostile indexes. The real
 * `openai` client talks to the fixture server on 127.0.0.1; every failure must be a Baton error
 * with the right retry advice, and `run()` must retry exactly the failures a retry can fix.
 */
import { Agent, createProviderRegistry, ModelCallError, run, tool } from '@baton/kernel';
import { type FixtureServer, sseFromEvents, startFixtureServer } from '@baton/testing';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, collectUntilError, makeRequest, ownJson } from './__fixtures__/harness.js';
import { chunk } from './__fixtures__/quirk-streams.js';
import { ChatCompletionsModel } from './chat-completions-model.js';
import { createChatProvider } from './chat-provider.js';

let server: FixtureServer;
let model: ChatCompletionsModel;
beforeEach(async () => {
  server = await startFixtureServer();
  model = new ChatCompletionsModel({
    client: new OpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    modelId: 'm',
    providerId: 'vllm',
  });
});
afterEach(async () => {
  await server.close();
});

const textStream = sseFromEvents(
  [
    chunk('c-ok', 'm', { role: 'assistant', content: 'Fine.' }),
    chunk('c-ok', 'm', {}, { finish: 'stop' }),
  ],
  'chat',
);
const retry = { maxRetries: 2, backoff: { initialDelayMs: 1, maxDelayMs: 2 } };

async function runOnce(stream: boolean) {
  const registry = createProviderRegistry({
    vllm: createChatProvider({ name: 'vllm', baseURL: server.url, apiKey: 'k' }),
  });
  const agent = new Agent({ name: 'A', instructions: 'Answer.' });
  if (!stream) return run(agent, 'Hi', { modelProvider: registry, model: 'vllm:m', retry });
  const s = await run(agent, 'Hi', {
    modelProvider: registry,
    model: 'vllm:m',
    retry,
    stream: true,
  });
  for await (const _ of s) {
    // drain
  }
  await s.completed;
  return s;
}

async function thrown(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('HTTP failures', () => {
  it('429 with retry-after-ms is retryable after the advised delay; run() retries once and succeeds', async () => {
    const rateLimited = {
      kind: 'json' as const,
      status: 429,
      headers: { 'retry-after-ms': '5' },
      body: ownJson('rate-limit-error.json'),
    };
    server.enqueue(rateLimited);
    const error = await thrown(model.getResponse(makeRequest()));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 429, retryable: true, retryAfterMs: 5 });
    expect(model.getRetryAdvice(error, 1)).toEqual({ retry: true, delayMs: 5 });
    expect(error.message).toContain(`${server.url}/chat/completions`);
    for (const stream of [false, true]) {
      server.requests.length = 0;
      server.enqueue(
        rateLimited,
        stream ? { kind: 'sse', body: textStream } : { kind: 'json', body: ownJson('text.json') },
      );
      const result = await runOnce(stream);
      expect(result.finalOutput).toBeTruthy();
      expect(server.requests).toHaveLength(2);
    }
  });

  it('503 is retryable; 400 is not, and run() sends it once', async () => {
    server.enqueue({
      kind: 'json',
      status: 503,
      body: { error: { message: 'busy', type: 'server_error' } },
    });
    expect(await thrown(model.getResponse(makeRequest()))).toMatchObject({
      statusCode: 503,
      retryable: true,
    });
    server.enqueue({ kind: 'json', status: 400, body: ownJson('bad-request-error.json') });
    const error = await thrown(runOnce(false));
    expect(error).toMatchObject({ statusCode: 400, retryable: false });
    expect(server.requests).toHaveLength(2);
  });

  it('messages end each sentence with one period (the server message already has one)', async () => {
    server.enqueue({
      kind: 'json',
      status: 403,
      body: { error: { message: 'You do not have access to it.', type: 'invalid_request_error' } },
    });
    const error = await thrown(model.getResponse(makeRequest()));
    expect(error.message).toContain('You do not have access to it. The key has no access');
    expect(error.message).not.toMatch(/\.\./);
  });

  it('a refused connection names the URL and is retryable', async () => {
    const closed = await startFixtureServer();
    const url = closed.url;
    await closed.close();
    const offline = new ChatCompletionsModel({
      client: new OpenAI({ apiKey: 'k', baseURL: url, maxRetries: 0 }),
      modelId: 'm',
    });
    for (const call of [
      () => offline.getResponse(makeRequest()),
      () => collect(offline.getStreamedResponse(makeRequest())),
    ]) {
      const error = await thrown(call());
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ retryable: true, code: 'connection_error' });
      expect(error.message).toContain(`${url}/chat/completions`);
    }
  });
});

describe('bodies that are not Chat Completions JSON', () => {
  it('an HTML page with status 200 is a ModelCallError naming the URL and baseURL, not retried', async () => {
    const html = {
      kind: 'json' as const,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<!DOCTYPE html><html><body>Sign in to the proxy</body></html>',
    };
    server.enqueue(html);
    const error = await thrown(model.getResponse(makeRequest()));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: false, code: 'invalid_response' });
    expect(error.message).toContain('<!DOCTYPE html>');
    expect(error.message).toContain('baseURL');
    server.enqueue(html);
    await thrown(runOnce(false));
    expect(server.requests).toHaveLength(2);
  });

  it('a JSON content type with a body that is not JSON is a ModelCallError, not a raw SyntaxError', async () => {
    server.enqueue({ kind: 'json', body: '{"id": "c", "choices": [' });
    const error = await thrown(model.getResponse(makeRequest()));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_response', retryable: false });
  });

  it('`data: null` before any output is a retryable ModelCallError; run() retries and succeeds', async () => {
    const nullEvent = { kind: 'sse' as const, body: 'data: null\n\ndata: [DONE]\n\n' };
    server.enqueue(nullEvent);
    const { events, error } = await collectUntilError(model.getStreamedResponse(makeRequest()));
    expect(events).toEqual([]);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, code: 'invalid_stream_event' });
    server.enqueue(nullEvent, { kind: 'sse', body: textStream });
    expect((await runOnce(true)).finalOutput).toBe('Fine.');
  });

  it('`data: null` after output started is not retryable', async () => {
    const body = `data: ${JSON.stringify(chunk('c', 'm', { content: 'Hel' }))}\n\ndata: null\n\n`;
    server.enqueue({ kind: 'sse', body });
    const { events, error } = await collectUntilError(model.getStreamedResponse(makeRequest()));
    expect(events.some((e) => e.type === 'text_delta')).toBe(true);
    expect(error).toMatchObject({ retryable: false, code: 'invalid_stream_event' });
  });

  it('a malformed SSE line (not JSON) is a retryable ModelCallError, not a raw SyntaxError', async () => {
    const broken = {
      kind: 'sse' as const,
      body: 'data: {"id":"c","choices":[{"index":0,"delta":{"content":"x"\n\n',
    };
    server.enqueue(broken);
    const { error } = await collectUntilError(model.getStreamedResponse(makeRequest()));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, code: 'invalid_stream_event' });
    expect(error.message).toContain(`${server.url}/chat/completions`);
    server.enqueue(broken, { kind: 'sse', body: textStream });
    expect((await runOnce(true)).finalOutput).toBe('Fine.');
    expect(server.requests).toHaveLength(3);
  });

  it('a "__proto__" tool-call index or choice fields of the wrong type do not touch prototypes', async () => {
    const body = sseFromEvents(
      [
        { id: 'c', model: 'm', choices: 'nope' },
        chunk('c', 'm', {
          tool_calls: [
            {
              index: '__proto__',
              id: 'call_x',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
            null,
            7,
          ],
        }),
        chunk('c', 'm', { tool_calls: { index: 0 } }),
        chunk('c', 'm', {}, { finish: 'tool_calls' }),
      ],
      'chat',
    );
    server.enqueue({ kind: 'sse', body });
    const events = await collect(model.getStreamedResponse(makeRequest()));
    const done = events.at(-1) as any;
    expect(done.response.output).toEqual([
      {
        type: 'function_call',
        call_id: 'call_x',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      },
    ]);
    expect(Object.getPrototypeOf([])).toBe(Array.prototype);
    expect(({} as any).call_x).toBeUndefined();
  });
});

describe('streams that break', () => {
  it('a cut before any output is retryable (run() retries); a cut after output is not replayed', async () => {
    const long = sseFromEvents(
      [
        chunk('c', 'm', { content: 'Hello there, this is a long answer' }),
        chunk('c', 'm', { content: ' and more' }),
        chunk('c', 'm', {}, { finish: 'stop' }),
      ],
      'chat',
    );
    server.enqueue(
      { kind: 'sse', body: long, cutAfterBytes: 20 },
      { kind: 'sse', body: textStream },
    );
    expect((await runOnce(true)).finalOutput).toBe('Fine.');
    expect(server.requests).toHaveLength(2);

    server.requests.length = 0;
    const firstEvent = long.indexOf('\n\n') + 2;
    server.enqueue({ kind: 'sse', body: long, cutAfterBytes: firstEvent + 5 });
    const error = await thrown(runOnce(true));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('a stalled stream ends with the abort reason when the caller aborts, and the connection is released', async () => {
    const body = sseFromEvents(
      [chunk('c', 'm', { content: 'Hel' }), chunk('c', 'm', {}, { finish: 'stop' })],
      'chat',
    );
    server.enqueue({ kind: 'sse', body, stallAfterBytes: body.indexOf('\n\n') + 2 });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const started = Date.now();
    setTimeout(() => controller.abort(reason), 150);
    const { events, error } = await collectUntilError(
      model.getStreamedResponse(makeRequest({ signal: controller.signal })),
    );
    expect(events.some((e) => e.type === 'text_delta')).toBe(true);
    expect(error).toBe(reason);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a stream that ends without finish_reason before output is retryable', async () => {
    server.enqueue({ kind: 'sse', body: 'data: [DONE]\n\n' });
    const { error } = await collectUntilError(model.getStreamedResponse(makeRequest()));
    expect(error).toMatchObject({ retryable: true, code: 'stream_incomplete' });
  });
});

describe('tool loop through a fault', () => {
  it('a 500 on the second model call of a tool loop is retried without re-running the tool', async () => {
    let calls = 0;
    const agent = new Agent({
      name: 'W',
      instructions: 'Use the tool.',
      tools: [
        tool({
          name: 'get_weather',
          description: 'w',
          parameters: z.object({ city: z.string() }),
          execute: () => `${++calls}`,
        }),
      ],
    });
    server.enqueue(
      { kind: 'json', body: ownJson('tool-call.json') },
      { kind: 'json', status: 500, body: { error: { message: 'oops', type: 'server_error' } } },
      { kind: 'json', body: ownJson('tool-loop-answer.json') },
    );
    const registry = createProviderRegistry({
      vllm: createChatProvider({ name: 'vllm', baseURL: server.url, apiKey: 'k' }),
    });
    const result = await run(agent, 'Weather?', {
      modelProvider: registry,
      model: 'vllm:m',
      retry,
    });
    expect(result.finalOutput).toBe('It is 18°C and sunny in Paris.');
    expect(calls).toBe(1);
    expect(server.requests).toHaveLength(3);
  });
});
