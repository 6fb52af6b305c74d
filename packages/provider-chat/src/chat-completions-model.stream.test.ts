import { chunksToSse, sseFromEvents } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  collect,
  doneResponse,
  type Harness,
  makeRequest,
  ownFixture,
  startHarness,
  weatherTool,
  withoutRaw,
} from './__fixtures__/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('ChatCompletionsModel.getStreamedResponse', () => {
  it('streams text deltas, asks for usage, and ends with one response_done', async () => {
    h.server.enqueue({
      kind: 'sse',
      body: chunksToSse(ownFixture('text.chunks.txt'), 'chat'),
      chunkBytes: 97,
    });
    const events = await collect(h.model.getStreamedResponse(makeRequest()));
    expect(h.server.requests[0].body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas = events.filter((e) => e.type === 'text_delta').map((e: any) => e.delta);
    expect(deltas.join('')).toBe('Hello! How can I help you today?');
    expect(deltas).toHaveLength(9);
    expect(events.filter((e) => e.type === 'raw')).toHaveLength(12);
    expect(events[0]).toEqual({
      type: 'response_started',
      responseId: 'chatcmpl-BtK9u2Ij6Kl0Mx4Yd8Wc3On7Rx1Fs',
    });
    expect(events.at(-1)?.type).toBe('response_done');
    const response = doneResponse(events);
    expect(response.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Hello! How can I help you today?', annotations: [] },
        ],
        status: 'completed',
      },
    ]);
    expect(response.usage).toMatchObject({ inputTokens: 19, outputTokens: 10, totalTokens: 29 });
  });

  it('assembles parallel streamed tool calls by index 0 and 1 and streams their argument deltas', async () => {
    h.server.enqueue({
      kind: 'sse',
      body: chunksToSse(ownFixture('parallel-tool-calls.chunks.txt'), 'chat'),
    });
    const events = withoutRaw(
      await collect(h.model.getStreamedResponse(makeRequest({ tools: [weatherTool] }))),
    );
    const args = (callId: string) =>
      events
        .filter((e: any) => e.type === 'function_call_arguments_delta' && e.callId === callId)
        .map((e: any) => e.delta);
    expect(args('call_A1b2C3d4E5f6G7h8I9j0K1l2')).toEqual(['{"', 'city', '":"', 'Paris', '"}']);
    expect(args('call_M3n4O5p6Q7r8S9t0U1v2W3x4')).toEqual(['{"', 'city', '":"', 'Tokyo', '"}']);
    expect(
      events
        .filter((e) => e.type === 'output_item_added')
        .map((e: any) => [e.outputIndex, e.item.call_id]),
    ).toEqual([
      [0, 'call_A1b2C3d4E5f6G7h8I9j0K1l2'],
      [1, 'call_M3n4O5p6Q7r8S9t0U1v2W3x4'],
    ]);
    expect(doneResponse(events).output).toEqual([
      {
        type: 'function_call',
        call_id: 'call_A1b2C3d4E5f6G7h8I9j0K1l2',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      },
      {
        type: 'function_call',
        call_id: 'call_M3n4O5p6Q7r8S9t0U1v2W3x4',
        name: 'get_weather',
        arguments: '{"city":"Tokyo"}',
        status: 'completed',
      },
    ]);
    expect(doneResponse(events).usage).toMatchObject({ inputTokens: 64, outputTokens: 46 });
  });

  it('assembles tool calls whose argument fragments interleave across indexes', async () => {
    const base = { id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1, model: 'm' };
    const tc = (toolCalls: unknown[], finish: string | null = null) => ({
      ...base,
      choices: [{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: finish }],
    });
    const body = sseFromEvents(
      [
        tc([
          {
            index: 0,
            id: 'call_a',
            type: 'function',
            function: { name: 'get_weather', arguments: '' },
          },
        ]),
        tc([
          {
            index: 1,
            id: 'call_b',
            type: 'function',
            function: { name: 'get_time', arguments: '{"tz":' },
          },
        ]),
        tc([{ index: 0, function: { arguments: '{"city":"Oslo"}' } }]),
        tc([{ index: 1, function: { arguments: '"UTC"}' } }]),
        { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      ],
      'chat',
    );
    h.server.enqueue({ kind: 'sse', body });
    const events = await collect(
      h.model.getStreamedResponse(makeRequest({ tools: [weatherTool] })),
    );
    expect(doneResponse(events).output.map((i: any) => [i.call_id, i.name, i.arguments])).toEqual([
      ['call_a', 'get_weather', '{"city":"Oslo"}'],
      ['call_b', 'get_time', '{"tz":"UTC"}'],
    ]);
    expect(doneResponse(events).usage).toMatchObject({
      requests: 1,
      inputTokens: 0,
      outputTokens: 0,
    });
  });

  it('streams a refusal into a refusal part', async () => {
    const base = { id: 'chatcmpl-r', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o' };
    h.server.enqueue({
      kind: 'sse',
      body: sseFromEvents(
        [
          {
            ...base,
            choices: [
              {
                index: 0,
                delta: { role: 'assistant', content: null, refusal: '' },
                finish_reason: null,
              },
            ],
          },
          { ...base, choices: [{ index: 0, delta: { refusal: "I can't" }, finish_reason: null }] },
          {
            ...base,
            choices: [{ index: 0, delta: { refusal: ' help with that.' }, finish_reason: null }],
          },
          { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        ],
        'chat',
      ),
    });
    const events = await collect(h.model.getStreamedResponse(makeRequest()));
    expect(events.some((e) => e.type === 'text_delta')).toBe(false);
    expect(doneResponse(events).output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'refusal', refusal: "I can't help with that." }],
        status: 'completed',
      },
    ]);
  });
});
