import { describe, expect, it } from 'vitest';
import { convertChatUsage, convertFromChatOutput } from './convert-from-chat-output.js';

describe('convertChatUsage', () => {
  it('maps OpenAI usage details', () => {
    expect(
      convertChatUsage({
        prompt_tokens: 100,
        completion_tokens: 40,
        total_tokens: 140,
        prompt_tokens_details: { cached_tokens: 64 },
        completion_tokens_details: { reasoning_tokens: 12 },
      }),
    ).toEqual({
      requests: 1,
      inputTokens: 100,
      outputTokens: 40,
      totalTokens: 140,
      cachedInputTokens: 64,
      cacheCreationInputTokens: 0,
      reasoningTokens: 12,
    });
  });

  it('reads DeepSeek prompt_cache_hit_tokens when prompt_tokens_details is absent', () => {
    expect(
      convertChatUsage({ prompt_tokens: 30, completion_tokens: 5, prompt_cache_hit_tokens: 24 }),
    ).toMatchObject({ cachedInputTokens: 24, totalTokens: 35 });
  });

  it('counts a missing block or null fields as zero', () => {
    const zero = {
      requests: 1,
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 0,
    };
    expect(convertChatUsage(undefined)).toEqual(zero);
    expect(convertChatUsage(null)).toEqual(zero);
    expect(convertChatUsage({ prompt_tokens: null, completion_tokens_details: null })).toEqual(
      zero,
    );
  });
});

describe('convertFromChatOutput', () => {
  it('gives deterministic call ids when the server sends none, and "{}" for empty arguments', () => {
    const response = convertFromChatOutput(
      {
        id: 'cmpl-9',
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ type: 'function', function: { name: 'now', arguments: '' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
      'ollama',
    );
    expect(response.output).toEqual([
      {
        type: 'function_call',
        call_id: 'cmpl-9_call_0',
        name: 'now',
        arguments: '{}',
        status: 'completed',
      },
    ]);
  });

  it('keeps text and a refusal of the same message as two parts, and marks a length stop incomplete', () => {
    const response = convertFromChatOutput(
      {
        id: 'c',
        choices: [
          { message: { content: 'Partial', refusal: 'No more.' }, finish_reason: 'length' },
        ],
      },
      'chat',
    );
    expect(response.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Partial', annotations: [] },
          { type: 'refusal', refusal: 'No more.' },
        ],
        status: 'incomplete',
      },
    ]);
  });

  it('reads content given as a list of text parts', () => {
    const response = convertFromChatOutput(
      {
        id: 'c',
        choices: [
          {
            message: {
              content: [
                { type: 'text', text: 'a' },
                { type: 'text', text: 'b' },
              ],
            },
            finish_reason: 'stop',
          },
        ],
      },
      'chat',
    );
    expect((response.output[0] as any).content[0].text).toBe('ab');
  });

  it('raises ModelCallError for a 200 body carrying an error, ModelBehaviorError for a body without choices', () => {
    expect(() =>
      convertFromChatOutput({ error: { message: 'model overloaded', code: 'overloaded' } }, 'vllm'),
    ).toThrow(
      expect.objectContaining({
        kind: 'ModelCallError',
        code: 'overloaded',
        message: expect.stringContaining('model overloaded'),
      }),
    );
    expect(() => convertFromChatOutput({ id: 'c', choices: [] }, 'vllm')).toThrow(
      expect.objectContaining({ kind: 'ModelBehaviorError' }),
    );
  });

  it('rejects a non-function tool call type with ModelBehaviorError', () => {
    expect(() =>
      convertFromChatOutput(
        {
          id: 'c',
          choices: [
            {
              message: {
                tool_calls: [{ id: 'x', type: 'custom', custom: { name: 'grammar', input: 'x' } }],
              },
              finish_reason: 'tool_calls',
            },
          ],
        },
        'chat',
      ),
    ).toThrow(expect.objectContaining({ kind: 'ModelBehaviorError', toolName: 'grammar' }));
  });
});
