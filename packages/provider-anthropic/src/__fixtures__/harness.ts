/**
 * Test harness: a fixture server on 127.0.0.1 and the real `@anthropic-ai/sdk` client pointed at
 * it (dummy key), plus small readers for this folder's fixtures and the shared recorded corpus.
 */
import { extractText, type FunctionToolDefinition, type Item, type MessageItem, type ModelRequest, type ModelStreamEvent } from '@baton/kernel';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type FixtureServer, readFixture, recordedFixturePath, startFixtureServer } from '@baton/testing';
import { createAnthropicProvider } from '../anthropic-provider.js';
import type { AnthropicMessagesModel } from '../anthropic-messages-model.js';

/** Text of a file in this folder. */
export function ownFixture(name: string): string {
  return readFixture(new URL(`./${name}`, import.meta.url));
}

/** Parsed JSON of a file in this folder. */
export function ownJson(name: string): any {
  return JSON.parse(ownFixture(name));
}

/** Text of a file in fixtures/recorded/anthropic-messages/. */
export function recorded(name: string): string {
  return readFixture(recordedFixturePath(`anthropic-messages/${name}`));
}

/** A model request with defaults (no tools, empty settings, tracing off). */
export function request(input: Item[] | string, extra: Partial<ModelRequest> = {}): ModelRequest {
  const items: Item[] = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
  return { input: items, tools: [], modelSettings: {}, tracing: { enabled: false, includeSensitiveData: false }, ...extra };
}

/** Drains a stream of model events (bounded: at most 10,000 events). */
export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const ev of stream) {
    out.push(ev);
    if (out.length > 10_000) throw new Error('stream did not end within 10,000 events');
  }
  return out;
}

export interface Harness {
  server: FixtureServer;
  model: (options?: { promptCaching?: boolean; defaultMaxTokens?: number; modelId?: string }) => AnthropicMessagesModel;
}

/** Starts a fixture server; `model()` builds a model whose real SDK client talks to it. */
export async function startHarness(): Promise<Harness> {
  const server = await startFixtureServer();
  return {
    server,
    model: (options = {}) =>
      createAnthropicProvider({ apiKey: 'test-dummy-key', baseURL: server.url, promptCaching: options.promptCaching, defaultMaxTokens: options.defaultMaxTokens }).getModel(
        options.modelId ?? 'claude-sonnet-4-6',
      ),
  };
}

/**
 * Registers vitest hooks: one harness per file, request log cleared and the response queue
 * checked empty before each test. The returned object is filled in `beforeAll`.
 */
export function useHarness(): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    Object.assign(h, await startHarness());
  });
  afterAll(async () => {
    await h.server.close();
  });
  beforeEach(() => {
    h.server.requests.length = 0;
    expect(h.server.pending()).toBe(0);
  });
  return h;
}

/** The body of the last request the fixture server received. */
export function lastBody(h: Harness): any {
  return h.server.requests.at(-1)!.body;
}

/** A strict `get_weather(city)` function tool definition. */
export const weatherTool: FunctionToolDefinition = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  strict: true,
};

/** Parsed JSON of a recorded file. */
export const recordedJson = (name: string): any => JSON.parse(recorded(name));

/** The parsed `data:` payloads of an SSE body. */
export const ssePayloads = (body: string): any[] =>
  body
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)));

/** Serves `body` (a JSON response body) once and calls `getResponse`. */
export async function replayJson(h: Harness, body: string) {
  h.server.enqueue({ kind: 'json', body });
  return h.model().getResponse(request('hello'));
}

/** Serves an SSE body once (optionally in slices) and drains `getStreamedResponse`. */
export async function replayStream(h: Harness, body: string, chunkBytes?: number) {
  h.server.enqueue({ kind: 'sse', body, chunkBytes });
  const events = await collect(h.model().getStreamedResponse(request('hello')));
  const done = events.at(-1);
  if (done?.type !== 'response_done') throw new Error(`stream did not end with response_done: ${done?.type}`);
  return { events, response: done.response };
}

/** The deltas of one kind, in order. */
export const deltas = (events: ModelStreamEvent[], type: 'text_delta' | 'reasoning_delta' | 'function_call_arguments_delta') =>
  events.flatMap((e) => (e.type === type ? [e.delta] : []));
export const types = (items: Item[]) => items.map((i) => i.type);
export const msgText = (item: Item) => extractText(item as MessageItem);

/** The kernel events are consistent: added/done pair up by outputIndex and match response_done. */
export function expectConsistentEvents(events: ModelStreamEvent[], output: Item[]) {
  const added = events.filter((e) => e.type === 'output_item_added').map((e) => (e as { outputIndex?: number }).outputIndex);
  const done = events.filter((e) => e.type === 'output_item_done') as Extract<ModelStreamEvent, { type: 'output_item_done' }>[];
  expect(added).toEqual(output.map((_, i) => i));
  expect(done.map((e) => e.outputIndex)).toEqual(output.map((_, i) => i));
  expect(done.map((e) => e.item)).toEqual(output);
  expect(events.filter((e) => e.type === 'response_done')).toHaveLength(1);
  expect(events[0].type).toBe('raw');
  expect(events.find((e) => e.type !== 'raw')?.type).toBe('response_started');
}
