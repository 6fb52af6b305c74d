/**
 * Multi-agent cases from the peers' trackers, in both modes: an approval after a handoff resumed
 * from JSON, a blocking input guardrail, nested agent usage, a handoff target's output type.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { InputGuardrailTripwireTriggered } from '../errors/errors.js';
import { inputGuardrail, outputGuardrail } from '../guardrail/guardrail.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';

for (const stream of [false, true]) {
  describe(`peer multi-agent reports (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('openai-agents-js#1768, #993: an approval requested after a handoff resumes with the target agent from JSON, the tool runs once', async () => {
      let refunds = 0;
      const refund = tool({
        name: 'refund',
        description: '',
        needsApproval: true,
        execute: () => `refund ${++refunds}`,
      });
      const closerModel = new ScriptedModel([[fc('refund', {}, 'c1')], [msg('refunded')]]);
      const closer = new Agent({ name: 'Closer', tools: [refund], model: closerModel });
      const triage = new Agent({
        name: 'Triage',
        handoffs: [closer],
        model: new ScriptedModel([[fc('transfer_to_closer', {}, 'h1')]]),
      });
      const first = await runMode(() => ({ agent: triage, input: 'refund' }), stream);
      expect(first.result!.lastAgent.name).toBe('Closer');
      expect(first.result!.interruptions.map((i) => i.tool_name)).toEqual(['refund']);
      if (stream)
        expect(
          first.events.some(
            (e) => e.type === 'run_item_stream_event' && e.name === 'tool_approval_requested',
          ),
        ).toBe(true);
      const state = await RunState.fromString(triage, first.result!.state.toString());
      state.approve(state.getInterruptions()[0]);
      const second = await runMode(() => ({ agent: triage, input: state as any }), stream);
      expect(second.error).toBeUndefined();
      expect(second.result!.finalOutput).toBe('refunded');
      expect(second.result!.lastAgent.name).toBe('Closer');
      expect(refunds).toBe(1);
      expect(closerModel.requests).toHaveLength(2);
    });

    it('openai-agents-python#394: a blocking (runInParallel: false) input guardrail that trips means no model call at all', async () => {
      const model = new ScriptedModel([[msg('x')]]);
      const agent = new Agent({
        name: 'A',
        model,
        inputGuardrails: [
          inputGuardrail({
            name: 'gate',
            runInParallel: false,
            execute: () => ({ tripwireTriggered: true, outputInfo: null }),
          }),
        ],
      });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(out.error).toBeInstanceOf(InputGuardrailTripwireTriggered);
      expect(model.requests).toHaveLength(0);
    });

    it('openai-agents-python#1520: the usage of an agent used as a tool counts in the parent run', async () => {
      const inner = new Agent({
        name: 'Deep',
        model: new ScriptedModel([
          {
            output: [msg('deep answer')],
            usage: { inputTokens: 1000, outputTokens: 1, totalTokens: 1001 },
          },
        ]),
      });
      const outer = new Agent({
        name: 'Main',
        tools: [inner.asTool({ toolName: 'deep' })],
        model: new ScriptedModel([
          {
            output: [fc('deep', { input: 'q' }, 'o1')],
            usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
          },
          { output: [msg('ok')], usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } },
        ]),
      });
      const out = await runMode(() => ({ agent: outer, input: 'x' }), stream);
      expect(out.result!.usage).toMatchObject({
        requests: 3,
        inputTokens: 1020,
        outputTokens: 11,
        totalTokens: 1031,
      });
    });

    it("openai-agents-python: after a handoff the target's outputType parses the final output, and its output guardrail sees the parsed value", async () => {
      const seen: unknown[] = [];
      const targetModel = new ScriptedModel([[msg('{"n":5}')]]);
      const target = new Agent({
        name: 'T',
        outputType: z.object({ n: z.number() }),
        model: targetModel,
        outputGuardrails: [
          outputGuardrail({
            name: 'o',
            execute: ({ output }) => {
              seen.push(output);
              return { tripwireTriggered: false, outputInfo: null };
            },
          }),
        ],
      });
      const source = new Agent({
        name: 'S',
        handoffs: [target],
        model: new ScriptedModel([[fc('transfer_to_t', {}, 'h')]]),
      });
      const out = await runMode(() => ({ agent: source, input: 'x' }), stream);
      expect(out.result!.finalOutput).toEqual({ n: 5 });
      expect(seen).toEqual([{ n: 5 }]);
      expect(targetModel.requests[0].outputSchema).toBeDefined();
    });
  });
}

for (const stream of [false, true])
  for (const pause of ['fatal', 'approval'])
    it(`openai-agents-python#4621 (nested): an agent used as a tool that ${pause === 'fatal' ? 'fails' : 'pauses'} mid-turn resumes inside, its finished tool not run again (${stream ? 'streamed' : 'non-streamed'})`, async () => {
      const counts = { a: 0, b: 0 };
      let fail = pause === 'fatal';
      const a = tool({
        name: 'a',
        description: '',
        execute: async () => {
          await new Promise((r) => setTimeout(r, 1));
          return `a${++counts.a}`;
        },
      });
      const b = tool({
        name: 'b',
        description: '',
        errorFunction: null,
        needsApproval: pause === 'approval',
        execute: () => {
          counts.b++;
          if (fail) {
            fail = false;
            throw new Error('down');
          }
          return 'b ok';
        },
      });
      const innerModel = new ScriptedModel([
        [fc('a', {}, 'i1'), fc('b', {}, 'i2')],
        [msg('inner done')],
      ]);
      const inner = new Agent({ name: 'Inner', tools: [a, b], model: innerModel });
      const outerModel = new ScriptedModel([
        [fc('inner', { input: 'go' }, 'o1')],
        [msg('outer done')],
      ]);
      const outer = new Agent({
        name: 'Outer',
        tools: [inner.asTool({ toolName: 'inner' })],
        model: outerModel,
      });
      const r1 = await runMode(() => ({ agent: outer, input: 'x' }), stream);
      const st0 = pause === 'fatal' ? (r1.error as any)?.state : r1.result!.state;
      expect(st0).toBeDefined();
      const st = await RunState.fromString(outer, st0.toString());
      if (pause === 'approval') st.approve(st.getInterruptions()[0]);
      const r2 = await runMode(() => ({ agent: outer, input: st as any }), stream);
      expect(r2.error).toBeUndefined();
      expect(r2.result!.finalOutput).toBe('outer done');
      expect(counts.a).toBe(1);
      expect(innerModel.requests).toHaveLength(2);
    });
