/**
 * End to end through the kernel's `run()`: the real `openai` client against the fixture server,
 * the model resolved from `'openai:gpt-x'` by `createProviderRegistry`.
 */
import {
  Agent,
  createProviderRegistry,
  ModelCallError,
  type ModelProvider,
  run,
  tool,
} from '@baton/kernel';
import { chunksToSse, type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fixtureText, jsonFixture, sseFixture } from './__fixtures__/fixtures.js';
import { createOpenAIProvider } from './openai-provider.js';

let server: FixtureServer;
let registry: ModelProvider;
let calls: { city: string }[];
beforeEach(async () => {
  server = await startFixtureServer();
  registry = createProviderRegistry({
    openai: createOpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: 'test' }),
  });
  calls = [];
});
afterEach(async () => {
  await server.close();
});

function weatherAgent() {
  const getWeather = tool({
    name: 'get_weather',
    description: 'Get the current weather for a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      calls.push({ city });
      return { city, temperatureC: 22, conditions: 'sunny' };
    },
  });
  return new Agent({
    name: 'weather',
    instructions: 'You are a weather assistant.',
    tools: [getWeather],
  });
}

const options = () => ({
  modelProvider: registry,
  model: 'openai:gpt-x',
  tracing: { disabled: true },
});

describe('run() with the OpenAI Responses provider', () => {
  it('runs a full tool loop: call → tool → answer; the second request carries the call and its output', async () => {
    server.enqueue(jsonFixture('function-call.json'), jsonFixture('text.json'));
    const result = await run(weatherAgent(), 'Weather in Paris?', options());
    expect(result.finalOutput).toBe('It is sunny and 22 °C in Paris right now.');
    expect(calls).toEqual([{ city: 'Paris' }]);
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests.map((r) => r.body);
    expect(first.model).toBe('gpt-x');
    expect(first.instructions).toBe('You are a weather assistant.');
    expect(first.tools.map((t: { name: string }) => t.name)).toEqual(['get_weather']);
    expect(second.input.slice(1).map((i: { type: string }) => i.type)).toEqual([
      'function_call',
      'function_call_output',
    ]);
    expect(second.input[2]).toEqual({
      type: 'function_call_output',
      call_id: 'call_Wq8nN3kTz1pYbV6sR2mXcA4d',
      output: JSON.stringify({ city: 'Paris', temperatureC: 22, conditions: 'sunny' }),
    });
    expect(first.prompt_cache_key).toMatch(/\S/);
    expect(second.prompt_cache_key).toBe(first.prompt_cache_key);
    expect(result.usage).toMatchObject({
      requests: 2,
      inputTokens: 58 + 36,
      outputTokens: 16 + 14,
    });
  });

  it('streams the same loop: text from toTextStream, tool run once', async () => {
    server.enqueue(sseFixture('tool-call.chunks.txt'), sseFixture('text.chunks.txt'));
    const result = await run(weatherAgent(), 'Weather in Paris?', { ...options(), stream: true });
    let text = '';
    for await (const delta of result.toTextStream()) text += delta;
    await result.completed;
    expect(text).toBe('It is sunny and 22 °C in Paris right now.');
    expect(result.finalOutput).toBe(text);
    expect(calls).toEqual([{ city: 'Paris' }]);
    expect(server.requests.map((r) => r.body.stream)).toEqual([true, true]);
  });

  it('retries a 429 after its retry-after; the retry shows in the requests, items are not duplicated', async () => {
    server.enqueue(
      jsonFixture('error-429-rate-limit.json', 429, { 'retry-after-ms': '20' }),
      jsonFixture('function-call.json'),
      jsonFixture('text.json'),
    );
    const result = await run(weatherAgent(), 'Weather in Paris?', options());
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1].rawBody).toBe(server.requests[0].rawBody);
    expect(result.newItems.map((i) => i.type)).toEqual([
      'tool_call_item',
      'tool_call_output_item',
      'message_output_item',
    ]);
    expect(calls).toHaveLength(1);
    expect(result.usage.requests).toBe(2);
  });

  it('does not retry a 400: the run fails with a non-retryable ModelCallError after one request', async () => {
    server.enqueue(jsonFixture('error-400.json', 400));
    const error = await run(weatherAgent(), 'Weather?', options()).catch((e) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 400, retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('does not replay a stream cut after output; replays one cut before any output', async () => {
    const body = chunksToSse(fixtureText('text.chunks.txt'), 'responses');
    server.enqueue({ kind: 'sse', body, cutAfterBytes: body.indexOf('" sunny"') });
    const cutLate = await run(weatherAgent(), 'Weather?', { ...options(), stream: true });
    const error = await cutLate.completed.then(
      () => undefined,
      (e) => e,
    );
    expect(error).toMatchObject({ retryable: false, code: 'connection_error' });
    expect(server.requests).toHaveLength(1);

    server.enqueue({ kind: 'sse', body, cutAfterBytes: 40 }, sseFixture('text.chunks.txt'));
    const cutEarly = await run(weatherAgent(), 'Weather?', {
      ...options(),
      stream: true,
      retry: { backoff: { initialDelayMs: 1 } },
    });
    await cutEarly.completed;
    expect(cutEarly.finalOutput).toBe('It is sunny and 22 °C in Paris right now.');
    expect(server.requests).toHaveLength(3);
  });

  it('chains turns with autoPreviousResponseId: each request sends only new items and the last response id', async () => {
    server.enqueue(jsonFixture('function-call.json'), jsonFixture('text.json'));
    await run(weatherAgent(), 'Weather in Paris?', {
      ...options(),
      autoPreviousResponseId: true,
      modelSettings: { store: true },
    });
    const [first, second] = server.requests.map((r) => r.body);
    expect(first.previous_response_id).toBeUndefined();
    expect(first.input).toEqual([{ type: 'message', role: 'user', content: 'Weather in Paris?' }]);
    expect(second.previous_response_id).toBe(
      'resp_0c2f8a4d3b0e5f6a00691a0c2a3b4c5d6e7f8091a2b3c4d5e6',
    );
    expect(second.input.map((i: { type: string }) => i.type)).toEqual(['function_call_output']);
  });

  it('sends a conversation id on every turn and only the new items', async () => {
    server.enqueue(jsonFixture('function-call.json'), jsonFixture('text.json'));
    await run(weatherAgent(), 'Weather in Paris?', { ...options(), conversationId: 'conv_abc123' });
    expect(server.requests.map((r) => r.body.conversation)).toEqual(['conv_abc123', 'conv_abc123']);
    expect(server.requests[1].body.input.map((i: { type: string }) => i.type)).toEqual([
      'function_call_output',
    ]);
  });
});
