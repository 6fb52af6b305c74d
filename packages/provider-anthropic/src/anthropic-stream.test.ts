/**
 * Streaming through the real SDK: `input_json_delta` → `function_call_arguments_delta`, text
 * runs, UTF-8 split across network chunks, and the final response.
 */
import { sseFromEvents } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import {
  collect,
  lastBody,
  ownFixture,
  request,
  useHarness,
  weatherTool,
} from './__fixtures__/harness.js';

const h = useHarness();

describe('AnthropicMessagesModel streaming', () => {
  for (const chunkBytes of [undefined, 5]) {
    it(`streams input_json_delta as function_call_arguments_delta${chunkBytes ? ' (5-byte slices, ü split)' : ''}`, async () => {
      h.server.enqueue({ kind: 'sse', body: ownFixture('tool-use-stream.sse'), chunkBytes });
      const events = await collect(
        h
          .model()
          .getStreamedResponse(
            request('Weather in Zürich, and the time?', { tools: [weatherTool] }),
          ),
      );
      expect(lastBody(h).stream).toBe(true);
      const kernelEvents = events.filter((e) => e.type !== 'raw');
      expect(kernelEvents.map((e) => e.type)).toEqual([
        'response_started',
        'output_item_added',
        'text_delta',
        'text_delta',
        'output_item_done',
        'output_item_added',
        'function_call_arguments_delta',
        'function_call_arguments_delta',
        'function_call_arguments_delta',
        'output_item_done',
        'output_item_added',
        'output_item_done',
        'response_done',
      ]);
      const args = events.filter((e) => e.type === 'function_call_arguments_delta');
      expect(args).toEqual([
        {
          type: 'function_call_arguments_delta',
          delta: '{"city": "Zür',
          callId: 'toolu_fx_stream_1',
          outputIndex: 1,
        },
        {
          type: 'function_call_arguments_delta',
          delta: 'ich", "unit"',
          callId: 'toolu_fx_stream_1',
          outputIndex: 1,
        },
        {
          type: 'function_call_arguments_delta',
          delta: ': "celsius"}',
          callId: 'toolu_fx_stream_1',
          outputIndex: 1,
        },
      ]);
      const done = events.at(-1) as Extract<(typeof events)[number], { type: 'response_done' }>;
      expect(done.response.output).toEqual([
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: "Let me look up Zürich's weather." }],
        },
        {
          type: 'function_call',
          call_id: 'toolu_fx_stream_1',
          name: 'get_weather',
          arguments: '{"city":"Zürich","unit":"celsius"}',
          status: 'completed',
        },
        {
          type: 'function_call',
          call_id: 'toolu_fx_stream_2',
          name: 'get_time',
          arguments: '{}',
          status: 'completed',
        },
      ]);
      expect(done.response.usage).toMatchObject({
        requests: 1,
        inputTokens: 410,
        outputTokens: 71,
      });
      expect(done.response.responseId).toBe('msg_fx_stream_01');
    });
  }

  it('blocks that start out of wire-index order end up in wire-index order in the response', async () => {
    const tool = { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Bern' } };
    h.server.enqueue({
      kind: 'sse',
      body: sseFromEvents(
        [
          {
            type: 'message_start',
            message: {
              id: 'msg_order',
              type: 'message',
              role: 'assistant',
              model: 'claude-x',
              content: [],
              stop_reason: null,
              usage: { input_tokens: 5, output_tokens: 1 },
            },
          },
          { type: 'content_block_start', index: 1, content_block: tool },
          { type: 'content_block_stop', index: 1 },
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use' },
            usage: { output_tokens: 9 },
          },
          { type: 'message_stop' },
        ],
        'anthropic',
      ),
    });
    const events = await collect(
      h.model().getStreamedResponse(request('Weather?', { tools: [weatherTool] })),
    );
    const done = events.at(-1);
    if (done?.type !== 'response_done') throw new Error('no response_done last');
    expect(done.response.output.map((i) => i.type)).toEqual(['message', 'function_call']);
    expect(done.response.output[1]).toMatchObject({
      call_id: 'toolu_1',
      arguments: '{"city":"Bern"}',
    });
  });
});
