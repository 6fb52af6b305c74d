/**
 * Live smoke test against api.anthropic.com. Not part of `npm test`
 * (live calls cost money and need a key): `npm run test:live` runs it, and it fails — never skips —
 * when ANTHROPIC_API_KEY is not set.
 */
import { Agent, extractText, type MessageItem, run, tool } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAnthropicProvider, DEFAULT_ANTHROPIC_MODEL } from './anthropic-provider.js';

const apiKey = process.env.ANTHROPIC_API_KEY;
const modelName = process.env.ANTHROPIC_MODEL ?? DEFAULT_ANTHROPIC_MODEL;
if (!apiKey) {
  throw new Error(
    '[provider-anthropic] live test: ANTHROPIC_API_KEY is not set. Set it (optionally ANTHROPIC_MODEL) and run `npm run test:live`.',
  );
}

describe(`live Anthropic API (${modelName})`, () => {
  const provider = createAnthropicProvider({ apiKey });

  it('answers a text request and a streamed one', { timeout: 60_000 }, async () => {
    const model = provider.getModel(modelName);
    const request = {
      systemInstructions: 'Answer with one word.',
      input: [
        { type: 'message' as const, role: 'user' as const, content: 'Reply with the word pong.' },
      ],
      tools: [],
      modelSettings: { maxOutputTokens: 20 },
      tracing: { enabled: false, includeSensitiveData: false },
    };
    const res = await model.getResponse(request);
    expect(
      extractText(res.output.find((i) => i.type === 'message') as MessageItem).toLowerCase(),
    ).toContain('pong');
    expect(res.usage.inputTokens).toBeGreaterThan(0);
    let text = '';
    for await (const e of model.getStreamedResponse(request))
      if (e.type === 'text_delta') text += e.delta;
    expect(text.toLowerCase()).toContain('pong');
  });

  it('runs a tool loop', { timeout: 90_000 }, async () => {
    const add = tool({
      name: 'add',
      description: 'Adds two numbers.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => String(a + b),
    });
    const agent = new Agent({
      name: 'Calc',
      instructions: 'Use the add tool, then give the result as a number only.',
      tools: [add],
      model: provider.getModel(modelName),
    });
    const result = await run(agent, 'What is 1234 + 4321?', { maxTurns: 4 });
    expect(String(result.finalOutput)).toContain('5555');
  });
});
