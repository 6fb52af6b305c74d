/**
 * Approvals, sessions, max turns, usage and structured output as reported in the peers'
 * trackers, each in both modes and (where a run pauses) after a RunState JSON round trip.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { MaxTurnsExceededError, ModelBehaviorError } from '../errors/errors.js';
import { inputGuardrail } from '../guardrail/guardrail.js';
import type { Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';

const keyOf = (i: Item) =>
  `${i.type}:${(i as { call_id?: string }).call_id ?? (i as { role?: string }).role ?? ''}`;

for (const stream of [false, true]) {
  const mode = stream ? 'streamed' : 'non-streamed';
  describe(`peer run reports (${mode})`, () => {
    it('openai-agents-js#701/#702: approve and resume with a session — no duplicated function_call, input guardrails not re-run', async () => {
      for (const roundTrip of [false, true]) {
        let guardrailRuns = 0;
        let deletes = 0;
        const del = tool({
          name: 'delete_file',
          description: '',
          parameters: z.object({ path: z.string() }),
          needsApproval: true,
          execute: ({ path }) => `deleted ${path} (${++deletes})`,
        });
        const model = new ScriptedModel([
          [fc('delete_file', { path: '/tmp/a' }, 'c1')],
          [msg('done')],
        ]);
        const agent = new Agent({
          name: 'Ops',
          tools: [del],
          model,
          inputGuardrails: [
            inputGuardrail({
              name: 'count',
              execute: () => {
                guardrailRuns++;
                return { tripwireTriggered: false, outputInfo: null };
              },
            }),
          ],
        });
        const session = new MemorySession();
        const first = await runMode(
          () => ({ agent, input: 'clean', options: { session } }),
          stream,
        );
        expect(first.result!.interruptions).toHaveLength(1);
        const state = roundTrip
          ? await RunState.fromString(agent, first.result!.state.toString())
          : first.result!.state;
        const pending = state.getInterruptions()[0];
        expect(pending.tool_name).toBe('delete_file'); // openai-agents-js#993: rehydrated item
        state.approve(pending);
        const second = await runMode(
          () => ({ agent, input: state as any, options: { session } }),
          stream,
        );
        expect(second.result!.finalOutput).toBe('done');
        expect(deletes).toBe(1);
        expect(guardrailRuns).toBe(1);
        const stored = (await session.getItems()).map(keyOf);
        expect(stored).toEqual([
          'message:user',
          'function_call:c1',
          'function_call_output:c1',
          'message:assistant',
        ]);
        // The second model request saw the call once and its output once.
        expect(model.requests[1].input.map(keyOf)).toEqual(stored.slice(0, 3));
      }
    });

    it('openai-agents-python#2660: a rejection message reaches the model after a JSON round trip, and the tool never runs', async () => {
      let ran = 0;
      const t = tool({ name: 'wire', description: '', needsApproval: true, execute: () => ++ran });
      const model = new ScriptedModel([[fc('wire', {}, 'c1')], [msg('ok, not sent')]]);
      const agent = new Agent({ name: 'Bank', tools: [t], model });
      const first = await runMode(() => ({ agent, input: 'pay' }), stream);
      const state = await RunState.fromString(agent, JSON.stringify(first.result!.state));
      state.reject(state.getInterruptions()[0], { message: 'Compliance said no.' });
      const again = await RunState.fromString(agent, state.toString()); // decision survives JSON too
      const second = await runMode(() => ({ agent, input: again as any }), stream);
      expect(second.result!.finalOutput).toBe('ok, not sent');
      expect(ran).toBe(0);
      const out = model.requests[1].input.find((i) => i.type === 'function_call_output') as any;
      expect(out.output).toBe('Compliance said no.');
    });

    it('openai-agents-python: sessions keep the order across runs and never send an orphan tool output', async () => {
      const session = new MemorySession({
        initialItems: [
          { type: 'function_call_output', call_id: 'lost', output: 'orphan' } as Item,
          { type: 'message', role: 'user', content: 'earlier' },
          msg('earlier answer'),
        ],
      });
      const model = new ScriptedModel([[msg('one')], [msg('two')]]);
      const agent = new Agent({ name: 'A', model });
      await runMode(() => ({ agent, input: 'first', options: { session } }), stream);
      await runMode(() => ({ agent, input: 'second', options: { session } }), stream);
      const sent = model.requests[1].input;
      expect(sent.some((i) => i.type === 'function_call_output')).toBe(false);
      expect(sent.map((i) => (i.type === 'message' ? JSON.stringify(i.content) : i.type))).toEqual([
        '"earlier"',
        JSON.stringify(msg('earlier answer').content),
        '"first"',
        JSON.stringify(msg('one').content),
        '"second"',
      ]);
    });

    it('openai-agents-python: maxTurns raises MaxTurnsExceededError with a replayable history; errorHandlers.maxTurns ends it instead', async () => {
      const t = tool({ name: 'again', description: '', execute: () => 'more' });
      const make = () => {
        const model = new ScriptedModel([[fc('again', {})]], { whenExhausted: 'repeat_last' });
        return new Agent({ name: 'Loop', tools: [t], model });
      };
      const failed = await runMode(
        () => ({ agent: make(), input: 'x', options: { maxTurns: 2 } }),
        stream,
      );
      const error = failed.error as MaxTurnsExceededError;
      expect(error).toBeInstanceOf(MaxTurnsExceededError);
      const history = error.history ?? [];
      const calls = history.filter((i) => i.type === 'function_call').length;
      expect(calls).toBe(2);
      expect(history.filter((i) => i.type === 'function_call_output').length).toBe(calls);
      const handled = await runMode(
        () => ({
          agent: make(),
          input: 'x',
          options: {
            maxTurns: 2,
            errorHandlers: { maxTurns: () => ({ finalOutput: 'stopped' }) },
          },
        }),
        stream,
      );
      expect(handled.result!.finalOutput).toBe('stopped');
    });

    it('openai-agents-python#1722: usage is summed over every model call of the run, in streaming too', async () => {
      const t = tool({ name: 'step', description: '', execute: () => 'ok' });
      const model = new ScriptedModel([
        {
          output: [fc('step', {})],
          usage: { inputTokens: 100, outputTokens: 10, totalTokens: 110 },
        },
        {
          output: [fc('step', {})],
          usage: { inputTokens: 200, outputTokens: 20, totalTokens: 220 },
        },
        { output: [msg('done')], usage: { inputTokens: 300, outputTokens: 30, totalTokens: 330 } },
      ]);
      const agent = new Agent({ name: 'A', tools: [t], model });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(out.result!.usage).toMatchObject({
        requests: 3,
        inputTokens: 600,
        outputTokens: 60,
        totalTokens: 660,
      });
      expect(out.result!.state.usage).toMatchObject({ requests: 3, totalTokens: 660 });
    });

    it('openai-agents-python: invalid structured output is a ModelBehaviorError carrying the raw text (never a raw SyntaxError), or handled by errorHandlers.invalidFinalOutput', async () => {
      const Out = z.object({ city: z.string(), temp: z.number() });
      for (const raw of ['{"city": "Paris", "temp": ', '{"city": "Paris", "temp": "warm"}', '']) {
        const make = () =>
          new Agent({ name: 'W', outputType: Out, model: new ScriptedModel([[msg(raw)]]) });
        const failed = await runMode(() => ({ agent: make(), input: 'x' }), stream);
        expect(failed.error).toBeInstanceOf(ModelBehaviorError);
        expect((failed.error as ModelBehaviorError).rawText).toBe(raw);
        const handled = await runMode(
          () => ({
            agent: make(),
            input: 'x',
            options: {
              errorHandlers: {
                invalidFinalOutput: (_c, info) => ({ finalOutput: { raw: info.rawText } }),
              },
            },
          }),
          stream,
        );
        expect(handled.result!.finalOutput).toEqual({ raw });
      }
    });
  });
}
