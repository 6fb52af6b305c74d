/**
 * The conversion table of OpenAI-compatible servers' stream quirks (`__fixtures__/quirk-streams.ts`,
 * docs/provider-quirks.md): each stream is served to the unmodified `openai` client from
 * 127.0.0.1 and must assemble to the expected calls, with consistent stream events; the
 * Gemini and vLLM shapes also drive a whole `run()` with a matching tool, in both modes.
 */
import {
  Agent,
  createProviderRegistry,
  type FunctionCallItem,
  type Item,
  type ModelStreamEvent,
  run,
  tool,
} from '@baton/kernel';
import { type FixtureServer, sseFromEvents, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  collect,
  doneResponse,
  type Harness,
  makeRequest,
  startHarness,
  weatherTool,
} from './__fixtures__/harness.js';
import { CHAT_QUIRK_STREAMS, type ChatQuirkStream, chunk } from './__fixtures__/quirk-streams.js';
import { createChatProvider } from './chat-provider.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const nonRaw = (events: ModelStreamEvent[]) => events.filter((e) => e.type !== 'raw');

function expectConsistentStream(events: ModelStreamEvent[], row: ChatQuirkStream) {
  const response = doneResponse(events);
  const calls = response.output.filter((i): i is FunctionCallItem => i.type === 'function_call');
  expect(
    calls.map(({ call_id, name, arguments: args }) => ({ call_id, name, arguments: args })),
  ).toEqual(row.calls);
  for (const call of calls) {
    if (row.providerData?.[call.call_id])
      expect(call.provider_data?.chat).toEqual(row.providerData[call.call_id]);
    else expect(call.provider_data).toBeUndefined();
  }
  const visible = nonRaw(events);
  expect(visible[0]).toEqual({ type: 'response_started', responseId: row.responseId });
  expect(visible.filter((e) => e.type === 'response_started')).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('response_done');
  expect(response.responseId).toBe(row.responseId);
  expect(response.modelName).toBe(row.modelName);
  // Every output index is announced once, before its deltas, and done once with the final item.
  const added = events.filter((e) => e.type === 'output_item_added') as Extract<
    ModelStreamEvent,
    { type: 'output_item_added' }
  >[];
  const done = events.filter((e) => e.type === 'output_item_done') as Extract<
    ModelStreamEvent,
    { type: 'output_item_done' }
  >[];
  expect(added.map((e) => e.outputIndex)).toEqual(response.output.map((_, i) => i));
  expect(done.map((e) => e.item)).toEqual(response.output);
  // Argument deltas of each output index add up to that call's arguments, under its call id.
  for (const [i, item] of response.output.entries()) {
    if (item.type !== 'function_call') continue;
    const deltas = events.filter(
      (e) => e.type === 'function_call_arguments_delta' && e.outputIndex === i,
    ) as Extract<ModelStreamEvent, { type: 'function_call_arguments_delta' }>[];
    expect(deltas.map((d) => d.delta).join('')).toBe(item.arguments);
    expect(new Set(deltas.map((d) => d.callId))).toEqual(new Set([item.call_id]));
    const firstDelta = events.indexOf(deltas[0]);
    expect(events.indexOf(added[i])).toBeLessThan(firstDelta);
  }
  const text = events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : [])).join('');
  expect(text).toBe(row.text ?? '');
  const reasoning = events.flatMap((e) => (e.type === 'reasoning_delta' ? [e.delta] : [])).join('');
  expect(reasoning).toBe(row.reasoning ?? '');
}

