/**
 * Items that break the item vocabulary (from a hand-built input or an edited RunState JSON):
 * the Responses converter passes most items through as they are (the API then names what is
 * wrong), but one it has to read into gives a `UserError` naming the item, through the real
 * `openai` client in both modes — never a raw TypeError, never a request. Valid items are
 * converted without touching the caller's (deep-frozen) items or tools.
 */
import { type Item, UserError } from '@baton/kernel';
import { startFixtureServer } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { checkBrokenItems, checkFrozenInput } from '../../../fuzz/arbitraries/converter-checks.js';
import { testModel, userRequest, weatherTool } from './__fixtures__/fixtures.js';
import { buildResponsesRequest } from './convert-to-openai-input.js';

function build(input: Item[], tools = [structuredClone(weatherTool)]): string {
  return JSON.stringify(
    buildResponsesRequest(userRequest('', { input, tools }), { modelId: 'gpt-4.1' }),
  );
}

describe('malformed input items (OpenAI Responses)', () => {
  for (const stream of [false, true]) {
    it(`a null part in an assistant message: a UserError naming it, nothing sent (stream: ${stream})`, async () => {
      const server = await startFixtureServer();
      try {
        const input = [
          { type: 'message', role: 'user', content: 'hi' },
          {
            type: 'message',
            role: 'assistant',
            content: [null, { type: 'output_text', text: 'x' }],
          },
        ] as unknown as Item[];
        const model = testModel(server);
        const run = stream
          ? (async () => {
              for await (const _ of model.getStreamedResponse(userRequest('', { input }))) void _;
            })()
          : model.getResponse(userRequest('', { input }));
        const error = await run.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(UserError);
        expect((error as Error).message).toMatch(
          /^Input item 1 \(message\) is not a valid item \(content\.0: /,
        );
        expect(server.requests).toHaveLength(0);
      } finally {
        await server.close();
      }
    });
  }

  it('any transcript with one broken item: a Baton error or a body, never a raw error', () =>
    checkBrokenItems(build));

  it('deep-frozen items and tools convert to the same bytes and stay unchanged', () =>
    checkFrozenInput(build, weatherTool));
});
