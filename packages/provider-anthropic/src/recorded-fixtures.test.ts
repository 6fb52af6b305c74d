/**
 * Every real recorded Anthropic response in shared/fixtures/recorded/anthropic-messages/ is
 * replayed from 127.0.0.1 through the unmodified `@anthropic-ai/sdk` client and this provider.
 */
import { readdirSync } from 'node:fs';
import {
  extractText,
  type Item,
  type MessageItem,
  ModelCallError,
  type ModelStreamEvent,
  type ReasoningItem,
} from '@baton/kernel';
import { chunksToSse, recordedFixturePath } from '@baton/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, type Harness, recorded, request, startHarness } from './__fixtures__/harness.js';
import { convertToAnthropicInput } from './convert-to-anthropic-input.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.close();
});

const json = (name: string) => JSON.parse(recorded(name));
const ssePayloads = (body: string): any[] =>
  body
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)));

async function replayJson(name: string) {
  h.server.enqueue({ kind: 'json', body: recorded(name) });
  return h.model().getResponse(request('hello'));
}

async function replayStream(body: string, chunkBytes?: number) {
  h.server.enqueue({ kind: 'sse', body, chunkBytes });
  const events = await collect(h.model().getStreamedResponse(request('hello')));
  const done = events.at(-1);
  if (done?.type !== 'response_done')
    throw new Error(`stream did not end with response_done: ${done?.type}`);
  return { events, response: done.response };
}

const deltas = (
  events: ModelStreamEvent[],
  type: 'text_delta' | 'reasoning_delta' | 'function_call_arguments_delta',
) => events.flatMap((e) => (e.type === type ? [e.delta] : []));
const types = (items: Item[]) => items.map((i) => i.type);
const msgText = (item: Item) => extractText(item as MessageItem);

/** The kernel events are consistent: added/done pair up by outputIndex and match response_done. */
function expectConsistentEvents(events: ModelStreamEvent[], output: Item[]) {
  const added = events
    .filter((e) => e.type === 'output_item_added')
    .map((e) => (e as { outputIndex?: number }).outputIndex);
  const done = events.filter((e) => e.type === 'output_item_done') as Extract<
    ModelStreamEvent,
    { type: 'output_item_done' }
  >[];
  expect(added).toEqual(output.map((_, i) => i));
  expect(done.map((e) => e.outputIndex)).toEqual(output.map((_, i) => i));
  expect(done.map((e) => e.item)).toEqual(output);
  expect(events.filter((e) => e.type === 'response_done')).toHaveLength(1);
  expect(events[0].type).toBe('raw');
  expect(events.find((e) => e.type !== 'raw')?.type).toBe('response_started');
}