describe('Chat Completions stream quirks of OpenAI-compatible servers (conversion table)', () => {
  for (const row of CHAT_QUIRK_STREAMS) {
    it(`${row.vendor}: ${row.quirk}`, async () => {
      h.server.enqueue({ kind: 'sse', body: sseFromEvents(row.chunks, 'chat'), chunkBytes: 61 });
      const events = await collect(
        h.model.getStreamedResponse(makeRequest({ tools: [weatherTool] })),
      );
      expectConsistentStream(events, row);
      const message = doneResponse(events).output.find((i) => i.type === 'message');
      if (row.text)
        expect(message).toMatchObject({ content: [{ type: 'output_text', text: row.text }] });
      else expect(message).toBeUndefined();
    });
  }

  it('a call split across chunks with its id only on the first delta, then a second call with no index, assemble separately', async () => {
    const id = 'chatcmpl-mixed';
    h.server.enqueue({
      kind: 'sse',
      body: sseFromEvents(
        [
          chunk(id, 'm', {
            tool_calls: [
              { index: 0, id: 'call_a', function: { name: 'get_weather', arguments: '{"ci' } },
            ],
          }),
          chunk(id, 'm', { tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
          chunk(id, 'm', {
            tool_calls: [
              { id: 'call_b', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
            ],
          }),
          chunk(id, 'm', {}, { finish: 'tool_calls' }),
        ],
        'chat',
      ),
    });
    const response = doneResponse(await collect(h.model.getStreamedResponse(makeRequest())));
    expect(
      response.output.map((i) => [
        (i as FunctionCallItem).call_id,
        (i as FunctionCallItem).arguments,
      ]),
    ).toEqual([
      ['call_a', '{"city":"Paris"}'],
      ['call_b', '{"city":"Rome"}'],
    ]);
  });
});

describe('late metadata (Azure model router): non-streamed bodies', () => {
  it('reports an empty "model" or "id" as absent, not as ""', async () => {
    h.server.enqueue({
      kind: 'json',
      body: {
        id: '',
        object: 'chat.completion',
        created: 0,
        model: '',
        choices: [
          { index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' },
        ],
      },
    });
    const response = await h.model.getResponse(makeRequest());
    expect(response.responseId).toBeUndefined();
    expect(response.modelName).toBeUndefined();
    expect(response.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hi', annotations: [] }],
        status: 'completed',
      },
    ]);
  });
});

describe('non-streamed tool calls of non-conforming servers', () => {
  it('keeps Gemini extra_content, serializes object arguments (llama.cpp) and makes repeated ids unique', async () => {
    const signature = { google: { thought_signature: 'c2lnLTE=' } };
    h.server.enqueue({
      kind: 'json',
      body: {
        id: 'resp-1',
        model: 'gemini-3-flash-preview',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'same',
                  type: 'function',
                  extra_content: signature,
                  function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                },
                {
                  id: 'same',
                  type: 'function',
                  function: { name: 'get_weather', arguments: { city: 'Rome' } },
                },
              ],
            },
          },
        ],
      },
    });
    const response = await h.model.getResponse(makeRequest({ tools: [weatherTool] }));
    expect(response.output).toEqual([
      {
        type: 'function_call',
        call_id: 'same',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
        provider_data: { chat: { extra_content: signature } },
      },
      {
        type: 'function_call',
        call_id: 'same_2',
        name: 'get_weather',
        arguments: '{"city":"Rome"}',
        status: 'completed',
      },
    ]);
  });
});

