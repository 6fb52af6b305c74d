/**
 * AnthropicMessagesModel against hand-written fixtures (see __fixtures__/README.md), served from
 * 127.0.0.1 to the unmodified `@anthropic-ai/sdk` client. Asserts items, events, usage and the
 * request bodies the SDK sent.
 */
import {
  extractRefusal,
  extractText,
  type FunctionToolDefinition,
  type Item,
  type MessageItem,
  ModelBehaviorError,
  type ReasoningItem,
  UserError,
} from '@baton/kernel';
import { fco, msg } from '@baton/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  collect,
  type Harness,
  ownFixture,
  ownJson,
  recorded,
  request,
  startHarness,
} from './__fixtures__/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.close();
});
beforeEach(() => {
  h.server.requests.length = 0;
  expect(h.server.pending()).toBe(0);
});

const weatherTool: FunctionToolDefinition = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  strict: true,
};
const lastBody = () => h.server.requests.at(-1)!.body;

describe('AnthropicMessagesModel', () => {
  it('answers a text request; the SDK posted the expected body to /v1/messages', async () => {
    h.server.enqueue({ kind: 'json', body: ownFixture('text.json') });
    const res = await h
      .model()
      .getResponse(request('What is the capital of France?', { systemInstructions: 'Be brief.' }));
    expect(res.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'The capital of France is Paris.' }],
      },
    ]);
    expect(res.usage).toEqual({
      requests: 1,
      inputTokens: 21,
      outputTokens: 10,
      totalTokens: 31,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 0,
    });
    const sent = h.server.requests[0];
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(`${sent.headers['x-api-key'] ?? ''} ${sent.headers.authorization ?? ''}`).toContain(
      'test-dummy-key',
    );
    expect(sent.headers['x-stainless-retry-count']).toBe('0');
    expect(sent.body).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 4096,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is the capital of France?' }] },
      ],
    });
  });

  it('parallel tool use: two calls, and the next request carries both results in one user message, in call order', async () => {
    const model = h.model();
    h.server.enqueue(
      { kind: 'json', body: ownFixture('parallel-tool-use.1.json') },
      { kind: 'json', body: ownFixture('parallel-tool-use.2.json') },
    );
    const first = await model.getResponse(
      request('Weather in Paris and London?', {
        tools: [weatherTool],
        modelSettings: { toolChoice: 'auto' },
      }),
    );
    expect(first.output.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call']);
    expect(first.output.slice(1)).toEqual([
      {
        type: 'function_call',
        call_id: 'toolu_fx_paris',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      },
      {
        type: 'function_call',
        call_id: 'toolu_fx_london',
        name: 'get_weather',
        arguments: '{"city":"London"}',
        status: 'completed',
      },
    ]);
    expect(lastBody().tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather of a city.',
        input_schema: weatherTool.parameters,
      },
    ]);
    expect(lastBody().tool_choice).toEqual({ type: 'auto' });

    // Outputs arrive London first: the request still answers in call order, in ONE user message.
    const input: Item[] = [
      msg('Weather in Paris and London?', 'user'),
      ...first.output,
      fco('toolu_fx_london', 'rainy, 15°C'),
      fco('toolu_fx_paris', 'sunny, 24°C'),
    ];
    const second = await model.getResponse(request(input, { tools: [weatherTool] }));
    expect(extractText(second.output[0] as MessageItem)).toBe(
      'Paris is sunny at 24°C; London is rainy at 15°C.',
    );
    expect(lastBody().messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and London?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: "I'll check the weather in both cities." },
          { type: 'tool_use', id: 'toolu_fx_paris', name: 'get_weather', input: { city: 'Paris' } },
          {
            type: 'tool_use',
            id: 'toolu_fx_london',
            name: 'get_weather',
            input: { city: 'London' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_fx_paris', content: 'sunny, 24°C' },
          { type: 'tool_result', tool_use_id: 'toolu_fx_london', content: 'rainy, 15°C' },
        ],
      },
    ]);
  });

  it('thinking + tool use across two turns: the recorded signature is replayed byte for byte, foreign reasoning is not sent', async () => {
    const model = h.model();
    const turn1 = recorded('test_anthropic_tool_with_thinking.1.json');
    const recordedBlocks = JSON.parse(turn1).content;
    h.server.enqueue(
      { kind: 'json', body: turn1 },
      { kind: 'json', body: ownFixture('thinking-tool-use.2.json') },
    );
    const countryTool: FunctionToolDefinition = {
      ...weatherTool,
      name: 'get_user_country',
      description: 'The user country.',
      parameters: { type: 'object', properties: {} },
    };
    const settings = { thinking: { budgetTokens: 3000 } };
    const foreign: ReasoningItem = {
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'OpenAI thoughts' }],
      encrypted_content: 'gAAAA-openai-opaque',
    };
    const start: Item[] = [
      foreign,
      msg('Hi', 'user'),
      msg('Hello!'),
      msg('What is the largest city in the user country?', 'user'),
    ];

    const first = await model.getResponse(
      request(start, { tools: [countryTool], modelSettings: settings }),
    );
    expect(lastBody().thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    expect(lastBody().max_tokens).toBe(4096);
    expect(first.output.map((i) => i.type)).toEqual(['reasoning', 'message', 'function_call']);

    const call = first.output[2] as Extract<Item, { type: 'function_call' }>;
    const second = await model.getResponse(
      request([...start, ...first.output, fco(call.call_id, 'Mexico')], {
        tools: [countryTool],
        modelSettings: settings,
      }),
    );
    expect(extractText(second.output[0] as MessageItem)).toBe(
      'You are in Mexico, and its largest city is Mexico City.',
    );

    const sent = h.server.requests[1];
    expect(sent.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      {
        role: 'user',
        content: [{ type: 'text', text: 'What is the largest city in the user country?' }],
      },
      {
        role: 'assistant',
        content: recordedBlocks.map((b: Record<string, unknown>) =>
          b.type === 'thinking'
            ? { type: 'thinking', thinking: b.thinking, signature: b.signature }
            : b,
        ),
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01YGzqpRE16Vricda3Aqcejo', content: 'Mexico' },
        ],
      },
    ]);
    // Byte-exact: the signature and thinking text appear in the raw request exactly as recorded.
    expect(sent.rawBody).toContain(JSON.stringify(recordedBlocks[0].signature));
    expect(sent.rawBody).toContain(JSON.stringify(recordedBlocks[0].thinking));
    expect(sent.rawBody).not.toContain('gAAAA-openai-opaque');
    expect(sent.rawBody).not.toContain('OpenAI thoughts');
  });

  it('structured output uses native output_config.format; the loop gets a normal message with the JSON text', async () => {
    h.server.enqueue({ kind: 'json', body: ownFixture('structured-output.json') });
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, population_millions: { type: 'number' } },
      required: ['city', 'population_millions'],
      additionalProperties: false,
    };
    const res = await h.model().getResponse(
      request('Biggest French city?', {
        outputSchema: { name: 'city_info', schema, strict: true },
      }),
    );
    expect(lastBody().output_config).toEqual({ format: { type: 'json_schema', schema } });
    expect(res.output).toHaveLength(1);
    expect(JSON.parse(extractText(res.output[0] as MessageItem))).toEqual({
      city: 'Paris',
      population_millions: 2.1,
    });
  });

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
      expect(lastBody().stream).toBe(true);
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
    expect(lastBody().system).toEqual([
      { type: 'text', text: 'You answer from the policy.' },
      { type: 'text', text: 'Policy text…', cache_control: { type: 'ephemeral' } },
    ]);
    expect(lastBody().tools.map((t: { cache_control?: unknown }) => t.cache_control)).toEqual([
      undefined,
      { type: 'ephemeral' },
    ]);
    expect(lastBody().messages).toEqual([
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

  it('refusal becomes an assistant message with a refusal part', async () => {
    h.server.enqueue({ kind: 'json', body: ownFixture('refusal.json') });
    const res = await h.model().getResponse(request('…'));
    expect(res.output).toHaveLength(1);
    expect(extractRefusal(res.output[0] as MessageItem)).toBe(
      'Claude declined to respond (stop_reason "refusal", category "cyber").',
    );
  });

  it('max_tokens inside a tool call is a ModelBehaviorError naming the tool (JSON and stream)', async () => {
    const model = h.model();
    h.server.enqueue(
      { kind: 'json', body: ownFixture('max-tokens-tool-use.json') },
      { kind: 'sse', body: ownFixture('max-tokens-tool-use.sse') },
    );
    const e1 = await model.getResponse(request('write notes')).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ModelBehaviorError);
    expect((e1 as ModelBehaviorError).toolName).toBe('write_file');
    expect((e1 as Error).message).toContain('max_tokens in the middle of tool call "write_file"');
    const e2 = await collect(model.getStreamedResponse(request('write notes'))).catch(
      (e: unknown) => e,
    );
    expect(e2).toBeInstanceOf(ModelBehaviorError);
    expect((e2 as ModelBehaviorError).rawText).toBe('{"path": "notes.md", "content": "# No');
  });

  it('max_tokens in text marks the message incomplete', async () => {
    h.server.enqueue({ kind: 'json', body: ownFixture('max-tokens-text.json') });
    const res = await h
      .model()
      .getResponse(request('Tell a story', { modelSettings: { maxOutputTokens: 8 } }));
    expect(lastBody().max_tokens).toBe(8);
    expect(res.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        status: 'incomplete',
        content: [{ type: 'output_text', text: 'Once upon a time, in a' }],
      },
    ]);
  });

  it('pause_turn is continued by sending the paused content back; outputs and usage are merged', async () => {
    const webSearch = {
      type: 'hosted_tool' as const,
      name: 'web_search',
      providerId: 'anthropic',
      providerData: { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
    };
    h.server.enqueue(
      { kind: 'json', body: ownFixture('pause-turn.1.json') },
      { kind: 'json', body: ownFixture('pause-turn.2.json') },
    );
    const res = await h.model().getResponse(request('Relay world record?', { tools: [webSearch] }));
    expect(h.server.requests).toHaveLength(2);
    expect(h.server.requests[0].body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
    ]);
    const paused = ownJson('pause-turn.1.json').content;
    expect(h.server.requests[1].body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Relay world record?' }] },
      { role: 'assistant', content: paused },
    ]);
    expect(res.output.map((i) => i.type)).toEqual([
      'hosted_tool_call',
      'hosted_tool_call',
      'message',
    ]);
    expect(res.usage).toMatchObject({ requests: 2, inputTokens: 2300, outputTokens: 55 });
    expect(res.responseId).toBe('msg_fx_pause_02');
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
      expect(lastBody().tool_choice).toEqual(expected);
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
    expect(lastBody()).toEqual({
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
    expect(lastBody()).toMatchObject({
      max_tokens: 10000,
      thinking: { type: 'enabled', budget_tokens: 8000 },
    });
  });
});
