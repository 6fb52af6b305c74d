/**
 * Fault injection for the Anthropic provider: 429/5xx, refused/cut/stalled connections, `data:
 * null` and malformed SSE, an HTML 200 body, a body without `content`, an error body sent with
 * status 200, hostile block indexes, `data:` URLs that do not decode. The real
 * `@anthropic-ai/sdk` client talks to the fixture server on 127.0.0.1; every failure must be a
 * Baton error with the right retry advice.
 */
import Anthropic from '@anthropic-ai/sdk';
import {
  Agent,
  MemorySession,
  ModelBehaviorError,
  ModelCallError,
  run,
  tool,
  UserError,
} from '@baton/kernel';
import { sseFromEvents, startFixtureServer } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { collect, ownFixture, request, useHarness } from './__fixtures__/harness.js';
import { AnthropicMessagesModel } from './anthropic-messages-model.js';
import { convertToAnthropicInput } from './convert-to-anthropic-input.js';

const h = useHarness();
const retry = { maxRetries: 2, backoff: { initialDelayMs: 1, maxDelayMs: 2 } };

async function thrown(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

const start = {
  type: 'message_start',
  message: {
    id: 'msg_f',
    type: 'message',
    role: 'assistant',
    model: 'claude-x',
    content: [],
    stop_reason: null,
    usage: { input_tokens: 5, output_tokens: 1 },
  },
};
const okStream = () =>
  sseFromEvents(
    [
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Fine.' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
      { type: 'message_stop' },
    ],
    'anthropic',
  );

async function runOnce(stream: boolean) {
  const agent = new Agent({ name: 'A', instructions: 'Answer.' });
  if (!stream) return run(agent, 'Hi', { model: h.model(), retry });
  const s = await run(agent, 'Hi', { model: h.model(), retry, stream: true });
  for await (const _ of s) {
    // drain
  }
  await s.completed;
  return s;
}

describe('HTTP failures', () => {
  it('429 and 529 are retryable (run() retries in both modes); 400 is not and is sent once', async () => {
    for (const stream of [false, true]) {
      h.server.requests.length = 0;
      h.server.enqueue(
        {
          kind: 'json',
          status: 429,
          headers: { 'retry-after-ms': '2' },
          body: ownFixture('rate-limit-429.json'),
        },
        { kind: 'json', status: 529, body: ownFixture('overloaded-529.json') },
        stream
          ? { kind: 'sse', body: okStream() }
          : { kind: 'json', body: ownFixture('text.json') },
      );
      expect((await runOnce(stream)).finalOutput).toBeTruthy();
      expect(h.server.requests).toHaveLength(3);
    }
    h.server.requests.length = 0;
    h.server.enqueue({
      kind: 'json',
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'messages: field required.' },
      },
    });
    const error = await thrown(runOnce(false));
    expect(error).toMatchObject({ statusCode: 400, retryable: false });
    expect(error.message).toContain('messages: field required. Fix the request');
    expect(error.message).not.toMatch(/\.\./);
    expect(h.server.requests).toHaveLength(1);
  });

  it('a refused connection names the URL and is retryable', async () => {
    const closed = await startFixtureServer();
    await closed.close();
    const model = new AnthropicMessagesModel('claude-x', {
      client: new Anthropic({ apiKey: 'k', baseURL: closed.url, maxRetries: 0 }),
    });
    for (const call of [
      () => model.getResponse(request('hi')),
      () => collect(model.getStreamedResponse(request('hi'))),
    ]) {
      const error = await thrown(call());
      expect(error).toMatchObject({ retryable: true, code: 'connection_error' });
      expect(error.message).toContain(`${closed.url}/v1/messages`);
    }
  });
});