describe('tool call ids sent back', () => {
  const history: Item[] = [
    { type: 'message', role: 'user', content: 'Weather?' },
    {
      type: 'function_call',
      call_id: 'call_PTLP8xhu3uwZk4l3nlnrrJha',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
      provider_data: { chat: { extra_content: { google: { thought_signature: 'c2ln' } } } },
    },
    { type: 'function_call_output', call_id: 'call_PTLP8xhu3uwZk4l3nlnrrJha', output: '18C' },
    {
      type: 'function_call',
      call_id: 'D681PevKs',
      name: 'get_weather',
      arguments: '{"city":"Rome"}',
    },
    { type: 'function_call_output', call_id: 'D681PevKs', output: '22C' },
  ];

  it('go back as they are, with Gemini extra_content on their tool call', async () => {
    h.server.enqueue({
      kind: 'json',
      body: {
        id: 'x',
        model: 'm',
        choices: [
          { index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' },
        ],
      },
    });
    await h.model.getResponse(makeRequest({ input: history }));
    const messages = h.server.requests[0].body.messages;
    expect(messages[1].tool_calls).toEqual([
      {
        id: 'call_PTLP8xhu3uwZk4l3nlnrrJha',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        extra_content: { google: { thought_signature: 'c2ln' } },
      },
    ]);
    expect(messages[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_PTLP8xhu3uwZk4l3nlnrrJha',
      content: '18C',
    });
  });

  it('are mapped to 9 letters/digits for api.mistral.ai (the same for a call and its output; conforming ids kept)', async () => {
    const server = await startFixtureServer();
    try {
      // The fixture server stands in for api.mistral.ai: the format follows the option.
      const provider = createChatProvider({
        baseURL: server.url,
        apiKey: 'k',
        toolCallIdFormat: 'alphanumeric9',
      });
      server.enqueue({
        kind: 'json',
        body: {
          id: 'x',
          model: 'm',
          choices: [
            { index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' },
          ],
        },
      });
      const model = await provider.getModel('mistral-large-latest');
      await model.getResponse(makeRequest({ input: history }));
      const messages = server.requests[0].body.messages;
      const mapped = messages[1].tool_calls[0].id;
      expect(mapped).toMatch(/^[a-zA-Z0-9]{9}$/);
      expect(messages[2].tool_call_id).toBe(mapped);
      expect(messages[3].tool_calls[0].id).toBe('D681PevKs');
      expect(messages[4].tool_call_id).toBe('D681PevKs');
    } finally {
      await server.close();
    }
  });

  it('default to the Mistral format only for an api.mistral.ai base URL', async () => {
    const { toolCallIdFormatFor } = await import('./endpoint.js');
    expect(toolCallIdFormatFor('https://api.mistral.ai/v1')).toBe('alphanumeric9');
    expect(toolCallIdFormatFor('https://api.deepseek.com')).toBe('any');
    expect(toolCallIdFormatFor(undefined)).toBe('any');
  });
});

describe('run() on quirky streams, with a matching tool (stream: false and true)', () => {
  let server: FixtureServer;
  let cities: string[];
  beforeEach(async () => {
    server = await startFixtureServer();
    cities = [];
  });
  afterEach(async () => {
    await server.close();
  });
  const agent = () =>
    new Agent({
      name: 'Weather',
      instructions: 'Use the tool.',
      tools: [
        tool({
          name: 'get_weather',
          description: 'Weather of a city.',
          parameters: z.object({ city: z.string() }),
          execute: ({ city }) => {
            cities.push(city);
            return `${city}: sunny`;
          },
        }),
      ],
    });
  const answer = {
    id: 'chatcmpl-answer',
    object: 'chat.completion',
    model: 'm',
    choices: [
      { index: 0, message: { role: 'assistant', content: 'All sunny.' }, finish_reason: 'stop' },
    ],
  };
  const answerStream = sseFromEvents(
    [
      chunk('chatcmpl-answer', 'm', { role: 'assistant', content: 'All sunny.' }),
      chunk('chatcmpl-answer', 'm', {}, { finish: 'stop' }),
    ],
    'chat',
  );

  for (const name of [
    'Gemini (OpenAI compatibility)',
    'Gemini 3 (OpenAI compatibility)',
    'vLLM',
    'Azure OpenAI (model router)',
  ]) {
    for (const stream of [false, true] as const) {
      it(`${name}, stream: ${stream}`, async () => {
        const row = CHAT_QUIRK_STREAMS.find((r) => r.vendor === name)!;
        if (stream)
          server.enqueue(
            { kind: 'sse', body: sseFromEvents(row.chunks, 'chat'), chunkBytes: 53 },
            { kind: 'sse', body: answerStream },
          );
        else
          server.enqueue(
            { kind: 'json', body: nonStreamedOf(row) },
            { kind: 'json', body: answer },
          );
        const registry = createProviderRegistry({
          chat: createChatProvider({ baseURL: server.url, apiKey: 'k' }),
        });
        const options = { modelProvider: registry, model: 'chat:some-model' };
        const result = stream
          ? await (async () => {
              const s = await run(agent(), 'Weather in the cities?', { ...options, stream: true });
              const seen: string[] = [];
              for await (const e of s)
                if (e.type === 'raw_model_stream_event' && e.data.type === 'response_started')
                  seen.push(String(e.data.responseId));
              await s.completed;
              expect(seen).toEqual([row.responseId, 'chatcmpl-answer']);
              return s;
            })()
          : await run(agent(), 'Weather in the cities?', options);
        expect(result.finalOutput).toBe('All sunny.');
        expect(cities).toEqual(row.calls.map((c) => JSON.parse(c.arguments).city));
        const second = server.requests[1].body.messages;
        const assistant = second.find((m: any) => m.role === 'assistant');
        expect(assistant.tool_calls.map((c: any) => c.id)).toEqual(row.calls.map((c) => c.call_id));
        expect(
          second.filter((m: any) => m.role === 'tool').map((m: any) => [m.tool_call_id, m.content]),
        ).toEqual(row.calls.map((c) => [c.call_id, `${JSON.parse(c.arguments).city}: sunny`]));
        for (const [callId, data] of Object.entries(row.providerData ?? {}))
          expect(assistant.tool_calls.find((c: any) => c.id === callId).extra_content).toEqual(
            (data as any).extra_content,
          );
        expect(result.rawResponses[0].responseId).toBe(row.responseId);
        expect(result.rawResponses[0].modelName).toBe(row.modelName);
      });
    }
  }
});

/** The non-streamed body the same server would send for a quirk row (same calls and extra data). */
function nonStreamedOf(row: ChatQuirkStream) {
  return {
    id: row.responseId,
    object: 'chat.completion',
    model: row.modelName,
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          tool_calls: row.calls.map((c) => ({
            id: c.call_id,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
            ...((row.providerData?.[c.call_id] as object | undefined) ?? {}),
          })),
        },
      },
    ],
  };
}
