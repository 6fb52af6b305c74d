/**
 * OpenAI Responses-only features on an Anthropic model are refused when the run prepares the
 * agent (`Model.supports`), before any request; Anthropic's own hosted tools are not.
 */
import { Agent, type HostedTool, run, UserError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { ownJson, useHarness } from './__fixtures__/harness.js';

const h = useHarness();
const hosted = (providerId: string, type: string): HostedTool => ({
  type: 'hosted_tool',
  name: type,
  providerId,
  providerData: { type, name: type },
});

describe('features an Anthropic model lacks', () => {
  for (const stream of [false, true]) {
    it(`refuses a prompt object and an OpenAI hosted tool before any request (stream: ${stream})`, async () => {
      for (const [agent, message] of [
        [
          new Agent({ name: 'a', prompt: { id: 'pmpt_1' } }),
          /prompt object.*anthropic:claude-sonnet-4-6.*"prompt"/,
        ],
        [
          new Agent({ name: 'a', tools: [hosted('openai', 'tool_search')] }),
          /"hosted_tools:openai"/,
        ],
      ] as const) {
        const error = await (async () => {
          if (!stream) return run(agent, 'hi', { model: h.model() });
          const r = await run(agent, 'hi', { model: h.model(), stream: true });
          for await (const _ of r);
          return r.completed;
        })().catch((e) => e);
        expect(UserError.isInstance(error)).toBe(true);
        expect(error.message).toMatch(message);
      }
      expect(h.server.requests).toHaveLength(0);
    });
  }

  it('lets its own hosted tools through', async () => {
    expect(h.model().supports('hosted_tools:anthropic')).toBe(true);
    h.server.enqueue({ kind: 'json', body: ownJson('text.json') });
    const agent = new Agent({ name: 'a', tools: [hosted('anthropic', 'web_search_20250305')] });
    await run(agent, 'hi', { model: h.model() });
    expect(h.server.requests).toHaveLength(1);
  });
});
