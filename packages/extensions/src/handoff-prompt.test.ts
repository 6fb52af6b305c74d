import { Agent, run } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { promptWithHandoffInstructions, RECOMMENDED_PROMPT_PREFIX } from './handoff-prompt.js';

describe('handoff prompt (openai-agents-js handoffs.mdx "Recommended prompts")', () => {
  it('promptWithHandoffInstructions puts the recommended prefix before the instructions', () => {
    expect(RECOMMENDED_PROMPT_PREFIX).toMatch(/^# System context\n/);
    expect(RECOMMENDED_PROMPT_PREFIX).toContain('transfer_to_<agent_name>');
    expect(promptWithHandoffInstructions('Route billing questions.')).toBe(
      `${RECOMMENDED_PROMPT_PREFIX}\n\nRoute billing questions.`,
    );
  });

  for (const stream of [false, true])
    it(`an agent using it sends the prefixed instructions as its system prompt (stream: ${stream})`, async () => {
      const billing = new Agent({ name: 'Billing', model: new ScriptedModel([[msg('paid')]]) });
      const model = new ScriptedModel([[fc('transfer_to_billing', {}, 'h1')]]);
      const triage = new Agent({
        name: 'Triage',
        instructions: promptWithHandoffInstructions('Route billing questions.'),
        handoffs: [billing],
        model,
      });
      const result = stream
        ? await run(triage, 'bill', { stream: true })
        : await run(triage, 'bill');
      if (stream) for await (const _ of result as AsyncIterable<unknown>);
      expect(result.finalOutput).toBe('paid');
      expect(model.requests[0].systemInstructions).toBe(
        `${RECOMMENDED_PROMPT_PREFIX}\n\nRoute billing questions.`,
      );
    });
});
