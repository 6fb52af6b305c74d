import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Harness,
  makeRequest,
  ownJson,
  startHarness,
  weatherTool,
} from './__fixtures__/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('ChatCompletionsModel.getResponse', () => {
  it('returns a plain text answer as one assistant message with usage', async () => {
    h.server.enqueue({ kind: 'json', body: ownJson('text.json') });
    const response = await h.model.getResponse(makeRequest({ systemInstructions: 'Be brief.' }));
    expect(response).toEqual({
      output: [
        {
          type: 'message',
          role: 'assistant',
          content: [
            { type: 'output_text', text: 'Hello! How can I help you today?', annotations: [] },
          ],
          status: 'completed',
        },
      ],
      usage: {
        requests: 1,
        inputTokens: 19,
        outputTokens: 10,
        totalTokens: 29,
        cachedInputTokens: 0,
        cacheCreationInputTokens: 0,
        reasoningTokens: 0,
      },
      responseId: 'chatcmpl-BtK3xq1Yb7uQ2nZpL0aW9cVfR4sD1',
      modelName: 'gpt-4.1-mini-2025-04-14',
    });
    expect(h.server.requests).toHaveLength(1);
    expect(h.server.requests[0].path).toBe('/chat/completions');
    expect(h.server.requests[0].headers.authorization).toBe('Bearer sk-test-dummy');
    expect(h.server.requests[0].body).toEqual({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      stream: false,
    });
  });

  it('maps one tool call to a function_call item whose call_id is the tool call id', async () => {
    h.server.enqueue({ kind: 'json', body: ownJson('tool-call.json') });
    const response = await h.model.getResponse(makeRequest({ tools: [weatherTool] }));
    expect(response.output).toEqual([
      {
        type: 'function_call',
        call_id: 'call_Jx8pQ2mWv7LrT4nB9cYe1KdZ',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      },
    ]);
    expect(h.server.requests[0].body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather for a city.',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          },
          strict: true,
        },
      },
    ]);
  });

  it('maps several parallel tool calls to function_call items in the order given', async () => {
    h.server.enqueue({ kind: 'json', body: ownJson('parallel-tool-calls.json') });
    const response = await h.model.getResponse(
      makeRequest({ tools: [weatherTool], modelSettings: { parallelToolCalls: true } }),
    );
    expect(response.output.map((i: any) => [i.type, i.call_id, i.arguments])).toEqual([
      ['function_call', 'call_A1b2C3d4E5f6G7h8I9j0K1l2', '{"city":"Paris"}'],
      ['function_call', 'call_M3n4O5p6Q7r8S9t0U1v2W3x4', '{"city":"Tokyo"}'],
    ]);
    expect(h.server.requests[0].body.parallel_tool_calls).toBe(true);
    expect(response.usage.outputTokens).toBe(46);
  });

  it('maps a refusal to a refusal part, never to empty text', async () => {
    h.server.enqueue({ kind: 'json', body: ownJson('refusal.json') });
    const response = await h.model.getResponse(makeRequest());
    expect(response.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'refusal', refusal: "I'm sorry, I can't assist with that request." }],
        status: 'completed',
      },
    ]);
  });

  it('requests structured output as strict response_format json_schema and returns the JSON text', async () => {
    h.server.enqueue({ kind: 'json', body: ownJson('structured-output.json') });
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, temperature_c: { type: 'number' } },
      required: ['city', 'temperature_c'],
      additionalProperties: false,
    };
    const response = await h.model.getResponse(
      makeRequest({ outputSchema: { name: 'weather report', schema, strict: true } }),
    );
    expect(h.server.requests[0].body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'weather_report', schema, strict: true },
    });
    expect(JSON.parse((response.output[0] as any).content[0].text)).toEqual({
      city: 'Paris',
      temperature_c: 18,
    });
    expect(response.usage.cachedInputTokens).toBe(64);
  });

  it('reports usage as zeros (not a crash) when the server sends none', async () => {
    const body = ownJson('text.json') as Record<string, unknown>;
    delete body.usage;
    h.server.enqueue({ kind: 'json', body });
    const response = await h.model.getResponse(makeRequest());
    expect(response.usage).toEqual({
      requests: 1,
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('turns DeepSeek reasoning_content into a reasoning item with replayable provider_data', async () => {
    h.server.enqueue({
      kind: 'json',
      body: {
        id: 'ds-1',
        object: 'chat.completion',
        created: 1,
        model: 'deepseek-reasoner',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: '3',
              reasoning_content: 'Count the r letters: 3.',
            },
            finish_reason: 'stop',
          },
        ],
        usage: {
          prompt_tokens: 10,
          completion_tokens: 20,
          total_tokens: 30,
          prompt_cache_hit_tokens: 8,
          completion_tokens_details: { reasoning_tokens: 15 },
        },
      },
    });
    const response = await h.model.getResponse(makeRequest());
    expect(response.output[0]).toEqual({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Count the r letters: 3.' }],
      provider_data: { chat: { reasoning_content: 'Count the r letters: 3.' } },
    });
    expect(response.usage).toMatchObject({ cachedInputTokens: 8, reasoningTokens: 15 });
  });

  it('raises ModelBehaviorError when the token limit cut a tool call', async () => {
    const body = ownJson('tool-call.json') as any;
    body.choices[0].finish_reason = 'length';
    body.choices[0].message.tool_calls[0].function.arguments = '{"ci';
    h.server.enqueue({ kind: 'json', body });
    await expect(h.model.getResponse(makeRequest({ tools: [weatherTool] }))).rejects.toMatchObject({
      kind: 'ModelBehaviorError',
      message: expect.stringContaining('maxOutputTokens'),
    });
  });
});
