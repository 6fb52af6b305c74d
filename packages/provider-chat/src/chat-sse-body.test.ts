/**
 * The streamed body as Baton reads it (`sseEvents` under `openai`'s stream rules, not the
 * SDK's iterator), against what the SDK's iterator did: the real `openai` client talks to the
 * fixture server on 127.0.0.1. An abort ends the stream at once with its reason (also with a
 * `fetch` that does not end the body on abort, and while parsed events wait); a long-lived signal
 * collects no listeners over many runs, in both modes.
 */
import { getEventListeners } from 'node:events';
import { Readable } from 'node:stream';
import { Agent, type ModelStreamEvent, RunAbortedError, run } from '@baton/kernel';
import {
  chunksToSse,
  type FixtureServer,
  readFixture,
  recordedFixturePath,
  startFixtureServer,
} from '@baton/testing';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const STREAM = chunksToSse(
  readFixture(recordedFixturePath('chat-completions/openai-text.chunks.txt')),
  'chat',
);
const JSON_BODY = JSON.parse(
  readFixture(recordedFixturePath('chat-completions/openai-text.json')),
) as unknown;

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

import { ChatCompletionsModel } from './chat-completions-model.js';

const modelWith = (fetch?: typeof globalThis.fetch) =>
  new ChatCompletionsModel({
    client: new OpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0, fetch }),
    modelId: 'gpt-4.1-nano',
  });

const request = (signal?: AbortSignal) => ({
  input: [{ type: 'message' as const, role: 'user' as const, content: 'Hi' }],
  tools: [],
  modelSettings: {},
  tracing: { enabled: false, includeSensitiveData: false },
  signal,
});

/** The events of one streamed call until `stopAt` says abort, then how it ended. */
async function streamed(
  model: ReturnType<typeof modelWith>,
  signal: AbortSignal | undefined,
  onEvent: (event: ModelStreamEvent, index: number) => void = () => undefined,
): Promise<{ types: string[]; error?: unknown }> {
  const types: string[] = [];
  try {
    for await (const event of model.getStreamedResponse(request(signal))) {
      types.push(event.type);
      onEvent(event, types.length - 1);
    }
  } catch (error) {
    return { types, error };
  }
  return { types };
}

describe('Chat Completions: the streamed body read by sseEvents', () => {
  const reason = new Error('stopped by the user');

  it('an abort while the parsed events of a chunk wait ends the stream with the abort reason (no response_done)', async () => {
    server.enqueue({ kind: 'sse', body: STREAM });
    const controller = new AbortController();
    const got = await streamed(modelWith(), controller.signal, (_event, i) => {
      if (i === 3) controller.abort(reason);
    });
    expect(got.error).toBe(reason);
    // at most the rest of the events mapped from the source event being handed out
    expect(got.types.length).toBeLessThanOrEqual(6);
    expect(got.types).not.toContain('response_done');
  });

  it('a fetch whose Response body is a Node Readable (node-fetch style) streams as with the global fetch', async () => {
    server.enqueue({ kind: 'sse', body: STREAM });
    server.enqueue({ kind: 'sse', body: STREAM });
    const nodeStyle = (async (url: string, init: RequestInit) => {
      const response = await fetch(url, init);
      return {
        ok: response.ok,
        status: response.status,
        statusText: response.statusText,
        url: response.url,
        headers: response.headers,
        body: Readable.fromWeb(response.body as never),
        text: () => Promise.resolve(''),
        json: () => Promise.resolve({}),
      };
    }) as unknown as typeof fetch;
    const viaGlobal = await streamed(modelWith(), undefined);
    const viaNode = await streamed(modelWith(nodeStyle), undefined);
    expect(viaGlobal.types.at(-1)).toBe('response_done');
    expect(viaNode).toEqual(viaGlobal);
  });

  it('a fetch whose body does not end on abort: an abort of a stalled stream still ends it at once', async () => {
    server.enqueue({ kind: 'sse', body: STREAM, stallAfterBytes: Math.floor(STREAM.length / 2) });
    // e.g. a logging or proxy fetch that does not pass the signal on
    const deaf: typeof fetch = (url, init) => fetch(url, { ...init, signal: undefined });
    const controller = new AbortController();
    const got = await streamed(modelWith(deaf), controller.signal, (_event, i) => {
      if (i === 0) setTimeout(() => controller.abort(reason), 20);
    });
    expect(got.error).toBe(reason);
    expect(got.types).not.toContain('response_done');
  });

  it('a streamed run aborted while its stream is stalled ends promptly with the abort reason, also with a fetch that does not end the body on abort', async () => {
    const deaf: typeof fetch = (url, init) => fetch(url, { ...init, signal: undefined });
    for (const custom of [undefined, deaf]) {
      server.enqueue({ kind: 'sse', body: STREAM, stallAfterBytes: Math.floor(STREAM.length / 2) });
      const controller = new AbortController();
      const agent = new Agent({ name: 'A', instructions: 'Answer.', model: modelWith(custom) });
      const result = await run(agent, 'Hi', { stream: true, signal: controller.signal });
      const types: string[] = [];
      let error: unknown;
      try {
        for await (const event of result) {
          types.push(event.type);
          if (types.length === 1) setTimeout(() => controller.abort(reason), 20);
        }
        await result.completed;
      } catch (e) {
        error = e;
      }
      expect(RunAbortedError.isInstance(error)).toBe(true);
      expect(types.length).toBeGreaterThan(0);
    }
  });

  it('a long-lived signal given to 30 streamed calls collects no abort listeners', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const model = modelWith();
      for (let i = 0; i < 30; i++) {
        server.enqueue({ kind: 'sse', body: STREAM });
        const got = await streamed(model, controller.signal);
        expect(got.types.at(-1)).toBe('response_done');
      }
      // The last call may still be reading its body to the end (connection reuse).
      expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(2);
      await new Promise((r) => setTimeout(r, 1100));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it.each([false, true])(
    'a long-lived signal reused for 30 runs collects no abort listeners (stream: %s)',
    async (stream) => {
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on('warning', onWarning);
      try {
        const controller = new AbortController();
        const agent = new Agent({ name: 'A', instructions: 'Answer.', model: modelWith() });
        for (let i = 0; i < 30; i++) {
          server.enqueue(
            stream ? { kind: 'sse', body: STREAM } : { kind: 'json', body: JSON_BODY },
          );
          if (stream) {
            const result = await run(agent, 'Hi', { stream: true, signal: controller.signal });
            for await (const _ of result) {
              // drain
            }
            await result.completed;
          } else await run(agent, 'Hi', { signal: controller.signal });
        }
        // The last call may still be reading its body to the end (connection reuse).
        expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(2);
        await new Promise((r) => setTimeout(r, 1100));
        expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
        expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
      } finally {
        process.off('warning', onWarning);
      }
    },
    20_000,
  );
});
