/**
 * Live smoke test against the real OpenAI API. Not part of `npm test`
 * (live calls cost money and need a key): `npm run test:live` runs it, and it fails — never skips —
 * when OPENAI_API_KEY is not set.
 */
import { describe, expect, it } from 'vitest';
import { collect, ofType, userRequest } from './__fixtures__/fixtures.js';
import { createOpenAIProvider } from './openai-provider.js';

const apiKey = process.env.OPENAI_API_KEY;
const modelName = process.env.OPENAI_SMOKE_MODEL ?? 'gpt-4.1-mini';

if (!apiKey) {
  throw new Error(
    '[provider-openai] live test: OPENAI_API_KEY is not set. Set it (optionally OPENAI_BASE_URL / OPENAI_SMOKE_MODEL) and run `npm run test:live`.',
  );
}

describe(`live OpenAI Responses API smoke (${modelName})`, () => {
  const model = () =>
    createOpenAIProvider({ apiKey, baseURL: process.env.OPENAI_BASE_URL }).getModel(modelName);

  it('answers a short prompt with text and usage', async () => {
    const response = await model().getResponse(
      userRequest('Reply with exactly the word: pong', { modelSettings: { maxOutputTokens: 64 } }),
    );
    const message = response.output.find((i) => i.type === 'message');
    expect(JSON.stringify(message)).toMatch(/pong/i);
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.responseId).toMatch(/^resp_/);
  }, 60_000);

  it('streams text deltas and ends with response_done', async () => {
    const events = await collect(
      model().getStreamedResponse(userRequest('Count from 1 to 5, digits separated by spaces.')),
    );
    expect(
      ofType(events, 'text_delta')
        .map((e) => e.delta)
        .join(''),
    ).toMatch(/1.*2.*3.*4.*5/s);
    expect(events.at(-1)?.type).toBe('response_done');
  }, 60_000);
});
