/**
 * AnthropicMessagesModel against hand-written fixtures (see __fixtures__/README.md) and recorded
 * traffic, served from 127.0.0.1 to the unmodified `@anthropic-ai/sdk` client: items, usage and
 * the request bodies the SDK sent.
 */
import {
  extractText,
  type FunctionToolDefinition,
  type Item,
  type MessageItem,
  type ReasoningItem,
} from '@baton/kernel';
import { fco, msg } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import {
  lastBody,
  ownFixture,
  recorded,
  request,
  useHarness,
  weatherTool,
} from './__fixtures__/harness.js';

const h = useHarness();

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
    expect(lastBody(h).tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather of a city.',
        input_schema: weatherTool.parameters,
      },
    ]);
    expect(lastBody(h).tool_choice).toEqual({ type: 'auto' });

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
    expect(lastBody(h).messages).toEqual([
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
    expect(lastBody(h).thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    expect(lastBody(h).max_tokens).toBe(4096);
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
    expect(lastBody(h).output_config).toEqual({ format: { type: 'json_schema', schema } });
    expect(res.output).toHaveLength(1);
    expect(JSON.parse(extractText(res.output[0] as MessageItem))).toEqual({
      city: 'Paris',
      population_millions: 2.1,
    });
  });
});
