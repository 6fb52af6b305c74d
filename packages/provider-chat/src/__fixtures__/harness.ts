/** Test setup shared by the provider-chat tests: fixture server + unmodified `openai` client. */
import { readFileSync } from 'node:fs';
import type { Item, ModelRequest, ModelStreamEvent } from '@baton/kernel';
import { type FixtureServer, startFixtureServer } from '@baton/testing';
import OpenAI from 'openai';
import { ChatCompletionsModel, type ChatCompletionsModelOptions } from '../chat-completions-model.js';

/** Reads a file of this folder as text. */
export function ownFixture(name: string): string {
  return readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
}

/** Reads a JSON file of this folder. */
export function ownJson(name: string): unknown {
  return JSON.parse(ownFixture(name));
}

export interface Harness {
  server: FixtureServer;
  client: OpenAI;
  model: ChatCompletionsModel;
  close(): Promise<void>;
}

/** Starts a fixture server and a model whose client points at it (dummy key, no SDK retries). */
export async function startHarness(options: Partial<Omit<ChatCompletionsModelOptions, 'client'>> = {}): Promise<Harness> {
  const server = await startFixtureServer();
  const client = new OpenAI({ apiKey: 'sk-test-dummy', baseURL: server.url, maxRetries: 0 });
  const model = new ChatCompletionsModel({ client, modelId: 'gpt-4.1-mini', ...options });
  return { server, client, model, close: () => server.close() };
}

/** A model request with defaults (no tools, default settings, tracing off). */
export function makeRequest(partial: Partial<ModelRequest> = {}): ModelRequest {
  return {
    input: [{ type: 'message', role: 'user', content: 'Hi' }],
    tools: [],
    modelSettings: {},
    tracing: { enabled: false, includeSensitiveData: false },
    ...partial,
  };
}

/**
 * Sends `input` (plus `extra` request fields) through the real client once and returns the
 * request the fixture server received: its parsed `body` and its `rawBody` (the wire text).
 */
export async function sentRequest(
  input: Item[],
  extra: Partial<ModelRequest> = {},
  options: Parameters<typeof startHarness>[0] = {},
): Promise<{ body: any; rawBody: string }> {
  const h = await startHarness(options);
  try {
    h.server.enqueue({ kind: 'json', body: ownJson('text.json') });
    await h.model.getResponse(makeRequest({ input, ...extra }));
    if (h.server.requests.length !== 1) throw new Error(`expected 1 request, got ${h.server.requests.length}`);
    return h.server.requests[0];
  } finally {
    await h.close();
  }
}

/** The parsed request body of {@link sentRequest}. */
export async function sentRequestBody(...args: Parameters<typeof sentRequest>): Promise<any> {
  return (await sentRequest(...args)).body;
}

/** Drains a stream into a list (bounded: fails past 10,000 events). */
export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    if (events.length > 10_000) throw new Error('stream did not end after 10,000 events');
  }
  return events;
}

/** Drains a stream, returning the events seen and the error it ended with (if any). */
export async function collectUntilError(stream: AsyncIterable<ModelStreamEvent>): Promise<{ events: ModelStreamEvent[]; error: any }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of stream) {
      events.push(event);
      if (events.length > 10_000) throw new Error('stream did not end after 10,000 events');
    }
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

/** Events other than `raw`, for readable assertions. */
export function withoutRaw(events: ModelStreamEvent[]): ModelStreamEvent[] {
  return events.filter((e) => e.type !== 'raw');
}

/** The `response_done` event's response. */
export function doneResponse(events: ModelStreamEvent[]) {
  const done = events.filter((e) => e.type === 'response_done');
  if (done.length !== 1) throw new Error(`expected exactly one response_done, got ${done.length}`);
  return (done[0] as Extract<ModelStreamEvent, { type: 'response_done' }>).response;
}

/** A weather function tool definition (strict). */
export const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};
