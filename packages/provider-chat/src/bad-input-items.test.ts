/**
 * Items that break the item vocabulary (from a hand-built input or an edited RunState JSON) give
 * a `UserError` naming the item, sent through the real `openai` client in both modes — never a
 * raw TypeError, never a request; valid items are converted without touching the caller's
 * (deep-frozen) items or tools.
 */
import { type Item, UserError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import {
  checkBrokenItems,
  checkFrozenInput,
  refusedAfterCall,
} from '../../../fuzz/arbitraries/converter-checks.js';
import { malformedCases } from '../../../fuzz/arbitraries/malformed-items.js';
import { collect, makeRequest, startHarness, weatherTool } from './__fixtures__/harness.js';
import { convertToChatInput } from './convert-to-chat-input.js';

const options = { providerId: 'openai-chat', reasoningContent: 'replay' as const };

function build(input: Item[], tools = [structuredClone(weatherTool)]): string {
  return JSON.stringify(convertToChatInput(makeRequest({ input, tools }), 'm', options));
}

describe('malformed input items (Chat Completions)', () => {
  const cases = malformedCases().map((c) => [c.label, c.item] as const);
  for (const [label, broken] of cases) {
    for (const stream of [false, true]) {
      it(`${label}: a UserError naming item 1, nothing sent (stream: ${stream})`, async () => {
        const { input, before } = refusedAfterCall(build, broken);
        const h = await startHarness();
        try {
          const request = makeRequest({ input });
          const run = stream
            ? collect(h.model.getStreamedResponse(request))
            : h.model.getResponse(request);
          await expect(run).rejects.toBeInstanceOf(UserError);
          expect(h.server.requests).toHaveLength(0);
        } finally {
          await h.close();
        }
        expect(JSON.stringify(input)).toBe(before);
      });
    }
  }

  it('any transcript with one broken item: a Baton error or a body, never a raw error', () =>
    checkBrokenItems(build));

  it('deep-frozen items and tools convert to the same bytes and stay unchanged', () =>
    checkFrozenInput(build, weatherTool));
});
