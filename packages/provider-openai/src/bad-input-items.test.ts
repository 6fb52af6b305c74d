/**
 * Items that break the item vocabulary (from a hand-built input or an edited RunState JSON):
 * the Responses converter passes most items through as they are (the API then names what is
 * wrong), but one it has to read into gives a `UserError` naming the item, through the real
 * `openai` client in both modes — never a raw TypeError, never a request. Valid items are
 * converted without touching the caller's (deep-frozen) items or tools.
 */
import { BatonError, type Item, UserError } from '@baton/kernel';
import { startFixtureServer } from '@baton/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemsArbitrary } from '../../../fuzz/arbitraries/items.js';
import { malformedItemsArbitrary } from '../../../fuzz/arbitraries/malformed-items.js';
import { testModel, userRequest, weatherTool } from './__fixtures__/fixtures.js';
import { buildResponsesRequest } from './convert-to-openai-input.js';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

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

  it('any transcript with one broken item: a Baton error or a body, never a raw error', async () => {
    const arb = await malformedItemsArbitrary();
    fc.assert(
      fc.property(arb, ({ items, index }) => {
        try {
          build(items);
        } catch (error) {
          if (!BatonError.isInstance(error)) throw error;
          const named = /^Input item (\d+)/.exec((error as Error).message);
          if (named) expect(Number(named[1])).toBeLessThanOrEqual(index);
        }
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it('deep-frozen items and tools convert to the same bytes and stay unchanged', async () => {
    const arb = await itemsArbitrary(10);
    fc.assert(
      fc.property(arb, (items) => {
        const want = build(structuredClone(items));
        const frozen = deepFreeze(structuredClone(items));
        const before = JSON.stringify(frozen);
        expect(build(frozen, [deepFreeze(structuredClone(weatherTool))])).toBe(want);
        expect(JSON.stringify(frozen)).toBe(before);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
