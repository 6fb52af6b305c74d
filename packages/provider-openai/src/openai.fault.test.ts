/**
 * Fault injection for the OpenAI Responses provider: 429/5xx, SDK retries switched off per
 * request, refused/cut/stalled connections, `data: null` and malformed SSE, an HTML 200 body,
 * items without the fields the kernel needs, hostile indexes. The real `openai` client talks to
 * the fixture server on 127.0.0.1; every failure must be a Baton error with the right advice.
 */
import {
  Agent,
  createProviderRegistry,
  ModelBehaviorError,
  ModelCallError,
  run,
} from '@baton/kernel';
import { type FixtureServer, sseFromEvents, startFixtureServer } from '@baton/testing';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  collect,
  collectUntilError,
  jsonFixture,
  sseFixture,
  testModel,
  thrown,
  userRequest,
} from './__fixtures__/fixtures.js';
import { createOpenAIProvider } from './openai-provider.js';
import { OpenAIResponsesModel } from './openai-responses-model.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

const retry = { maxRetries: 2, backoff: { initialDelayMs: 1, maxDelayMs: 2 } };
const created = {
  type: 'response.created',
  response: { id: 'resp_f', object: 'response', status: 'in_progress', model: 'gpt-x', output: [] },
};
const message = (text: string) => ({
  id: 'msg_f',
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});
const okStream = () =>
  sseFromEvents(
    [
      created,
      {
        type: 'response.completed',
        response: { ...created.response, status: 'completed', output: [message('Fine.')] },
      },
    ],
    'responses',
  );

async function runOnce(stream: boolean) {
  const registry = createProviderRegistry({
    openai: createOpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: 'k' }),
  });
  const agent = new Agent({ name: 'A', instructions: 'Answer.' });
  const options = { modelProvider: registry, model: 'openai:gpt-x', retry };
  if (!stream) return run(agent, 'Hi', options);
  const s = await run(agent, 'Hi', { ...options, stream: true });
  for await (const _ of s) {
    // drain
  }
  await s.completed;
  return s;
}

describe('the SDK never retries behind the kernel', () => {
  it('a client built with maxRetries: 3 still sends one request per call (the kernel alone retries)', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 3 });
    const model = new OpenAIResponsesModel('gpt-x', { client });
    const failing = {
      kind: 'json' as const,
      status: 500,
      body: { error: { message: 'boom', type: 'server_error' } },
    };
    server.enqueue(failing, failing, failing, failing);
    const error = await thrown(() => model.getResponse(userRequest('Hi')));
    expect(error).toMatchObject({ statusCode: 500, retryable: true });
    expect(server.requests).toHaveLength(1);
    const streamed = await collectUntilError(model.getStreamedResponse(userRequest('Hi')));
    expect(streamed.error).toMatchObject({ statusCode: 500 });
    expect(server.requests).toHaveLength(2);
  });
});

describe('HTTP failures', () => {
  it('429 is retryable after retry-after-ms; run() retries and succeeds in both modes', async () => {
    for (const stream of [false, true]) {
      server.requests.length = 0;
      server.enqueue(
        jsonFixture('error-429-rate-limit.json', 429, { 'retry-after-ms': '3' }),
        stream ? { kind: 'sse', body: okStream() } : jsonFixture('text.json'),
      );
      const result = await runOnce(stream);
      expect(result.finalOutput).toBeTruthy();
      expect(server.requests).toHaveLength(2);
    }
    server.enqueue(jsonFixture('error-429-rate-limit.json', 429, { 'retry-after-ms': '3' }));
    const error: any = await thrown(() => testModel(server).getResponse(userRequest('Hi')));
    expect(error).toMatchObject({ statusCode: 429, retryable: true, retryAfterMs: 3 });
    expect(error.message).toContain(`${server.url}/v1/responses`);
  });

  it('a 404 from /responses says which URL and suggests createChatProvider; one period per sentence', async () => {
    server.enqueue({
      kind: 'json',
      status: 404,
      body: { error: { message: 'Not Found /v1/responses', type: 'invalid_request_error' } },
    });
    const error: any = await thrown(() => testModel(server).getResponse(userRequest('Hi')));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(`${server.url}/v1/responses`);
    expect(error.message).toContain('Not Found /v1/responses. Check');
    expect(error.message).toContain('createChatProvider');
    expect(error.message).not.toMatch(/\.\.(?!\.)/);
    server.enqueue({
      kind: 'json',
      status: 403,
      body: { error: { message: 'You do not have access to it.', type: 'invalid_request_error' } },
    });
    const forbidden: any = await thrown(() => testModel(server).getResponse(userRequest('Hi')));
    expect(forbidden.message).toContain('access to it. The key');
    expect(forbidden.message).not.toMatch(/\.\./);
  });

  it('a refused connection names the URL and is retryable', async () => {
    const closed = await startFixtureServer();
    await closed.close();
    const model = new OpenAIResponsesModel('gpt-x', {
      client: new OpenAI({ apiKey: 'k', baseURL: `${closed.url}/v1`, maxRetries: 0 }),
    });
    for (const call of [
      () => model.getResponse(userRequest('Hi')),
      () => collect(model.getStreamedResponse(userRequest('Hi'))),
    ]) {
      const error: any = await thrown(call);
      expect(error).toMatchObject({ retryable: true, code: 'connection_error' });
      expect(error.message).toContain(`${closed.url}/v1/responses`);
    }
  });
});

