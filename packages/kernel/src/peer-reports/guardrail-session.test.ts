/**
 * What a session keeps when a guardrail trips (openai-agents-js#1124, #1712), in both modes: the
 * user input of a run whose output was blocked, never the blocked output (a terminal tool output
 * with `stop_on_first_tool` included), and nothing of a run whose input was blocked.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import {
  InputGuardrailTripwireTriggered,
  OutputGuardrailTripwireTriggered,
} from '../errors/errors.js';
import { inputGuardrail, outputGuardrail } from '../guardrail/guardrail.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';

const noPii = outputGuardrail({
  name: 'pii',
  execute: ({ output }) => ({
    tripwireTriggered: String(output).includes('SSN'),
    outputInfo: null,
  }),
});

for (const stream of [false, true])
  describe(`guardrails and sessions (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('openai-agents-js#1712: a terminal tool output blocked by an output guardrail is not stored, nor sent on the next run', async () => {
      const lookup = tool({ name: 'lookup', description: '', execute: () => 'SSN 123-45-6789' });
      const model = new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('fine')]]);
      const agent = new Agent({
        name: 'A',
        tools: [lookup],
        model,
        toolUseBehavior: 'stop_on_first_tool',
        outputGuardrails: [noPii],
      });
      const session = new MemorySession();
      const blocked = await runMode(() => ({ agent, input: 'who', options: { session } }), stream);
      expect(blocked.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      expect(await session.getItems()).toEqual([{ type: 'message', role: 'user', content: 'who' }]);
      await runMode(() => ({ agent, input: 'again', options: { session } }), stream);
      expect(JSON.stringify(model.requests[1].input)).not.toContain('123-45');
    });

    it('openai-agents-js#1124: an output tripwire keeps the input in the session, not the blocked message', async () => {
      const agent = new Agent({
        name: 'A',
        model: new ScriptedModel([[msg('SSN 123-45-6789')]]),
        outputGuardrails: [noPii],
      });
      const session = new MemorySession();
      const out = await runMode(() => ({ agent, input: 'who', options: { session } }), stream);
      expect(out.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      expect(await session.getItems()).toEqual([{ type: 'message', role: 'user', content: 'who' }]);
    });

    it('an input tripwire stores nothing of the blocked run', async () => {
      const agent = new Agent({
        name: 'A',
        model: new ScriptedModel([{ output: [msg('x')], delayMs: 10 }]),
        inputGuardrails: [
          inputGuardrail({
            name: 'g',
            execute: () => ({ tripwireTriggered: true, outputInfo: null }),
          }),
        ],
      });
      const session = new MemorySession();
      const out = await runMode(() => ({ agent, input: 'bad', options: { session } }), stream);
      expect(out.error).toBeInstanceOf(InputGuardrailTripwireTriggered);
      expect(await session.getItems()).toEqual([]);
    });
  });
