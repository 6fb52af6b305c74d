/**
 * `sseEvents` against the SDKs' own stream iterators: the same recorded bodies (every `.sse` and
 * `.chunks.txt` of fixtures/recorded, framed as the wire sends them) and hand-made edge bodies,
 * cut into random byte slices, must give the same events and the same errors through
 * `openai`'s / `@anthropic-ai/sdk`'s `Stream.fromSSEResponse` and through `sseEvents` with
 * `openaiSseRules` / `anthropicSseRules`.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stream as AnthropicStream } from '@anthropic-ai/sdk/streaming';
import fc from 'fast-check';
import { Stream as OpenAIStream } from 'openai/streaming';
import { describe, expect, it } from 'vitest';
import {
  type Api,
  anthropicRules,
  collect,
  encode,
  openaiRules,
  responseOf,
} from './__fixtures__/sse-bodies.js';
import { type SseRules, sseEvents } from './sse-events.js';

const RECORDED = join(import.meta.dirname, '../../../fixtures/recorded');
function viaSdk(api: Api, bytes: Uint8Array, cuts: number[]): Promise<unknown[]> {
  const response = responseOf(bytes, cuts);
  const controller = new AbortController();
  return collect(
    api === 'openai'
      ? OpenAIStream.fromSSEResponse(response, controller)
      : AnthropicStream.fromSSEResponse(response, controller),
  );
}

function viaBaton(api: Api, bytes: Uint8Array, cuts: number[]): Promise<unknown[]> {
  const rules: SseRules = api === 'openai' ? openaiRules : anthropicRules;
  return collect(sseEvents(responseOf(bytes, cuts), rules));
}

/** Every recorded stream, as the wire framed it (see fixtures/recorded/README.md). */
function recordedBodies(): { name: string; api: Api; body: string }[] {
  const bodies: { name: string; api: Api; body: string }[] = [];
  for (const dir of ['openai-responses', 'chat-completions', 'anthropic-messages']) {
    const api: Api = dir === 'anthropic-messages' ? 'anthropic' : 'openai';
    for (const file of readdirSync(join(RECORDED, dir))) {
      const text = readFileSync(join(RECORDED, dir, file), 'utf8');
      if (file.endsWith('.sse')) bodies.push({ name: `${dir}/${file}`, api, body: text });
      else if (file.endsWith('.chunks.txt')) {
        const lines = text.split('\n').filter((l) => l.trim() !== '');
        const body =
          dir === 'chat-completions'
            ? `${lines.map((l) => `data: ${l}\n\n`).join('')}data: [DONE]\n\n`
            : lines.map((l) => `event: ${JSON.parse(l).type}\ndata: ${l}\n\n`).join('');
        bodies.push({ name: `${dir}/${file}`, api, body });
      }
    }
  }
  return bodies;
}

/** Edge bodies: each one a rule of the SDK iterators (or of the SSE standard) it exercises. */
const EDGES: { name: string; api: Api; body: string }[] = [
  {
    name: 'CRLF line endings and a comment',
    api: 'openai',
    body: ': keep-alive\r\ndata: {"a":1}\r\n\r\ndata: {"b":"é"}\r\n\r\n',
  },
  { name: 'multi-line data', api: 'openai', body: 'data: {"a":\ndata: 1}\n\n' },
  {
    name: 'events after [DONE] are dropped',
    api: 'openai',
    body: 'data: {"a":1}\n\ndata: [DONE]\n\ndata: {"b":2}\n\n',
  },
  { name: 'malformed JSON', api: 'openai', body: 'data: {"a":1}\n\ndata: {broken\n\n' },
  {
    name: 'an error event',
    api: 'openai',
    body: 'data: {"a":1}\n\nevent: error\ndata: {"error":{"message":"boom","code":"server_error"}}\n\n',
  },
  {
    name: 'an error event without an error field',
    api: 'openai',
    body: 'event: error\ndata: {"type":"error","message":"overloaded","code":"server_is_overloaded"}\n\n',
  },
  {
    name: 'data with an error field',
    api: 'openai',
    body: 'data: {"error":{"message":"quota","type":"insufficient_quota"}}\n\n',
  },
  { name: 'an unfinished last event', api: 'openai', body: 'data: {"a":1}\n\ndata: {"b":2}' },
  { name: 'data: null', api: 'openai', body: 'data: null\n\ndata: [DONE]\n\n' },
  {
    name: 'pings, unnamed data and empty data are skipped',
    api: 'anthropic',
    body: 'event: ping\ndata: {"type":"ping"}\n\ndata: {"x":1}\n\nevent: message_start\ndata: \n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
  },
  {
    name: 'an Anthropic error event',
    api: 'anthropic',
    body: 'event: message_start\ndata: {"type":"message_start"}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
  },
  {
    name: 'an Anthropic error event that is not JSON',
    api: 'anthropic',
    body: 'event: error\ndata: upstream died\n\n',
  },
  {
    name: 'Anthropic malformed JSON',
    api: 'anthropic',
    body: 'event: content_block_delta\ndata: {"type":\n\n',
  },
  {
    name: 'an unfinished last Anthropic event',
    api: 'anthropic',
    body: 'event: message_start\ndata: {"type":"message_start"}\n\nevent: message_stop\ndata: {"type":"message_stop"}',
  },
  {
    name: 'a last event ended by one newline',
    api: 'openai',
    body: 'data: {"a":1}\n\ndata: {"b":2}\n',
  },
  { name: 'a cut multi-byte character', api: 'openai', body: 'data: {"t":"日本語 ✓ 🎉"}\n\n' },
  {
    name: 'CR line endings up to the last blank line',
    api: 'anthropic',
    body: 'event: message_start\rdata: {"type":"message_start"}\r\revent: message_stop\rdata: {"type":"message_stop"}\r\r',
  },
  {
    name: 'CR line endings, OpenAI',
    api: 'openai',
    body: 'data: {"a":1}\r\rdata: {"b":2}\r\r',
  },
  {
    name: 'a last Anthropic event ended by one CR',
    api: 'anthropic',
    body: 'event: message_start\rdata: {"type":"message_start"}\r\revent: message_stop\rdata: {"type":"message_stop"}\r',
  },
];

describe('sseEvents gives what the SDK iterators give', () => {
  it.each(recordedBodies().map((b) => [b.name, b] as const))(
    '%s, whole and cut at random bytes',
    async (_name, { api, body }) => {
      const bytes = encode(body);
      const expected = await viaSdk(api, bytes, []);
      expect(expected.length).toBeGreaterThan(2);
      expect(await viaBaton(api, bytes, [])).toEqual(expected);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.nat({ max: bytes.length }), { maxLength: 40 }),
          async (cuts) => {
            expect(await viaBaton(api, bytes, cuts)).toEqual(expected);
          },
        ),
        { numRuns: 25 },
      );
    },
  );

  it.each(EDGES.map((e) => [e.name, e] as const))('%s', async (_name, { api, body }) => {
    const bytes = encode(body);
    const expected = await viaSdk(api, bytes, []);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: bytes.length }), { maxLength: 12 }), async (cuts) => {
        expect(await viaBaton(api, bytes, cuts)).toEqual(expected);
        expect(await viaSdk(api, bytes, cuts)).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });

  it('keeps the events before a failure, then fails with the SDK error class', async () => {
    const got = await viaBaton(
      'openai',
      encode('data: {"a":1}\n\nevent: error\ndata: {"error":{"message":"boom"}}\n\n'),
      [],
    );
    expect(got[0]).toEqual({ a: 1 });
    expect(got[1]).toMatchObject({ error: expect.stringMatching(/^APIError: .*boom/) });
  });
});
