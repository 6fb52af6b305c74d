/**
 * Items that break the item vocabulary (from a hand-built input or an edited RunState JSON) give
 * a `UserError` naming the item, sent through the real `@anthropic-ai/sdk` client in both modes —
 * never a raw TypeError, never a request; valid items are converted without touching the
 * caller's (deep-frozen) items or tools.
 */
import { type Item, UserError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import {
  checkBrokenItems,
  checkFrozenInput,
  refusedAfterCall,
} from '../../../fuzz/arbitraries/converter-checks.js';
import { malformedCases } from '../../../fuzz/arbitraries/malformed-items.js';
import { collect, request, useHarness, weatherTool } from './__fixtures__/harness.js';
import { buildAnthropicRequest } from './anthropic-request.js';

function build(
  input: Item[],
  tools = [structuredClone(weatherTool)],
  promptCaching = true,
): string {
  return JSON.stringify(
    buildAnthropicRequest('claude-sonnet-4-6', request(input, { tools }), { promptCaching }),
  );
}

describe('malformed input items (Anthropic Messages)', () => {
  const h = useHarness();
  const cases = malformedCases();
  for (const { label, item } of cases) {
    for (const stream of [false, true]) {
      it(`${label}: a UserError naming item 1, nothing sent (stream: ${stream})`, async () => {
        const { input, before } = refusedAfterCall(build, item);
        const model = h.model();
        const run = stream
          ? collect(model.getStreamedResponse(request(input)))
          : model.getResponse(request(input));
        await expect(run).rejects.toBeInstanceOf(UserError);
        expect(h.server.requests).toHaveLength(0);
        expect(JSON.stringify(input)).toBe(before);
      });
    }
  }

  it('any transcript with one broken item: a Baton error or a body, never a raw error', () =>
    checkBrokenItems(build));

  it('deep-frozen items and tools convert to the same bytes and stay unchanged', () =>
    checkFrozenInput(build, weatherTool));
});
