/**
 * Reports from the peers' trackers about Chat Completions, driven through `run()` with the real
 * `openai` client against the fixture server, in both modes:
 * - a zero-argument tool streamed as one delta with `arguments: ""` (Bedrock-served Claude
 *   behind OpenAI-compatible gateways; Kilo-Org/cloud#4753, openai-agents-js#664);
 * - parallel calls streamed all at `index: 0` with distinct ids (ollama/ollama#15457,
 *   vercel/ai#14277): two calls, two tool messages;
 * - a tool returning an image: a text-only `tool` message, the image in a following `user`
 *   message (tool messages take text only);
 * - usage of a streamed run comes from the final usage chunk (openai-agents-python#1722).
 */
import { Agent, type ContentPart, run, tool } from '@baton/kernel';
import { sseFromEvents } from '@baton/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './__fixtures__/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.server.requests.length = 0;
});

interface Call {
  id: string;
  name: string;
  arguments: string;
  /** Streamed index (default: its position). */
  index?: number;
}

const usage = { prompt_tokens: 30, completion_tokens: 7, total_tokens: 37 };

function completion(message: { content: string | null; tool_calls?: Call[] }) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1767225610,
    model: 'gpt-4.1-mini',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: message.content,
          ...(message.tool_calls
            ? {
                tool_calls: message.tool_calls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
        finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
      },
    ],
    usage,
  };
}

function chunks(message: { content: string | null; tool_calls?: Call[] }) {
  const base = {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4.1-mini',
  };
  const events: unknown[] = [
    {
      ...base,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    },
  ];
  if (message.content)
    events.push({
      ...base,
      choices: [{ index: 0, delta: { content: message.content }, finish_reason: null }],
    });
  (message.tool_calls ?? []).forEach((c, position) => {
    events.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: c.index ?? position,
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: c.arguments },
              },
            ],
          },
          finish_reason: null,
        },
      ],
    });
  });
  events.push({
    ...base,
    choices: [{ index: 0, delta: {}, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
  });
  events.push({ ...base, choices: [], usage });
  return sseFromEvents(events, 'chat');
}

function enqueue(stream: boolean, ...messages: { content: string | null; tool_calls?: Call[] }[]) {
  h.server.enqueue(
    ...messages.map((m) =>
      stream
        ? { kind: 'sse' as const, body: chunks(m) }
        : { kind: 'json' as const, body: completion(m) },
    ),
  );
}

async function drive(agent: Agent, input: string, stream: boolean) {
  if (!stream) return run(agent, input);
  const result = await run(agent, input, { stream: true });
  for await (const _ of result);
  await result.completed;
  return result;
}

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

for (const stream of [false, true])
  describe(`Chat Completions peer reports (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('a zero-argument call with `arguments: ""` runs the tool with {}', async () => {
      const seen: unknown[] = [];
      const now = tool({
        name: 'current_time',
        description: 'The time.',
        execute: (args) => {
          seen.push(args);
          return '12:00';
        },
      });
      enqueue(
        stream,
        { content: null, tool_calls: [{ id: 'call_t', name: 'current_time', arguments: '' }] },
        { content: 'Noon.' },
      );
      const agent = new Agent({ name: 'Clock', tools: [now], model: h.model });
      const result = await drive(agent, 'time?', stream);
      expect(result.finalOutput).toBe('Noon.');
      expect(seen).toEqual([{}]);
      const messages = h.server.requests[1].body.messages;
      expect(messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_t', content: '12:00' });
    });

    it('two calls at the same index with distinct ids are two calls, each answered', async () => {
      const cities: string[] = [];
      const weather = tool({
        name: 'weather',
        description: '',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
          additionalProperties: false,
        },
        execute: ({ city }: { city: string }) => {
          cities.push(city);
          return `${city}: sunny`;
        },
      });
      enqueue(
        stream,
        {
          content: null,
          tool_calls: [
            { id: 'call_a', name: 'weather', arguments: '{"city":"Paris"}', index: 0 },
            { id: 'call_b', name: 'weather', arguments: '{"city":"Rome"}', index: 0 },
          ],
        },
        { content: 'Both sunny.' },
      );
      const agent = new Agent({ name: 'W', tools: [weather], model: h.model });
      const result = await drive(agent, 'Paris and Rome?', stream);
      expect(result.finalOutput).toBe('Both sunny.');
      expect(cities.sort()).toEqual(['Paris', 'Rome']);
      const messages = h.server.requests[1].body.messages;
      const assistant = messages.find((m: any) => m.role === 'assistant');
      expect(assistant.tool_calls.map((c: any) => [c.id, c.function.arguments])).toEqual([
        ['call_a', '{"city":"Paris"}'],
        ['call_b', '{"city":"Rome"}'],
      ]);
      expect(
        messages.filter((m: any) => m.role === 'tool').map((m: any) => m.tool_call_id),
      ).toEqual(['call_a', 'call_b']);
    });

    it('a tool returning an image: a text tool message, then the image in a user message', async () => {
      const shot = tool({
        name: 'screenshot',
        description: '',
        execute: (): ContentPart[] => [
          { type: 'input_text', text: 'the page' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
        ],
      });
      enqueue(
        stream,
        { content: null, tool_calls: [{ id: 'call_s', name: 'screenshot', arguments: '{}' }] },
        { content: 'A pixel.' },
      );
      const agent = new Agent({ name: 'Eyes', tools: [shot], model: h.model });
      const result = await drive(agent, 'look', stream);
      expect(result.finalOutput).toBe('A pixel.');
      const messages = h.server.requests[1].body.messages;
      const at = messages.findIndex((m: any) => m.role === 'tool');
      expect(messages[at]).toEqual({ role: 'tool', tool_call_id: 'call_s', content: 'the page' });
      expect(messages[at + 1].role).toBe('user');
      expect(messages[at + 1].content).toContainEqual({
        type: 'image_url',
        image_url: { url: `data:image/png;base64,${PNG}` },
      });
      expect(at + 2).toBe(messages.length);
    });

    it('usage is summed over the run, from the usage chunk when streaming', async () => {
      const t = tool({ name: 'noop', description: '', execute: () => 'ok' });
      enqueue(
        stream,
        { content: null, tool_calls: [{ id: 'call_n', name: 'noop', arguments: '{}' }] },
        { content: 'done' },
      );
      const agent = new Agent({ name: 'U', tools: [t], model: h.model });
      const result = await drive(agent, 'go', stream);
      expect(result.usage).toMatchObject({
        requests: 2,
        inputTokens: 60,
        outputTokens: 14,
        totalTokens: 74,
      });
      if (stream)
        expect(h.server.requests[0].body.stream_options).toMatchObject({ include_usage: true });
    });
  });
