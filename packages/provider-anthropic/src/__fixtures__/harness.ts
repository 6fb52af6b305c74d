/**
 * Test harness: a fixture server on 127.0.0.1 and the real `@anthropic-ai/sdk` client pointed at
 * it (dummy key), plus small readers for this folder's fixtures and the shared recorded corpus.
 */
import type { Item, ModelRequest, ModelStreamEvent } from '@baton/kernel';
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

/** Text of a file in shared/fixtures/recorded/anthropic-messages/. */
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
