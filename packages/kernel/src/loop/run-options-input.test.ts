/**
 * Run options of the wrong shape are a UserError naming the option before anything runs (they
 * were raw TypeErrors mid-run): run-level guardrails that are not lists of guardrails (one
 * guardrail without brackets, a null entry).
 */
import { msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import { inputGuardrail, outputGuardrail } from '../guardrail/guardrail.js';
import { MemorySession } from '../session/memory-session.js';

const out = outputGuardrail({ name: 'o', execute: () => ({ tripwireTriggered: false }) });
const inp = inputGuardrail({ name: 'i', execute: () => ({ tripwireTriggered: false }) });

for (const stream of [false, true])
  describe(`run options of the wrong shape (${stream ? 'streamed' : 'non-streamed'})`, () => {
    for (const [label, options, named] of [
      ['outputGuardrails: one guardrail, no list', { outputGuardrails: out }, /outputGuardrails/],
      ['inputGuardrails: one guardrail, no list', { inputGuardrails: inp }, /inputGuardrails/],
      ['outputGuardrails: [null]', { outputGuardrails: [null] }, /outputGuardrails/],
    ] as const)
      it(`${label}: a UserError, no model call, nothing stored`, async () => {
        const model = new ScriptedModel([[msg('hi')]]);
        const agent = new Agent({ name: 'A', model });
        const session = new MemorySession();
        const outcome = await runMode(
          () => ({ agent, input: 'hello', options: { ...(options as object), session } }),
          stream,
        );
        expect(outcome.error).toBeInstanceOf(UserError);
        expect((outcome.error as Error).message).toMatch(named);
        expect(model.requests).toHaveLength(0);
        expect(await session.getItems()).toEqual([]);
      });

    it('null lists are as if not given', async () => {
      const agent = new Agent({ name: 'A', model: new ScriptedModel([[msg('hi')]]) });
      const outcome = await runMode(
        () => ({
          agent,
          input: 'hello',
          options: { inputGuardrails: null, outputGuardrails: null } as never,
        }),
        stream,
      );
      expect(outcome.error).toBeUndefined();
      expect(outcome.result!.finalOutput).toBe('hi');
    });
  });
