/**
 * Every real recorded Anthropic stream in fixtures/recorded/anthropic-messages/
 * (`.chunks.txt` reframed with `chunksToSse`, `.sse` verbatim and in 7-byte slices) replayed
 * through the unmodified `@anthropic-ai/sdk` client into kernel stream events.
 */
import type { MessageItem } from '@baton/kernel';
import { chunksToSse } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import {
  deltas,
  expectConsistentEvents,
  msgText,
  recorded,
  replayStream,
  ssePayloads,
  types,
  useHarness,
} from './__fixtures__/harness.js';
import { convertToAnthropicInput } from './convert-to-anthropic-input.js';

const h = useHarness();

describe('recorded Anthropic streams, replayed through the real SDK', () => {
  it('anthropic-text.chunks.txt: text deltas, one message, final usage from message_delta', async () => {
    const { events, response } = await replayStream(
      h,
      chunksToSse(recorded('anthropic-text.chunks.txt'), 'anthropic'),
    );
    expect(deltas(events, 'text_delta')).toEqual([
      'Hello',
      '! I',
      "'m doing well, thank you for asking",
      '. How are you doing today?',
      ' Is',
      ' there anything I can help you with?',
    ]);
    expect(response.output).toHaveLength(1);
    expect(msgText(response.output[0])).toBe(deltas(events, 'text_delta').join(''));
    expect(response.usage).toMatchObject({
      inputTokens: 12,
      outputTokens: 30,
      totalTokens: 42,
      requests: 1,
    });
    expect(events.find((e) => e.type === 'response_started')).toEqual({
      type: 'response_started',
      responseId: 'msg_01QC4g3HwBThD4BaNtBckFDJ',
    });
    // 12 payloads, minus the ping the SDK drops
    expect(events.filter((e) => e.type === 'raw')).toHaveLength(11);
    expectConsistentEvents(events, response.output);
  });

  it('anthropic-json-other-tool.1.chunks.txt: input built from partial_json only, pings between deltas', async () => {
    const { events, response } = await replayStream(
      h,
      chunksToSse(recorded('anthropic-json-other-tool.1.chunks.txt'), 'anthropic'),
    );
    expect(deltas(events, 'function_call_arguments_delta')).toEqual([
      '{"location": "San Francisco',
      '"}',
    ]);
    const argEvents = events.filter((e) => e.type === 'function_call_arguments_delta');
    expect(
      argEvents.every(
        (e) => (e as { callId?: string }).callId === 'toolu_019Zvehfe1XQWweT1pm7okyt',
      ),
    ).toBe(true);
    expect(response.output).toEqual([
      {
        type: 'function_call',
        call_id: 'toolu_019Zvehfe1XQWweT1pm7okyt',
        name: 'weather',
        arguments: '{"location":"San Francisco"}',
        status: 'completed',
      },
    ]);
    const added = events.find((e) => e.type === 'output_item_added');
    expect(added).toMatchObject({
      item: { type: 'function_call', arguments: '', status: 'in_progress' },
      outputIndex: 0,
    });
    expect(response.usage).toMatchObject({ inputTokens: 843, outputTokens: 28 });
    expectConsistentEvents(events, response.output);
  });

  it('anthropic-clear-thinking.1.chunks.txt: thinking deltas (the empty one skipped), signature kept, ÷ intact', async () => {
    const chunks = recorded('anthropic-clear-thinking.1.chunks.txt');
    const signature = chunks
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((e) => e.delta?.type === 'signature_delta').delta.signature;
    const { events, response } = await replayStream(h, chunksToSse(chunks, 'anthropic'));
    expect(deltas(events, 'reasoning_delta')).toHaveLength(9);
    expect(deltas(events, 'reasoning_delta').join('')).toBe(
      'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
    );
    expect(response.output).toEqual([
      {
        type: 'reasoning',
        summary: [
          {
            type: 'summary_text',
            text: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
          },
        ],
        provider_data: { anthropic: { type: 'thinking', signature } },
      },
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: '925 ÷ 5 = 185' }],
      },
    ]);
    expect(signature.startsWith('EvQBCkYICxgCKkAx')).toBe(true);
    expect(response.usage).toMatchObject({ inputTokens: 69, outputTokens: 53 });
    expectConsistentEvents(events, response.output);
  });

  for (const chunkBytes of [undefined, 7]) {
    it(`test_anthropic_code_execution_tool_stream.1.sse${chunkBytes ? ' in 7-byte slices' : ''}: thinking, server tool call and result round-trip, UTF-8 intact`, async () => {
      const body = recorded('test_anthropic_code_execution_tool_stream.1.sse');
      const payloads = ssePayloads(body);
      const { events, response } = await replayStream(h, body, chunkBytes);
      expect(types(response.output)).toEqual([
        'reasoning',
        'message',
        'hosted_tool_call',
        'hosted_tool_call',
        'message',
      ]);
      const signature = payloads.find((e) => e.delta?.type === 'signature_delta').delta.signature;
      expect(response.output[0]).toEqual({
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Let me calculate this mathematical expression.' }],
        provider_data: { anthropic: { type: 'thinking', signature } },
      });
      expect(msgText(response.output[1])).toBe(
        "I'll calculate that expression for you right away!",
      );
      expect(response.output[2]).toEqual({
        type: 'hosted_tool_call',
        id: 'srvtoolu_01MwXaweAHve88x6s3Fc8x6Q',
        name: 'bash_code_execution',
        provider_data: {
          anthropic: {
            type: 'server_tool_use',
            id: 'srvtoolu_01MwXaweAHve88x6s3Fc8x6Q',
            name: 'bash_code_execution',
            input: { command: 'echo "65465-6544 * 65464-6+1.02255" | bc -l' },
          },
        },
      });
      const result = payloads.find(
        (e) => e.content_block?.type === 'bash_code_execution_tool_result',
      ).content_block;
      expect(response.output[3]).toEqual({
        type: 'hosted_tool_call',
        name: 'bash_code_execution_tool_result',
        provider_data: { anthropic: result },
      });
      const finalText = msgText(response.output[4]);
      expect(finalText).toContain('| 1️⃣ | `6544 × 65464` |');
      expect(finalText.endsWith('### ✅ Final Answer: **-428,330,955.97745**')).toBe(true);
      expect(deltas(events, 'text_delta').join('')).toBe(
        `I'll calculate that expression for you right away!${finalText}`,
      );
      // server tool input deltas are not function-call deltas
      expect(deltas(events, 'function_call_arguments_delta')).toEqual([]);
      expect(response.usage).toMatchObject({ inputTokens: 4714, outputTokens: 304 });
      expectConsistentEvents(events, response.output);
      // The whole transcript goes back as the recorded blocks.
      const { messages } = convertToAnthropicInput(response.output);
      expect(messages).toHaveLength(1);
      expect(messages[0].content).toEqual([
        { type: 'thinking', thinking: 'Let me calculate this mathematical expression.', signature },
        { type: 'text', text: "I'll calculate that expression for you right away!" },
        {
          type: 'server_tool_use',
          id: 'srvtoolu_01MwXaweAHve88x6s3Fc8x6Q',
          name: 'bash_code_execution',
          input: { command: 'echo "65465-6544 * 65464-6+1.02255" | bc -l' },
        },
        result,
        { type: 'text', text: finalText },
      ]);
    });
  }

  for (const chunkBytes of [undefined, 7]) {
    it(`test_anthropic_model_thinking_part_redacted_stream.1.sse${chunkBytes ? ' in 7-byte slices' : ''}: two whole redacted blocks, then text`, async () => {
      const body = recorded('test_anthropic_model_thinking_part_redacted_stream.1.sse');
      const data = ssePayloads(body)
        .filter((e) => e.content_block?.type === 'redacted_thinking')
        .map((e) => e.content_block.data);
      expect(data).toHaveLength(2);
      const { events, response } = await replayStream(h, body, chunkBytes);
      expect(response.output.slice(0, 2)).toEqual(
        data.map((d) => ({
          type: 'reasoning',
          summary: [],
          provider_data: { anthropic: { type: 'redacted_thinking', data: d } },
        })),
      );
      expect(types(response.output)).toEqual(['reasoning', 'reasoning', 'message']);
      expect(
        msgText(response.output[2]).startsWith(
          "I notice that you've sent what appears to be some kind of test string",
        ),
      ).toBe(true);
      expect(msgText(response.output[2]).endsWith('a legitimate task or question?')).toBe(true);
      expect(deltas(events, 'reasoning_delta')).toEqual([]);
      expect(response.usage).toMatchObject({ inputTokens: 92, outputTokens: 189 });
      expectConsistentEvents(events, response.output);
    });
  }

  it('anthropic-web-search-tool.1.chunks.txt: 21 blocks → 3 items, 14 citations_delta become annotations', async () => {
    const { events, response } = await replayStream(
      h,
      chunksToSse(recorded('anthropic-web-search-tool.1.chunks.txt'), 'anthropic'),
    );
    expect(types(response.output)).toEqual(['hosted_tool_call', 'hosted_tool_call', 'message']);
    expect(response.output[0]).toMatchObject({
      id: 'srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k',
      name: 'web_search',
    });
    const input = (response.output[0].provider_data!.anthropic as { input: { query: string } })
      .input;
    expect(typeof input.query).toBe('string');
    expect(input.query.length).toBeGreaterThan(0);
    const msg = response.output[2] as MessageItem;
    expect(msgText(msg)).toBe(deltas(events, 'text_delta').join(''));
    expect((msg.content as { annotations?: unknown[] }[])[0].annotations).toHaveLength(14);
    expect(response.usage).toMatchObject({ inputTokens: 15665, outputTokens: 795 });
    expectConsistentEvents(events, response.output);
  });
});
