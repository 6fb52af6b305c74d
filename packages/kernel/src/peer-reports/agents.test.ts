/**
 * Handoff and guardrail behaviour reported as bugs in the peers' trackers (or documented by the
 * reference SDKs), each run in both modes. The issue each case comes from is in its name.
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
import { handoff } from '../handoff/handoff.js';
import { nestHandoffHistory } from '../handoff/handoff-filters.js';
import type { FunctionCallOutputItem, Item } from '../items/item-types.js';
import { IGNORED_HANDOFF_TEXT } from '../loop/execute-handoff.js';
import { run } from '../loop/run.js';
import { tool } from '../tool/tool.js';

const callIds = (items: Item[], type: string) =>
  items.filter((i) => i.type === type).map((i) => (i as { call_id: string }).call_id);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const stream of [false, true]) {
  const mode = stream ? 'streamed' : 'non-streamed';
  describe(`peer handoff reports (${mode})`, () => {
    it('microsoft/autogen#4483, openai-agents-python: two handoffs in one response — the first is taken, the other answered as ignored, no orphan call', async () => {
      const billingModel = new ScriptedModel([[msg('billing here')]]);
      const billing = new Agent({ name: 'Billing', model: billingModel });
      const refunds = new Agent({ name: 'Refunds', model: new ScriptedModel([]) });
      const triage = new Agent({
        name: 'Triage',
        handoffs: [billing, refunds],
        model: new ScriptedModel([
          [fc('transfer_to_billing', {}, 'h1'), fc('transfer_to_refunds', {}, 'h2')],
        ]),
      });
      const out = await runMode(() => ({ agent: triage, input: 'help' }), stream);
      expect(out.error).toBeUndefined();
      expect(out.result!.lastAgent.name).toBe('Billing');
      expect(out.result!.finalOutput).toBe('billing here');
      const input = billingModel.requests[0].input;
      expect(callIds(input, 'function_call')).toEqual(['h1', 'h2']);
      // Every call is answered (the Responses API accepts outputs in any order).
      expect(callIds(input, 'function_call_output').sort()).toEqual(['h1', 'h2']);
      const ignored = input.find(
        (i) => i.type === 'function_call_output' && i.call_id === 'h2',
      ) as FunctionCallOutputItem;
      expect(ignored.output).toBe(IGNORED_HANDOFF_TEXT);
      if (stream) {
        const updates = out.events.filter((e) => e.type === 'agent_updated_stream_event');
        expect(updates.map((e) => (e as any).agent.name)).toEqual(['Triage', 'Billing']);
      }
    });

    it('openai-agents-python: a tool call and a handoff in one response — the tool runs, its output reaches the next agent, then the handoff', async () => {
      let ran = 0;
      const t = tool({ name: 'note', description: '', execute: () => `noted ${++ran}` });
      const nextModel = new ScriptedModel([[msg('taken over')]]);
      const next = new Agent({ name: 'Next', model: nextModel });
      const first = new Agent({
        name: 'First',
        tools: [t],
        handoffs: [next],
        model: new ScriptedModel([[fc('note', {}, 'c1'), fc('transfer_to_next', {}, 'h1')]]),
      });
      const out = await runMode(() => ({ agent: first, input: 'x' }), stream);
      expect(out.result!.lastAgent.name).toBe('Next');
      expect(ran).toBe(1);
      expect(callIds(nextModel.requests[0].input, 'function_call_output')).toEqual(['c1', 'h1']);
    });

    it('openai-agents-python#2171/#3253: nestHandoffHistory gives the next agent the summary only, without raw tool items duplicated', async () => {
      const t = tool({ name: 'lookup', description: '', execute: () => 'ORDER-42 shipped' });
      const nextModel = new ScriptedModel([[msg('done')]]);
      const next = new Agent({ name: 'Next', model: nextModel });
      const first = new Agent({
        name: 'First',
        tools: [t],
        handoffs: [handoff(next, { inputFilter: nestHandoffHistory() })],
        model: new ScriptedModel([[fc('lookup', {}, 'c1')], [fc('transfer_to_next', {}, 'h1')]]),
      });
      const out = await runMode(() => ({ agent: first, input: 'where is my order' }), stream);
      expect(out.result!.finalOutput).toBe('done');
      const input = nextModel.requests[0].input;
      const text = JSON.stringify(input);
      expect(text.split('ORDER-42 shipped')).toHaveLength(2); // once, in the summary
      expect(input.some((i) => i.type === 'function_call' && i.call_id === 'c1')).toBe(false);
      expect(input.some((i) => i.type === 'function_call_output' && i.call_id === 'c1')).toBe(
        false,
      );
      // Whatever tool items remain are pairs: no call without its output, no output without its call.
      expect(callIds(input, 'function_call').sort()).toEqual(
        callIds(input, 'function_call_output').sort(),
      );
      // The run's own history keeps everything (the filter changes only what the model sees).
      expect(
        out.result!.newItems.filter((i) => i.type === 'tool_call_output_item').length,
      ).toBeGreaterThanOrEqual(1);
    });
  });

  describe(`peer guardrail reports (${mode})`, () => {
    it('openai-agents-python docs/#699: input guardrails run for the first agent only, output guardrails for the agent that gives the final output', async () => {
      const log: string[] = [];
      const ig = (who: string) =>
        inputGuardrail({
          name: `in-${who}`,
          execute: () => {
            log.push(`in:${who}`);
            return { tripwireTriggered: false, outputInfo: null };
          },
        });
      const og = (who: string) =>
        outputGuardrail({
          name: `out-${who}`,
          execute: ({ output }) => {
            log.push(`out:${who}:${String(output)}`);
            return { tripwireTriggered: false, outputInfo: null };
          },
        });
      const second = new Agent({
        name: 'Second',
        inputGuardrails: [ig('second')],
        outputGuardrails: [og('second')],
        model: new ScriptedModel([[msg('final')]]),
      });
      const first = new Agent({
        name: 'First',
        inputGuardrails: [ig('first')],
        outputGuardrails: [og('first')],
        handoffs: [second],
        model: new ScriptedModel([[fc('transfer_to_second', {}, 'h1')]]),
      });
      const out = await runMode(() => ({ agent: first, input: 'x' }), stream);
      expect(out.result!.finalOutput).toBe('final');
      expect(log).toEqual(['in:first', 'out:second:final']);
      expect(out.result!.inputGuardrailResults.map((r) => r.guardrailName)).toEqual(['in-first']);
      expect(out.result!.outputGuardrailResults.map((r) => r.guardrailName)).toEqual([
        'out-second',
      ]);
    });

    it('openai-agents-python#2688/#394: a tripped parallel input guardrail stops the run before any tool of the first turn runs', async () => {
      let ran = 0;
      const t = tool({ name: 'charge', description: '', execute: () => ++ran });
      const agent = new Agent({
        name: 'A',
        tools: [t],
        inputGuardrails: [
          inputGuardrail({
            name: 'block',
            execute: async () => {
              await sleep(5);
              return { tripwireTriggered: true, outputInfo: 'nope' };
            },
          }),
        ],
        model: new ScriptedModel([[fc('charge', {}, 'c1')], [msg('charged')]]),
      });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(out.error).toBeInstanceOf(InputGuardrailTripwireTriggered);
      expect(ran).toBe(0);
    });

    it('openai-agents-python#4068: the input tripwire error carries the guardrail result in both modes', async () => {
      const agent = new Agent({
        name: 'A',
        inputGuardrails: [
          inputGuardrail({
            name: 'block',
            execute: () => ({ tripwireTriggered: true, outputInfo: { reason: 'pii' } }),
          }),
        ],
        model: new ScriptedModel([{ output: [msg('hi')], delayMs: 20 }]),
      });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      const error = out.error as InputGuardrailTripwireTriggered;
      expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
      expect(JSON.stringify(error.result)).toContain('pii');
    });

    it('openai-agents-js#1124, openai-agents-python#2758: an output tripwire rejects the run and leaves no final output readable', async () => {
      const agent = new Agent({
        name: 'A',
        outputGuardrails: [
          outputGuardrail({
            name: 'no-secrets',
            execute: ({ output }) => ({
              tripwireTriggered: String(output).includes('secret'),
              outputInfo: null,
            }),
          }),
        ],
        model: new ScriptedModel([[msg('the secret is 42')]]),
      });
      if (!stream) {
        await expect(run(agent, 'x')).rejects.toBeInstanceOf(OutputGuardrailTripwireTriggered);
        return;
      }
      const result = await run(agent, 'x', { stream: true });
      const seen: string[] = [];
      let iterError: unknown;
      try {
        for await (const e of result) seen.push(e.type);
      } catch (e) {
        iterError = e;
      }
      await expect(result.completed).rejects.toBeInstanceOf(OutputGuardrailTripwireTriggered);
      expect(iterError === undefined || iterError instanceof OutputGuardrailTripwireTriggered).toBe(
        true,
      );
      expect(result.finalOutput).toBeUndefined();
    });
  });
}
