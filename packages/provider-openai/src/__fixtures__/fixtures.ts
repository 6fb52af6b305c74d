/** Test helpers: load this folder's fixtures and build models pointed at a fixture server. */
import type { ModelRequest, ModelStreamEvent } from '@baton/kernel';
import { chunksToSse, type FixtureResponse, type FixtureServer, readFixture, recordedFixturePath } from '@baton/testing';
import OpenAI from 'openai';
import { OpenAIResponsesModel, type OpenAIResponsesModelOptions } from '../openai-responses-model.js';

/** The text of a fixture file in this folder. */
export function fixtureText(name: string): string {
  return readFixture(new URL(`./${name}`, import.meta.url));
}

/** A JSON fixture of this folder as a queued response. */
export function jsonFixture(name: string, status = 200, headers?: Record<string, string>): FixtureResponse {
  return { kind: 'json', status, headers, body: JSON.parse(fixtureText(name)) };
}

/** A `.chunks.txt` fixture of this folder as a queued SSE response. */
export function sseFixture(name: string, extra: { chunkBytes?: number; cutAfterBytes?: number } = {}): FixtureResponse {
  return { kind: 'sse', body: chunksToSse(fixtureText(name), 'responses'), ...extra };
}

/** The text of a file in the shared recorded corpus (`openai-responses/<name>`). */
export function recordedText(name: string): string {
  return readFixture(recordedFixturePath(`openai-responses/${name}`));
}

/** An unmodified `openai` client aimed at the fixture server, without client-side retries. */
export function testClient(server: FixtureServer): OpenAI {
  return new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
}

/** An `OpenAIResponsesModel` aimed at the fixture server. */
export function testModel(
  server: FixtureServer,
  modelId = 'gpt-4.1',
  options: Omit<OpenAIResponsesModelOptions, 'client'> = {},
): OpenAIResponsesModel {
  return new OpenAIResponsesModel(modelId, { client: testClient(server), ...options });
}

/** A model request with one user message and defaults for everything else. */
export function userRequest(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    input: [{ type: 'message', role: 'user', content: text }],
    tools: [],
    modelSettings: {},
    tracing: { enabled: false, includeSensitiveData: false },
    ...extra,
  };
}

/** The `get_weather` function tool the fixtures call. */
export const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  strict: true,
};

/** Drains a stream (bounded) into an array. */
export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    if (events.length > 50_000) throw new Error('stream did not end within 50000 events');
  }
  return events;
}

/** Drains a stream and returns the events seen before it threw, and the error. */
export async function collectUntilError(
  stream: AsyncIterable<ModelStreamEvent>,
): Promise<{ events: ModelStreamEvent[]; error: unknown }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of stream) {
      events.push(event);
      if (events.length > 50_000) break;
    }
  } catch (error) {
    return { events, error };
  }
  throw new Error(`expected the stream to fail, but it ended after ${events.length} events`);
}

/** Calls `fn` and returns what it threw (fails when it does not throw). */
export async function thrown(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

/** Events of one type, narrowed. */
export function ofType<T extends ModelStreamEvent['type']>(
  events: ModelStreamEvent[],
  type: T,
): Extract<ModelStreamEvent, { type: T }>[] {
  return events.filter((e): e is Extract<ModelStreamEvent, { type: T }> => e.type === type);
}