describe('bodies that are not Anthropic messages', () => {
  it('an HTML page with status 200 is a ModelCallError naming the URL and baseURL', async () => {
    h.server.enqueue({
      kind: 'json',
      headers: { 'content-type': 'text/html' },
      body: '<!doctype html><title>Gateway</title>',
    });
    const error = await thrown(h.model().getResponse(request('hi')));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_response', retryable: false });
    expect(error.message).toContain('<!doctype html>');
    expect(error.message).toContain(`${h.server.url}/v1/messages`);
  });

  it('a JSON content type with a body that is not JSON is a ModelCallError, not a raw SyntaxError', async () => {
    h.server.enqueue({ kind: 'json', body: '{"id": "msg_1", "content": [' });
    const error = await thrown(h.model().getResponse(request('hi')));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error.code).toBe('invalid_response');
  });

  it('a message without content, or with a block that is not an object, is a ModelCallError', async () => {
    h.server.enqueue({
      kind: 'json',
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        stop_reason: 'end_turn',
        usage: {},
      },
    });
    const error = await thrown(h.model().getResponse(request('hi')));
    expect(error).toMatchObject({ code: 'invalid_response' });
    expect(error.message).toContain('no content list');
    h.server.enqueue({
      kind: 'json',
      body: { id: 'msg_1', type: 'message', role: 'assistant', content: [null], usage: {} },
    });
    expect(await thrown(h.model().getResponse(request('hi')))).toMatchObject({
      code: 'invalid_response',
    });
  });

  it('an error body sent with status 200 is the ModelCallError of its type (overloaded → retryable 529)', async () => {
    const overloaded = {
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      request_id: 'req_200',
    };
    h.server.enqueue({ kind: 'json', body: overloaded });
    expect(await thrown(h.model().getResponse(request('hi')))).toMatchObject({
      statusCode: 529,
      retryable: true,
      code: 'overloaded_error',
    });
    h.server.enqueue(
      { kind: 'json', body: overloaded },
      { kind: 'json', body: ownFixture('text.json') },
    );
    expect((await runOnce(false)).finalOutput).toBeTruthy();
  });

  it('a tool_use block without an id is a ModelBehaviorError, not a call with id "undefined"', async () => {
    h.server.enqueue({
      kind: 'json',
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'tool_use', name: 'get_weather', input: {} }],
        stop_reason: 'tool_use',
        usage: {},
      },
    });
    expect(ModelBehaviorError.isInstance(await thrown(h.model().getResponse(request('hi'))))).toBe(
      true,
    );
  });
});

describe('streams', () => {
  it('tool input deltas that are not valid JSON (no max_tokens) reach the kernel as they came, not as {}', async () => {
    const truncated = (id: string) =>
      sseFromEvents(
        [
          start,
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id, name: 'lookup', input: {} },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '{"city": "Par' },
          },
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use' },
            usage: { output_tokens: 4 },
          },
          { type: 'message_stop' },
        ],
        'anthropic',
      );
    h.server.enqueue({ kind: 'sse', body: truncated('toolu_a') });
    const events = await collect(h.model().getStreamedResponse(request('go')));
    const done = events.at(-1) as { type: string; response: { output: unknown[] } };
    expect(done.response.output).toEqual([
      {
        type: 'function_call',
        call_id: 'toolu_a',
        name: 'lookup',
        arguments: '{"city": "Par',
        status: 'completed',
      },
    ]);
    const streamed = events
      .filter((e) => e.type === 'function_call_arguments_delta')
      .map((e) => (e as { delta: string }).delta)
      .join('');
    expect(streamed).toBe('{"city": "Par');

    // Through a streamed run() (only streams carry input deltas): a tool whose parameters are
    // all optional must not run with {}; the model is told its arguments are invalid JSON.
    {
      const calls: unknown[] = [];
      const lookup = tool({
        name: 'lookup',
        description: 'Looks a city up.',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        strict: false,
        execute: (args) => {
          calls.push(args);
          return 'found';
        },
      });
      h.server.enqueue(
        { kind: 'sse', body: truncated('toolu_b') },
        { kind: 'sse', body: okStream() },
      );
      const session = new MemorySession();
      const agent = new Agent({ name: 'A', tools: [lookup] });
      const s = await run(agent, 'go', { model: h.model(), session, stream: true });
      for await (const _ of s) {
        // drain
      }
      await s.completed;
      expect(calls).toEqual([]);
      const output = (await session.getItems()).find((i) => i.type === 'function_call_output');
      expect((output as { output: string }).output).toMatch(
        /Invalid JSON arguments for tool "lookup"/,
      );
    }
  });

  it('`data: null` before output is a retryable ModelCallError; run() retries and succeeds', async () => {
    const nullEvent = { kind: 'sse' as const, body: 'event: message_start\ndata: null\n\n' };
    h.server.enqueue(nullEvent);
    const error = await thrown(collect(h.model().getStreamedResponse(request('hi'))));
    expect(error).toMatchObject({ retryable: true, code: 'invalid_stream_event' });
    h.server.enqueue(nullEvent, { kind: 'sse', body: okStream() });
    expect((await runOnce(true)).finalOutput).toBe('Fine.');
  });

  it('a malformed SSE line is a ModelCallError: retryable before output, not after', async () => {
    h.server.enqueue({
      kind: 'sse',
      body: 'event: message_start\ndata: {"type":"message_start",\n\n',
    });
    expect(await thrown(collect(h.model().getStreamedResponse(request('hi'))))).toMatchObject({
      retryable: true,
      code: 'invalid_stream_event',
    });
    const partial = sseFromEvents(
      [
        start,
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Hel' } },
      ],
      'anthropic',
    );
    h.server.enqueue({
      kind: 'sse',
      body: `${partial}event: content_block_delta\ndata: {oops\n\n`,
    });
    expect(await thrown(collect(h.model().getStreamedResponse(request('hi'))))).toMatchObject({
      retryable: false,
      code: 'invalid_stream_event',
    });
  });

  it('a delta for a block that never started is an invalid stream, not a silently lost delta', async () => {
    for (const index of [0, 3, '__proto__', undefined]) {
      h.server.enqueue({
        kind: 'sse',
        body: sseFromEvents(
          [
            start,
            { type: 'content_block_delta', index, delta: { type: 'text_delta', text: 'lost?' } },
            { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
            { type: 'content_block_stop', index: 0 },
            {
              type: 'message_delta',
              delta: { stop_reason: 'end_turn' },
              usage: { output_tokens: 2 },
            },
            { type: 'message_stop' },
          ],
          'anthropic',
        ),
      });
      const error = await thrown(collect(h.model().getStreamedResponse(request('hi'))));
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'invalid_stream_event', retryable: true });
      expect(error.message).toMatch(
        /content_block_delta for index .* before any content_block_start/,
      );
    }
  });

  it('a block index "__proto__" is an invalid stream, and no prototype is touched', async () => {
    h.server.enqueue({
      kind: 'sse',
      body: sseFromEvents(
        [
          start,
          {
            type: 'content_block_start',
            index: '__proto__',
            content_block: { type: 'text', text: 'x' },
          },
          { type: 'message_stop' },
        ],
        'anthropic',
      ),
    });
    expect(await thrown(collect(h.model().getStreamedResponse(request('hi'))))).toMatchObject({
      code: 'invalid_stream_event',
    });
    expect(Object.getPrototypeOf([])).toBe(Array.prototype);
  });

  it('a cut after output is not retryable and run() does not replay it; a cut before output is retried', async () => {
    const body = ownFixture('tool-use-stream.sse');
    h.server.enqueue({
      kind: 'sse',
      body,
      cutAfterBytes: body.indexOf('event: content_block_delta') + 40,
    });
    expect(await thrown(runOnce(true))).toMatchObject({ retryable: false });
    expect(h.server.requests).toHaveLength(1);
    h.server.requests.length = 0;
    h.server.enqueue({ kind: 'sse', body, cutAfterBytes: 30 }, { kind: 'sse', body: okStream() });
    expect((await runOnce(true)).finalOutput).toBe('Fine.');
    expect(h.server.requests).toHaveLength(2);
  });

  it('a stalled stream ends with the abort reason when the caller aborts', async () => {
    const body = okStream();
    h.server.enqueue({
      kind: 'sse',
      body,
      stallAfterBytes: body.indexOf('event: content_block_stop'),
    });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 150);
    const seen: string[] = [];
    const error = await thrown(
      (async () => {
        for await (const e of h
          .model()
          .getStreamedResponse(request('hi', { signal: controller.signal })))
          seen.push(e.type);
      })(),
    );
    expect(seen).toContain('text_delta');
    expect(error).toBe(reason);
  });
});

