/**
 * Request mapping as sent by the real SDK: prompt caching, tool choice, provider options,
 * thinking budget, hosted tools.
 */
import type { FunctionToolDefinition } from '@baton/kernel';
import { UserError } from '@baton/kernel';
import { msg } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { lastBody, ownFixture, request, useHarness, weatherTool } from './__fixtures__/harness.js';

const h = useHarness();

describe('Anthropic request mapping', () => {
  it('prompt caching marks system, last tool and last message; usage reports cache writes and reads', async () => {
    const model = h.model({ promptCaching: true });
    h.server.enqueue(
      { kind: 'json', body: ownFixture('cache-write.json') },
      { kind: 'json', body: ownFixture('cache-read.json') },
    );
    const timeTool: FunctionToolDefinition = {
      ...weatherTool,
      name: 'get_time',
      description: 'Time.',
    };
    const first = await model.getResponse(
      request([msg('Policy text…', 'developer'), msg('Which section covers refunds?', 'user')], {
        systemInstructions: 'You answer from the policy.',
        tools: [weatherTool, timeTool],
      }),
    );
    expect(lastBody(h).system).toEqual([
      { type: 'text', text: 'You answer from the policy.' },
      { type: 'text', text: 'Policy text…', cache_control: { type: 'ephemeral' } },
    ]);
    expect(lastBody(h).tools.map((t: { cache_control?: unknown }) => t.cache_control)).toEqual([
      undefined,
      { type: 'ephemeral' },
    ]);
    expect(lastBody(h).messages).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'Which section covers refunds?',
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ]);
    expect(first.usage).toEqual({
      requests: 1,
      inputTokens: 14 + 2051,
      outputTokens: 8,
      totalTokens: 14 + 2051 + 8,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 2051,
      reasoningTokens: 0,
    });
    const second = await model.getResponse(
      request([msg('Which section covers shipping?', 'user')], {
        systemInstructions: 'You answer from the policy.',
      }),
    );
    expect(second.usage).toEqual({
      requests: 1,
      inputTokens: 22 + 2051,
      outputTokens: 9,
      totalTokens: 22 + 2051 + 9,
      cachedInputTokens: 2051,
      cacheCreationInputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('a hosted tool of another provider is a UserError naming the tool, before any request', async () => {
    const fileSearch = {
      type: 'hosted_tool' as const,
      name: 'file_search',
      providerId: 'openai',
      providerData: { type: 'file_search' },
    };
    const error = await h
      .model()
      .getResponse(request('hi', { tools: [fileSearch] }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('"file_search"');
    expect((error as Error).message).toContain('"openai"');
    expect(h.server.requests).toHaveLength(0);
  });

  it('maps toolChoice and parallelToolCalls, and merges providerOptions.anthropic last', async () => {
    const cases: [Record<string, unknown>, unknown][] = [
      [{ toolChoice: 'required' }, { type: 'any' }],
      [{ toolChoice: 'none' }, { type: 'none' }],
      [
        { toolChoice: 'get_weather', parallelToolCalls: false },
        { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      ],
      [{ parallelToolCalls: false }, { type: 'auto', disable_parallel_tool_use: true }],
      [{}, undefined],
    ];
    for (const [settings, expected] of cases) {
      h.server.enqueue({ kind: 'json', body: ownFixture('text.json') });
      await h.model().getResponse(request('hi', { tools: [weatherTool], modelSettings: settings }));
      expect(lastBody(h).tool_choice).toEqual(expected);
    }
    h.server.enqueue({ kind: 'json', body: ownFixture('text.json') });
    await h.model().getResponse(
      request('hi', {
        outputSchema: { name: 'x', schema: { type: 'object' }, strict: true },
        modelSettings: {
          temperature: 0.2,
          topP: 0.9,
          toolChoice: 'required',
          providerOptions: {
            anthropic: { top_k: 5, output_config: { effort: 'high' }, metadata: { user_id: 'u1' } },
            openai: { store: true },
          },
        },
      }),
    );
    expect(lastBody(h)).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      temperature: 0.2,
      top_p: 0.9,
      top_k: 5,
      metadata: { user_id: 'u1' },
      output_config: {
        format: { type: 'json_schema', schema: { type: 'object' } },
        effort: 'high',
      },
    });
  });

  it('a thinking budget at or above the default raises max_tokens above it', async () => {
    h.server.enqueue({ kind: 'json', body: ownFixture('text.json') });
    await h
      .model({ defaultMaxTokens: 2000 })
      .getResponse(request('hi', { modelSettings: { thinking: { budgetTokens: 8000 } } }));
    expect(lastBody(h)).toMatchObject({
      max_tokens: 10000,
      thinking: { type: 'enabled', budget_tokens: 8000 },
    });
  });
});