describe('recorded Anthropic traffic, replayed through the real SDK', () => {
  it('covers every file of the corpus', () => {
    const files = readdirSync(recordedFixturePath('anthropic-messages')).sort();
    expect(files).toEqual(
      [
        'anthropic-claude-opus-5-reasoning-high.1.json',
        'anthropic-clear-thinking.1.chunks.txt',
        'anthropic-compaction.1.json',
        'anthropic-json-other-tool.1.chunks.txt',
        'anthropic-json-other-tool.1.json',
        'anthropic-text.chunks.txt',
        'anthropic-text.json',
        'anthropic-web-search-tool.1.chunks.txt',
        'anthropic-web-search-tool.1.json',
        'test_anthropic_code_execution_tool_stream.1.sse',
        'test_anthropic_explicit_effort_xhigh_unsupported_model_errors.1.json',
        'test_anthropic_model_thinking_part_redacted.1.json',
        'test_anthropic_model_thinking_part_redacted_stream.1.sse',
        'test_anthropic_tool_with_thinking.1.json',
        'test_multiple_parallel_tool_calls.1.json',
      ].sort(),
    );
  });

  it('anthropic-text.json: one assistant message, usage, response id and model', async () => {
    const res = await replayJson('anthropic-text.json');
    expect(res.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [
          {
            type: 'output_text',
            text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
          },
        ],
      },
    ]);
    expect(res.usage).toEqual({
      requests: 1,
      inputTokens: 12,
      outputTokens: 29,
      totalTokens: 41,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 0,
    });
    expect(res.responseId).toBe('msg_01VdEjxAP5ahtHKrrRdNBteQ');
    expect(res.modelName).toBe('claude-sonnet-4-5-20250929');
  });

  it('anthropic-text.chunks.txt: text deltas, one message, final usage from message_delta', async () => {
    const { events, response } = await replayStream(
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

  it('anthropic-json-other-tool.1.json: a tool_use becomes a function_call with its input as JSON', async () => {
    const res = await replayJson('anthropic-json-other-tool.1.json');
    expect(res.output).toEqual([
      {
        type: 'function_call',
        call_id: 'toolu_01PQjhxo3eirCdKNvCJrKc8f',
        name: 'weather',
        arguments: '{"location":"San Francisco"}',
        status: 'completed',
      },
    ]);
    expect(res.usage).toMatchObject({ inputTokens: 843, outputTokens: 28 });
  });

  it('anthropic-json-other-tool.1.chunks.txt: input built from partial_json only, pings between deltas', async () => {
    const { events, response } = await replayStream(
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

  it('test_multiple_parallel_tool_calls.1.json: text then four function calls in order', async () => {
    const res = await replayJson('test_multiple_parallel_tool_calls.1.json');
    expect(types(res.output)).toEqual([
      'message',
      'function_call',
      'function_call',
      'function_call',
      'function_call',
    ]);
    const calls = res.output.slice(1) as Extract<Item, { type: 'function_call' }>[];
    expect(calls.map((c) => [c.call_id, c.name, JSON.parse(c.arguments).name])).toEqual([
      ['toolu_0167cfEnoQaPviGdVXA95zcu', 'retrieve_entity_info', 'Alice'],
      ['toolu_01EEe2V5HD1Ac4rKiUR4HD2T', 'retrieve_entity_info', 'Bob'],
      ['toolu_01XFyAjstT3966qvRynZyVPo', 'retrieve_entity_info', 'Charlie'],
      ['toolu_013mnQZbgtK2oe3Mo3XKJsx3', 'retrieve_entity_info', 'Daisy'],
    ]);
    expect(res.usage).toMatchObject({ inputTokens: 423, outputTokens: 202 });
  });

  it('test_anthropic_tool_with_thinking.1.json: thinking with its signature, text, tool_use with {} input', async () => {
    const body = json('test_anthropic_tool_with_thinking.1.json');
    const res = await replayJson('test_anthropic_tool_with_thinking.1.json');
    expect(types(res.output)).toEqual(['reasoning', 'message', 'function_call']);
    const r = res.output[0] as ReasoningItem;
    expect(r.summary).toEqual([{ type: 'summary_text', text: body.content[0].thinking }]);
    expect(r.provider_data).toEqual({
      anthropic: { type: 'thinking', signature: body.content[0].signature },
    });
    expect(
      (r.provider_data!.anthropic as { signature: string }).signature.startsWith(
        'EqEECkYICxgCKkAo3UA4',
      ),
    ).toBe(true);
    expect(res.output[2]).toMatchObject({
      call_id: 'toolu_01YGzqpRE16Vricda3Aqcejo',
      name: 'get_user_country',
      arguments: '{}',
    });
    // Round trip: the blocks go back unchanged, thinking first.
    const { messages } = convertToAnthropicInput(res.output);
    expect(messages).toEqual([{ role: 'assistant', content: body.content }]);
  });

  it('anthropic-claude-opus-5-reasoning-high.1.json: thinking tokens reported as reasoningTokens', async () => {
    const body = json('anthropic-claude-opus-5-reasoning-high.1.json');
    const res = await replayJson('anthropic-claude-opus-5-reasoning-high.1.json');
    expect(types(res.output)).toEqual(['reasoning', 'message']);
    expect((res.output[0] as ReasoningItem).provider_data?.anthropic).toEqual({
      type: 'thinking',
      signature: body.content[0].signature,
    });
    expect(msgText(res.output[1])).toBe(body.content[1].text);
    expect(msgText(res.output[1]).endsWith('independently confirming the answer.')).toBe(true);
    expect(res.usage).toEqual({
      requests: 1,
      inputTokens: 51,
      outputTokens: 1699,
      totalTokens: 1750,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 139,
    });
  });

  it('anthropic-clear-thinking.1.chunks.txt: thinking deltas (the empty one skipped), signature kept, ÷ intact', async () => {
    const chunks = recorded('anthropic-clear-thinking.1.chunks.txt');
    const signature = chunks
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((e) => e.delta?.type === 'signature_delta').delta.signature;
    const { events, response } = await replayStream(chunksToSse(chunks, 'anthropic'));
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
      const { events, response } = await replayStream(body, chunkBytes);
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

  it('test_anthropic_model_thinking_part_redacted.1.json: redacted_thinking data kept byte for byte', async () => {
    const body = json('test_anthropic_model_thinking_part_redacted.1.json');
    const res = await replayJson('test_anthropic_model_thinking_part_redacted.1.json');
    expect(res.output[0]).toEqual({
      type: 'reasoning',
      summary: [],
      provider_data: { anthropic: { type: 'redacted_thinking', data: body.content[0].data } },
    });
    expect(msgText(res.output[1])).toBe(body.content[1].text);
    expect(convertToAnthropicInput(res.output).messages[0].content).toEqual([
      { type: 'redacted_thinking', data: body.content[0].data },
      body.content[1],
    ]);
  });

  for (const chunkBytes of [undefined, 7]) {
    it(`test_anthropic_model_thinking_part_redacted_stream.1.sse${chunkBytes ? ' in 7-byte slices' : ''}: two whole redacted blocks, then text`, async () => {
      const body = recorded('test_anthropic_model_thinking_part_redacted_stream.1.sse');
      const data = ssePayloads(body)
        .filter((e) => e.content_block?.type === 'redacted_thinking')
        .map((e) => e.content_block.data);
      expect(data).toHaveLength(2);
      const { events, response } = await replayStream(body, chunkBytes);
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

  it('anthropic-web-search-tool.1.json: server tool blocks pass through, text runs merged, citations as annotations', async () => {
    const body = json('anthropic-web-search-tool.1.json');
    const res = await replayJson('anthropic-web-search-tool.1.json');
    expect(types(res.output)).toEqual([
      'hosted_tool_call',
      'hosted_tool_call',
      'message',
      'hosted_tool_call',
      'hosted_tool_call',
      'message',
    ]);
    expect(res.output[0]).toMatchObject({
      id: 'srvtoolu_01Qxbje4duKBes3Nj42MkZug',
      name: 'web_search',
      provider_data: { anthropic: body.content[0] },
    });
    expect((res.output[4].provider_data!.anthropic as { content: unknown[] }).content).toEqual([]);
    const last = res.output[5] as MessageItem;
    const texts = body.content.slice(5).map((b: { text: string }) => b.text);
    expect(msgText(last)).toBe(texts.join(''));
    const annotations = (last.content as { annotations?: any[] }[])[0].annotations!;
    expect(annotations).toHaveLength(3);
    expect(annotations[0]).toEqual({
      type: 'url_citation',
      url: 'https://acecomments.mu.nu/?post=411647',
      title: body.content[6].citations[0].title,
      start_index: texts[0].length,
      end_index: texts[0].length + texts[1].length,
    });
    expect(msgText(last).slice(annotations[0].start_index, annotations[0].end_index)).toBe(
      body.content[6].text,
    );
    expect(res.usage).toMatchObject({ inputTokens: 27118, outputTokens: 600 });
    // All 12 blocks survive a round trip (citations are display data and are not sent back).
    const blocks = convertToAnthropicInput(res.output).messages[0].content as { type: string }[];
    expect(blocks.map((b) => b.type)).toEqual([
      'server_tool_use',
      'web_search_tool_result',
      'text',
      'server_tool_use',
      'web_search_tool_result',
      'text',
    ]);
  });

  it('anthropic-web-search-tool.1.chunks.txt: 21 blocks → 3 items, 14 citations_delta become annotations', async () => {
    const { events, response } = await replayStream(
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

  it('anthropic-compaction.1.json: compaction block passes through; usage sums the iterations', async () => {
    const body = json('anthropic-compaction.1.json');
    const res = await replayJson('anthropic-compaction.1.json');
    expect(res.output[0]).toEqual({
      type: 'hosted_tool_call',
      name: 'compaction',
      provider_data: { anthropic: body.content[0] },
    });
    expect(msgText(res.output[1])).toBe(body.content[1].text);
    expect(res.usage).toEqual({
      requests: 1,
      inputTokens: 60385 + 682,
      outputTokens: 592 + 1320,
      totalTokens: 60385 + 682 + 592 + 1320,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 0,
    });
    expect(convertToAnthropicInput(res.output).messages[0].content).toEqual(body.content);
  });

  it('test_anthropic_explicit_effort_xhigh_unsupported_model_errors.1.json (HTTP 400): a non-retryable ModelCallError', async () => {
    const model = h.model();
    for (const streamed of [false, true]) {
      h.server.enqueue({
        kind: 'json',
        status: 400,
        body: recorded('test_anthropic_explicit_effort_xhigh_unsupported_model_errors.1.json'),
      });
      const call = streamed
        ? collect(model.getStreamedResponse(request('hi')))
        : model.getResponse(request('hi'));
      const error = (await call.then(
        () => undefined,
        (e: unknown) => e,
      )) as ModelCallError;
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error.statusCode).toBe(400);
      expect(error.retryable).toBe(false);
      expect(error.code).toBe('invalid_request_error');
      expect(error.message).toContain("This model does not support effort level 'xhigh'");
      expect(error.message).toContain('req_011Ca7jT9AHpgXgdv8igm4z9');
      expect(model.getRetryAdvice(error, 1)).toEqual({ retry: false });
    }
  });
});