describe('data: URLs that do not decode', () => {
  const file = (file_data: string) => [
    {
      type: 'message' as const,
      role: 'user' as const,
      content: [{ type: 'input_file' as const, file_data, filename: 'f.txt' }],
    },
  ];
  it('bad base64 or bad %-escapes are a UserError naming the file, not DOMException / URIError', () => {
    for (const data of [
      'data:text/plain;base64,@@@@',
      'data:text/plain,100%',
      'data:text/plain,%E0%A4%A',
      'data:application/pdf;base64,a',
    ]) {
      let error: unknown;
      try {
        convertToAnthropicInput(file(data));
      } catch (e) {
        error = e;
      }
      expect(UserError.isInstance(error), data).toBe(true);
      expect((error as Error).message).toContain('"f.txt"');
    }
    const image = [
      {
        type: 'message' as const,
        role: 'user' as const,
        content: [{ type: 'input_image' as const, image_url: 'data:image/png;base64,not base64!' }],
      },
    ];
    expect(() => convertToAnthropicInput(image)).toThrow(/not valid base64/);
  });

  it('good ones decode: %-encoded text, base64 text, %-encoded PDF bytes become base64', () => {
    const { messages } = convertToAnthropicInput([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_file', file_data: 'data:text/plain,h%C3%A9llo%20world' },
          { type: 'input_file', file_data: 'data:text/plain;base64,aMOpbGxv' },
          { type: 'input_file', file_data: 'data:application/pdf,%25PDF-1.4' },
        ],
      },
    ]);
    expect(messages[0].content).toEqual([
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'héllo world' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'héllo' } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: btoa('%PDF-1.4') },
      },
    ]);
  });
});
