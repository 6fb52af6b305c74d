/**
 * Full tool loops through the kernel's `run()`, with `model: 'chat:some-model'` resolved by
 * `createProviderRegistry({ chat: createChatProvider(...) })`, against the fixture server.
 */
import { Agent, createProviderRegistry, type ModelProvider, run, tool } from '@baton/kernel';
import { chunksToSse, type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ownFixture, ownJson } from './__fixtures__/harness.js';
import { createChatProvider } from './chat-provider.js';

let server: FixtureServer;
let registry: ModelProvider;
let weatherCalls: string[];

beforeEach(async () => {
  server = await startFixtureServer();
  registry = createProviderRegistry({
    chat: createChatProvider({ baseURL: server.url, apiKey: 'sk-test-dummy' }),
  });
  weatherCalls = [];
});
afterEach(async () => {
  await server.close();
});

function weatherAgent() {
  const getWeather = tool({
    name: 'get_weather',
    description: 'Current weather for a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      weatherCalls.push(city);
      return city === 'Paris' ? '18C, sunny' : '22C, cloudy';
    },
  });
  return new Agent({
    name: 'Weather',
    instructions: 'Answer weather questions with the tool.',
    tools: [getWeather],
  });
}

describe("run() with model 'chat:some-model'", () => {
  it('runs a full tool loop: call → tool output as a tool message → final answer', async () => {
    server.enqueue(
      { kind: 'json', body: ownJson('tool-call.json') },
      { kind: 'json', body: ownJson('tool-loop-answer.json') },
    );
    const result = await run(weatherAgent(), 'Weather in Paris?', {
      modelProvider: registry,
      model: 'chat:some-model',
    });
    expect(result.finalOutput).toBe('It is 18°C and sunny in Paris.');
    expect(weatherCalls).toEqual(['Paris']);
    expect(result.newItems.map((i) => i.type)).toEqual([
      'tool_call_item',
      'tool_call_output_item',
      'message_output_item',
    ]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0].body.model).toBe('some-model');
    expect(server.requests[0].body.tools[0].function).toMatchObject({
      name: 'get_weather',
      strict: true,
    });
    expect(server.requests[1].body.messages).toEqual([
      { role: 'system', content: 'Answer weather questions with the tool.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_Jx8pQ2mWv7LrT4nB9cYe1KdZ',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_Jx8pQ2mWv7LrT4nB9cYe1KdZ', content: '18C, sunny' },
    ]);
    expect(result.usage).toMatchObject({
      requests: 2,
      inputTokens: 62 + 98,
      outputTokens: 15 + 12,
    });
  });

  it('retries after a 429 with retry-after-ms: the retry is a second identical request and no item is duplicated', async () => {
    server.enqueue(
      {
        kind: 'json',
        status: 429,
        headers: { 'retry-after-ms': '20' },
        body: ownJson('rate-limit-error.json'),
      },
      { kind: 'json', body: ownJson('tool-call.json') },
      { kind: 'json', body: ownJson('tool-loop-answer.json') },
    );
    const result = await run(weatherAgent(), 'Weather in Paris?', {
      modelProvider: registry,
      model: 'chat:some-model',
    });
    expect(result.finalOutput).toBe('It is 18°C and sunny in Paris.');
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1].body).toEqual(server.requests[0].body);
    expect(result.newItems.map((i) => i.type)).toEqual([
      'tool_call_item',
      'tool_call_output_item',
      'message_output_item',
    ]);
    expect(weatherCalls).toEqual(['Paris']);
    expect(result.usage.requests).toBe(2);
  });

  it('does not retry a 400: the run fails with a non-retryable ModelCallError after one request', async () => {
    server.enqueue({ kind: 'json', status: 400, body: ownJson('bad-request-error.json') });
    const error = await run(weatherAgent(), 'Weather?', {
      modelProvider: registry,
      model: 'chat:some-model',
    }).catch((e) => e);
    expect(error).toMatchObject({ kind: 'ModelCallError', statusCode: 400, retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('streams a run with parallel tool calls: both run once, their outputs follow one assistant message', async () => {
    server.enqueue(
      {
        kind: 'sse',
        body: chunksToSse(ownFixture('parallel-tool-calls.chunks.txt'), 'chat'),
        chunkBytes: 211,
      },
      { kind: 'sse', body: chunksToSse(ownFixture('text.chunks.txt'), 'chat') },
    );
    const streamed = await run(weatherAgent(), 'Paris and Tokyo?', {
      modelProvider: registry,
      model: 'chat:some-model',
      stream: true,
    });
    let text = '';
    for await (const t of streamed.toTextStream()) text += t;
    expect(text).toBe('Hello! How can I help you today?');
    expect(streamed.finalOutput).toBe('Hello! How can I help you today?');
    expect([...weatherCalls].sort()).toEqual(['Paris', 'Tokyo']);
    const second = server.requests[1].body;
    expect(second.stream_options).toEqual({ include_usage: true });
    expect(second.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_A1b2C3d4E5f6G7h8I9j0K1l2',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          {
            id: 'call_M3n4O5p6Q7r8S9t0U1v2W3x4',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_A1b2C3d4E5f6G7h8I9j0K1l2', content: '18C, sunny' },
      { role: 'tool', tool_call_id: 'call_M3n4O5p6Q7r8S9t0U1v2W3x4', content: '22C, cloudy' },
    ]);
  });

  it('does not replay a stream cut after output started', async () => {
    const body = chunksToSse(ownFixture('text.chunks.txt'), 'chat');
    server.enqueue(
      { kind: 'sse', body, chunkBytes: 300, cutAfterBytes: body.indexOf('" today"') },
      { kind: 'sse', body },
    );
    const streamed = await run(weatherAgent(), 'Hi', {
      modelProvider: registry,
      model: 'chat:some-model',
      stream: true,
    });
    const error = await (async () => {
      for await (const _ of streamed) {
        // drain
      }
      await streamed.completed;
    })().catch((e) => e);
    expect(error).toMatchObject({ kind: 'ModelCallError', retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('gets structured output through response_format json_schema and parses it', async () => {
    server.enqueue({ kind: 'json', body: ownJson('structured-output.json') });
    const agent = new Agent({
      name: 'Reporter',
      instructions: 'Report the weather.',
      outputType: z.object({ city: z.string(), temperature_c: z.number() }),
    });
    const result = await run(agent, 'Paris?', {
      modelProvider: registry,
      model: 'chat:some-model',
    });
    expect(result.finalOutput).toEqual({ city: 'Paris', temperature_c: 18 });
    const format = server.requests[0].body.response_format;
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.strict).toBe(true);
    expect(format.json_schema.schema).toMatchObject({
      type: 'object',
      required: ['city', 'temperature_c'],
      additionalProperties: false,
    });
  });
});
