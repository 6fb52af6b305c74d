import {
  type FunctionCallItem,
  type MessageItem,
  ModelBehaviorError,
  type ReasoningItem,
} from '@baton/kernel';
import { type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  jsonFixture,
  testModel,
  thrown,
  userRequest,
  weatherTool,
} from './__fixtures__/fixtures.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

describe('OpenAIResponsesModel.getResponse', () => {
  it('returns a plain text answer as an assistant message with usage, response id and model name', async () => {
    server.enqueue(jsonFixture('text.json'));
    const response = await testModel(server).getResponse(
      userRequest('Weather in Paris?', { systemInstructions: 'You are a weather assistant.' }),
    );
    expect(response.output).toEqual([
      {
        id: 'msg_0b1e7f3c2a9d4e5f00691a0c1e4f5a6b7c8d9e0f1a2b3c4d5e',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [
          {
            type: 'output_text',
            annotations: [],
            logprobs: [],
            text: 'It is sunny and 22 °C in Paris right now.',
          },
        ],
      },
    ]);
    expect(response.usage).toEqual({
      requests: 1,
      inputTokens: 36,
      outputTokens: 14,
      totalTokens: 50,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 0,
    });
    expect(response.responseId).toBe('resp_0b1e7f3c2a9d4e5f00691a0c1d2e3f4a5b6c7d8e9f0a1b2c3d');
    expect(response.modelName).toBe('gpt-4.1-2025-04-14');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].path).toBe('/v1/responses');
    expect(server.requests[0].headers.authorization).toBe('Bearer test-key');
    expect(server.requests[0].body).toMatchInlineSnapshot(`
      {
        "input": [
          {
            "content": "Weather in Paris?",
            "role": "user",
            "type": "message",
          },
        ],
        "instructions": "You are a weather assistant.",
        "model": "gpt-4.1",
      }
    `);
  });

  it('returns one function call with call_id, name and JSON arguments; sends the strict function tool', async () => {
    server.enqueue(jsonFixture('function-call.json'));
    const response = await testModel(server).getResponse(
      userRequest('Weather in Paris?', { tools: [weatherTool] }),
    );
    const [call] = response.output as FunctionCallItem[];
    expect(response.output).toHaveLength(1);
    expect(call).toMatchObject({
      type: 'function_call',
      call_id: 'call_Wq8nN3kTz1pYbV6sR2mXcA4d',
      name: 'get_weather',
    });
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    expect(server.requests[0].body.tools).toMatchInlineSnapshot(`
      [
        {
          "description": "Get the current weather for a city.",
          "name": "get_weather",
          "parameters": {
            "additionalProperties": false,
            "properties": {
              "city": {
                "type": "string",
              },
            },
            "required": [
              "city",
            ],
            "type": "object",
          },
          "strict": true,
          "type": "function",
        },
      ]
    `);
  });

  it('returns several parallel function calls in the order the model gave them', async () => {
    server.enqueue(jsonFixture('parallel-function-calls.json'));
    const response = await testModel(server).getResponse(
      userRequest('Paris and Tokyo?', {
        tools: [weatherTool],
        modelSettings: { parallelToolCalls: true },
      }),
    );
    const calls = response.output as FunctionCallItem[];
    expect(calls.map((c) => [c.call_id, JSON.parse(c.arguments).city])).toEqual([
      ['call_Ab12Cd34Ef56Gh78Ij90Kl12', 'Paris'],
      ['call_Mn34Op56Qr78St90Uv12Wx34', 'Tokyo'],
    ]);
    expect(server.requests[0].body.parallel_tool_calls).toBe(true);
  });

  it('requests structured output as text.format json_schema (strict) and returns the JSON text', async () => {
    server.enqueue(jsonFixture('structured-output.json'));
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        temperatureC: { type: 'number' },
        conditions: { type: 'string' },
      },
      required: ['city', 'temperatureC', 'conditions'],
      additionalProperties: false,
    };
    const response = await testModel(server).getResponse(
      userRequest('Report', { outputSchema: { name: 'weather report', schema, strict: true } }),
    );
    expect(server.requests[0].body.text).toEqual({
      format: { type: 'json_schema', name: 'weather_report', schema, strict: true },
    });
    const message = response.output[0] as MessageItem;
    expect(JSON.parse((message.content[0] as { text: string }).text)).toEqual({
      city: 'Paris',
      temperatureC: 22,
      conditions: 'sunny',
    });
  });

  it('with store:false asks for encrypted reasoning and returns the reasoning item with encrypted_content', async () => {
    server.enqueue(jsonFixture('reasoning-encrypted.json'));
    const response = await testModel(server, 'gpt-5-mini').getResponse(
      userRequest('Weather?', {
        modelSettings: { store: false, reasoning: { effort: 'medium', summary: 'auto' } },
      }),
    );
    const body = server.requests[0].body;
    expect(body.store).toBe(false);
    expect(body.include).toEqual(['reasoning.encrypted_content']);
    expect(body.reasoning).toEqual({ effort: 'medium', summary: 'auto' });
    const reasoning = response.output[0] as ReasoningItem;
    expect(reasoning.type).toBe('reasoning');
    expect(reasoning.id).toBe('rs_0f5c1d7a6e3b8c9d00691a0c5e7f8091a2b3c4d5e6f7a8b9c0');
    expect(reasoning.encrypted_content).toMatch(/^gAAAAAB/);
    expect(reasoning.summary[0].text).toContain('Checking the forecast');
    expect(response.usage.reasoningTokens).toBe(192);
    expect(response.output[1]).toMatchObject({ type: 'message', role: 'assistant' });
  });

  it('returns a refusal as a refusal content part, not as text', async () => {
    server.enqueue(jsonFixture('refusal.json'));
    const response = await testModel(server).getResponse(userRequest('Something bad'));
    expect(response.output).toHaveLength(1);
    expect((response.output[0] as MessageItem).content).toEqual([
      { type: 'refusal', refusal: "I'm sorry, but I can't help with that." },
    ]);
  });

  it('throws ModelBehaviorError for an incomplete response that spent its budget on reasoning', async () => {
    server.enqueue(jsonFixture('incomplete-reasoning-only.json'));
    const error = await thrown(() =>
      testModel(server, 'gpt-5-mini').getResponse(
        userRequest('Long task', { modelSettings: { maxOutputTokens: 64 } }),
      ),
    );
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect((error as Error).message).toContain('incomplete (reason: max_output_tokens)');
    expect((error as Error).message).toContain('maxOutputTokens');
    expect(server.requests[0].body.max_output_tokens).toBe(64);
  });

  it('returns an incomplete response that holds text, the message keeping status incomplete', async () => {
    server.enqueue(jsonFixture('incomplete-with-text.json'));
    const response = await testModel(server).getResponse(userRequest('Weather?'));
    expect(response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    expect(response.usage.outputTokens).toBe(16);
  });
});
