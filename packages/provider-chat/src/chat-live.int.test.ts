/**
 * Live smoke test against a real Chat Completions endpoint. Runs only when OPENAI_API_KEY is set
 * (optional OPENAI_BASE_URL for another OpenAI-compatible endpoint, OPENAI_MODEL for the model,
 * default gpt-4.1-mini); otherwise it is reported as skipped, with a message saying so.
 */
import type { ModelStreamEvent } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { makeRequest, weatherTool } from './__fixtures__/harness.js';
import { createChatProvider } from './chat-provider.js';

const apiKey = process.env.OPENAI_API_KEY;
const modelName = process.env.OPENAI_MODEL ?? 'gpt-4.1-mini';
if (!apiKey) {
  console.warn(
    '[provider-chat] live smoke test SKIPPED: OPENAI_API_KEY is not set (optional: OPENAI_BASE_URL, OPENAI_MODEL).',
  );
}

describe.skipIf(!apiKey)(
  `live Chat Completions smoke test (${modelName}; needs OPENAI_API_KEY)`,
  () => {
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
  },
);
