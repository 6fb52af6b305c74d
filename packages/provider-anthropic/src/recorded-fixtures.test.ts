/**
 * Every real recorded Anthropic response body in fixtures/recorded/anthropic-messages/ is
 * replayed from 127.0.0.1 through the unmodified `@anthropic-ai/sdk` client and this provider
 * (streams: recorded-streams.test.ts).
 */
import { readdirSync } from 'node:fs';
import { type Item, type MessageItem, ModelCallError, type ReasoningItem } from '@baton/kernel';
import { recordedFixturePath } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import {
  collect,
  msgText,
  recorded,
  recordedJson,
  replayJson,
  request,
  types,
  useHarness,
} from './__fixtures__/harness.js';
import { convertToAnthropicInput } from './convert-to-anthropic-input.js';

const h = useHarness();

describe('recorded Anthropic responses, replayed through the real SDK', () => {
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
    const res = await replayJson(h, recorded('anthropic-text.json'));
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

  it('anthropic-json-other-tool.1.json: a tool_use becomes a function_call with its input as JSON', async () => {
    const res = await replayJson(h, recorded('anthropic-json-other-tool.1.json'));
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

  it('test_multiple_parallel_tool_calls.1.json: text then four function calls in order', async () => {
    const res = await replayJson(h, recorded('test_multiple_parallel_tool_calls.1.json'));
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
    const body = recordedJson('test_anthropic_tool_with_thinking.1.json');
    const res = await replayJson(h, recorded('test_anthropic_tool_with_thinking.1.json'));
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
    const body = recordedJson('anthropic-claude-opus-5-reasoning-high.1.json');
    const res = await replayJson(h, recorded('anthropic-claude-opus-5-reasoning-high.1.json'));
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

  it('test_anthropic_model_thinking_part_redacted.1.json: redacted_thinking data kept byte for byte', async () => {
    const body = recordedJson('test_anthropic_model_thinking_part_redacted.1.json');
    const res = await replayJson(h, recorded('test_anthropic_model_thinking_part_redacted.1.json'));
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

  it('anthropic-web-search-tool.1.json: server tool blocks pass through, text runs merged, citations as annotations', async () => {
    const body = recordedJson('anthropic-web-search-tool.1.json');
    const res = await replayJson(h, recorded('anthropic-web-search-tool.1.json'));
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

  it('anthropic-compaction.1.json: compaction block passes through; usage sums the iterations', async () => {
    const body = recordedJson('anthropic-compaction.1.json');
    const res = await replayJson(h, recorded('anthropic-compaction.1.json'));
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
