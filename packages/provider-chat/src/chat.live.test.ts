/**
 * Live smoke test against a real Chat Completions endpoint. Not part of `npm test`
 * (live calls cost money and need a key): `npm run test:live` runs it, and it fails — never skips —
 * when OPENAI_API_KEY is not set.
 */
import type { ModelStreamEvent } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { makeRequest, weatherTool } from './__fixtures__/harness.js';
import { createChatProvider } from './chat-provider.js';

const apiKey = process.env.OPENAI_API_KEY;
const modelName = process.env.OPENAI_MODEL ?? 'gpt-4.1-mini';
if (!apiKey) {
  throw new Error(
    '[provider-chat] live test: OPENAI_API_KEY is not set. Set it (optionally OPENAI_BASE_URL / OPENAI_MODEL) and run `npm run test:live`.',
  );
}

describe(`live Chat Completions smoke test (${modelName}; needs OPENAI_API_KEY)`, () => {
  const provider = createChatProvider({ apiKey, baseURL: process.env.OPENAI_BASE_URL });

  it('answers a text prompt with usage', async () => {
    const model = await provider.getModel(modelName);
    const response = await model.getResponse(
      makeRequest({
        input: [{ type: 'message', role: 'user', content: 'Reply with the single word: pong' }],
      }),
    );
    const message = response.output.find((i) => i.type === 'message') as any;
    expect(message.content[0].text.toLowerCase()).toContain('pong');
    expect(response.usage.inputTokens).toBeGreaterThan(0);
  });

  it('streams a tool call with its arguments', async () => {
    const model = await provider.getModel(modelName);
    const events: ModelStreamEvent[] = [];
    const request = makeRequest({
      input: [
        { type: 'message', role: 'user', content: 'What is the weather in Paris? Use the tool.' },
      ],
      tools: [weatherTool],
      modelSettings: { toolChoice: 'required' },
    });
    for await (const event of model.getStreamedResponse(request)) events.push(event);
    const done = events.at(-1) as Extract<ModelStreamEvent, { type: 'response_done' }>;
    expect(done.type).toBe('response_done');
    const call = done.response.output.find((i) => i.type === 'function_call') as any;
    expect(call.name).toBe('get_weather');
    expect(JSON.parse(call.arguments).city).toMatch(/paris/i);
  });
});
