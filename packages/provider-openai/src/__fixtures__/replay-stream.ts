/** Replays recorded Responses streams and checks the generic no-loss invariants (test helper). */
import type { MessageItem, ModelRequest, ModelStreamEvent } from '@baton/kernel';
import { chunksToSse, type FixtureServer } from '@baton/testing';
import { expect } from 'vitest';
import { collect, ofType, recordedText, testModel, userRequest } from './fixtures.js';

/** The wire payloads of an SSE body (`data:` lines, JSON-parsed). */
export function payloadsOf(sse: string): any[] {
  return sse
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)));
}

export function sseOf(file: string): string {
  const text = recordedText(file);
  return file.endsWith('.sse') ? text : chunksToSse(text, 'responses');
}

const joinBy = <K>(events: { delta: string }[], key: (e: any) => K) => {
  const out = new Map<K, string>();
  for (const e of events) out.set(key(e), (out.get(key(e)) ?? '') + e.delta);
  return out;
};
export const textOf = (m: MessageItem) =>
  (m.content as { text?: string }[]).map((p) => p.text ?? '').join('');

/**
 * Serves one stream, and checks: a raw event per wire event in order; exactly one
 * `response_done`, last; its output equals `response.completed`'s output and the
 * `output_item.done` items; text, argument and reasoning deltas add up to the final items; usage.
 */
export async function replayStream(
  server: FixtureServer,
  sse: string,
  request: ModelRequest = userRequest('recorded'),
) {
  const wire = payloadsOf(sse);
  server.enqueue({ kind: 'sse', body: sse });
  const events = await collect(testModel(server).getStreamedResponse(request));
  expect(ofType(events, 'raw').map((e) => (e.event as { type: string }).type)).toEqual(
    wire.map((p) => p.type),
  );
  expect(ofType(events, 'response_done')).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('response_done');
  const response = (events.at(-1) as Extract<ModelStreamEvent, { type: 'response_done' }>).response;
  const completed = wire.find((p) => p.type === 'response.completed').response;
  expect(response.output).toEqual(completed.output);
  // The live API re-encrypts `encrypted_content` per emission: the `output_item.done` copy and the
  // `response.completed` copy differ byte-wise (both valid). The response keeps the completed one.
  const opaque = (items: unknown[]) =>
    items.map((i: any) =>
      'encrypted_content' in i ? { ...i, encrypted_content: typeof i.encrypted_content } : i,
    );
  expect(opaque(ofType(events, 'output_item_done').map((e) => e.item))).toEqual(
    opaque(completed.output),
  );
  const texts = joinBy(ofType(events, 'text_delta'), (e) => e.itemId);
  const args = joinBy(ofType(events, 'function_call_arguments_delta'), (e) => e.callId);
  const thoughts = joinBy(ofType(events, 'reasoning_delta'), (e) => e.itemId);
  for (const item of response.output) {
    if (item.type === 'message') expect(texts.get(item.id) ?? '').toBe(textOf(item));
    if (item.type === 'function_call') expect(args.get(item.call_id)).toBe(item.arguments);
    if (item.type === 'reasoning' && thoughts.has(item.id))
      expect(thoughts.get(item.id)).toBe(item.summary.map((s) => s.text).join(''));
  }
  expect(response.usage).toMatchObject({
    requests: 1,
    inputTokens: completed.usage.input_tokens,
    outputTokens: completed.usage.output_tokens,
    cachedInputTokens: completed.usage.input_tokens_details.cached_tokens,
    reasoningTokens: completed.usage.output_tokens_details.reasoning_tokens,
  });
  expect(response.responseId).toBe(completed.id);
  return { events, response, wire };
}