describe('bodies and events that are not Responses JSON', () => {
  it('an HTML page with status 200 is a ModelCallError (invalid_response) naming the URL, not an empty answer', async () => {
    const html = {
      kind: 'json' as const,
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>Login</title></head></html>',
    };
    server.enqueue(html);
    const error: any = await thrown(() => testModel(server).getResponse(userRequest('Hi')));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_response', retryable: false });
    expect(error.message).toContain('<html>');
    expect(error.message).toContain(`${server.url}/v1/responses`);
    server.enqueue(html);
    await thrown(() => runOnce(false));
    expect(server.requests).toHaveLength(2);
  });

  it('a message without content (non-streamed or streamed) never reaches the transcript: ModelBehaviorError', async () => {
    const bad = {
      id: 'resp_b',
      object: 'response',
      status: 'completed',
      model: 'gpt-x',
      output: [{ id: 'msg_b', type: 'message', role: 'assistant', status: 'completed' }],
    };
    server.enqueue({ kind: 'json', body: bad });
    const error: any = await thrown(() => testModel(server).getResponse(userRequest('Hi')));
    expect(ModelBehaviorError.isInstance(error)).toBe(true);
    expect(error.message).toContain('output item 0 (message)');
    server.enqueue({
      kind: 'sse',
      body: sseFromEvents([created, { type: 'response.completed', response: bad }], 'responses'),
    });
    const streamed = await collectUntilError(
      testModel(server).getStreamedResponse(userRequest('Hi')),
    );
    expect(ModelBehaviorError.isInstance(streamed.error)).toBe(true);
    expect(streamed.events.some((e) => e.type === 'response_done')).toBe(false);
  });

  it('`data: null` before output is a retryable ModelCallError; run() retries and succeeds', async () => {
    const nullEvent = { kind: 'sse' as const, body: 'data: null\n\n' };
    server.enqueue(nullEvent);
    const { events, error } = await collectUntilError(
      testModel(server).getStreamedResponse(userRequest('Hi')),
    );
    expect(events).toEqual([]);
    expect(error).toMatchObject({ retryable: true, code: 'invalid_stream_event' });
    server.enqueue(nullEvent, { kind: 'sse', body: okStream() });
    expect((await runOnce(true)).finalOutput).toBe('Fine.');
  });

  it('a malformed SSE line is a retryable ModelCallError before output, not retryable after', async () => {
    server.enqueue({
      kind: 'sse',
      body: 'event: response.created\ndata: {"type":"response.created",\n\n',
    });
    const before = await collectUntilError(
      testModel(server).getStreamedResponse(userRequest('Hi')),
    );
    expect(before.error).toMatchObject({ retryable: true, code: 'invalid_stream_event' });
    const added = {
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...message(''), status: 'in_progress', content: [] },
    };
    server.enqueue({
      kind: 'sse',
      body: `${sseFromEvents([created, added], 'responses')}data: {oops\n\n`,
    });
    const after = await collectUntilError(testModel(server).getStreamedResponse(userRequest('Hi')));
    expect(after.error).toMatchObject({ retryable: false, code: 'invalid_stream_event' });
  });

  it('output_index "__proto__" and items that are not objects do not touch prototypes and end as Baton errors', async () => {
    const events = [
      created,
      {
        type: 'response.output_item.added',
        output_index: '__proto__',
        item: { ...message(''), status: 'in_progress', content: [] },
      },
      {
        type: 'response.output_text.delta',
        output_index: '__proto__',
        content_index: '__proto__',
        delta: 'Hi',
      },
      { type: 'response.output_item.done', output_index: '__proto__', item: message('Hi') },
      {
        type: 'response.completed',
        response: { ...created.response, status: 'completed', output: [] },
      },
    ];
    server.enqueue({ kind: 'sse', body: sseFromEvents(events, 'responses') });
    const streamed = await collect(testModel(server).getStreamedResponse(userRequest('Hi')));
    expect(streamed.at(-1)).toMatchObject({
      type: 'response_done',
      response: { output: [message('Hi')] },
    });
    expect(Object.getPrototypeOf([])).toBe(Array.prototype);
    server.enqueue({
      kind: 'sse',
      body: sseFromEvents(
        [created, { type: 'response.output_item.added', output_index: 0, item: null }],
        'responses',
      ),
    });
    const bad = await collectUntilError(testModel(server).getStreamedResponse(userRequest('Hi')));
    expect(bad.error).toMatchObject({ code: 'invalid_stream_event', retryable: true });
  });
});

describe('streams that break', () => {
  it('a cut before output is retried by run(); a cut after output is not replayed', async () => {
    const body = sseFixture('text.chunks.txt');
    server.enqueue({ ...body, cutAfterBytes: 30 } as never, { kind: 'sse', body: okStream() });
    expect((await runOnce(true)).finalOutput).toBe('Fine.');
    expect(server.requests).toHaveLength(2);
    server.requests.length = 0;
    const text = (body as { body: string }).body;
    const cut = text.indexOf('response.output_text.delta') + 200;
    server.enqueue({ ...body, cutAfterBytes: cut } as never);
    const error: any = await thrown(() => runOnce(true));
    expect(error).toMatchObject({ retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('a stalled stream ends with the abort reason when the caller aborts', async () => {
    const body = (sseFixture('text.chunks.txt') as { body: string }).body;
    server.enqueue({
      kind: 'sse',
      body,
      stallAfterBytes: body.indexOf('response.output_text.delta') + 300,
    });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 150);
    const { events, error } = await collectUntilError(
      testModel(server).getStreamedResponse(userRequest('Hi', { signal: controller.signal })),
    );
    expect(events.some((e) => e.type === 'text_delta')).toBe(true);
    expect(error).toBe(reason);
  });
});
