import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import {
  InputGuardrailTripwireTriggered,
  ModelBehaviorError,
  OutputGuardrailTripwireTriggered,
  UserError,
} from '../errors/errors.js';
import { inputGuardrail, outputGuardrail } from '../guardrail/guardrail.js';
import { type HandoffInputFilter, handoff } from '../handoff/handoff.js';
import type { Item, MessageItem } from '../items/item-types.js';
import { tool } from '../tool/tool.js';
import type { RunOptions } from './run-options.js';

/** A filter that keeps only the messages of the input history. */
const messagesOnly: HandoffInputFilter = (d) => ({
  ...d,
  inputHistory: d.inputHistory.filter((i) => i.type === 'message'),
  preHandoffItems: [],
  newItems: [],
});

const refusal = (text: string): MessageItem => ({
  type: 'message',
  role: 'assistant',
  content: [{ type: 'refusal', refusal: text }],
});

/** A probes a tool, then hands off to B (or to C through a handoff with its own filter). */
function desk(target: 'B' | 'C') {
  const seen: Record<string, Item[]> = {};
  const listener = (name: string) =>
    new Agent({
      name,
      model: new ScriptedModel([
        (req) => {
          seen[name] = req.input.slice();
          return [msg(`hi from ${name}`)];
        },
      ]),
    });
  const b = listener('B');
  const c = listener('C');
  const probe = tool({ name: 'probe', description: '', execute: () => 'probed' });
  const a = new Agent({
    name: 'A',
    tools: [probe],
    handoffs: [
      b,
      handoff(c, { inputFilter: (d) => ({ ...d, inputHistory: [], preHandoffItems: [] }) }),
    ],
    model: new ScriptedModel([
      [fc('probe', {}, 'p1')],
      [fc(`transfer_to_${target.toLowerCase()}`, {}, 'h1')],
    ]),
  });
  return { a, seen };
}

for (const stream of [false, true]) {
  const mode = stream ? 'streamed' : 'non-streamed';

  describe(`run-level guardrails (${mode})`, () => {
    it('inputGuardrails of the run run with the agent ones on the first turn; a tripwire stops the run', async () => {
      const calls: string[] = [];
      const guard = (name: string, trip: boolean) =>
        inputGuardrail({
          name,
          runInParallel: false,
          execute: () => {
            calls.push(name);
            return { tripwireTriggered: trip };
          },
        });
      const model = new ScriptedModel([[msg('never')]]);
      const agent = new Agent({ name: 'A', inputGuardrails: [guard('agent', false)], model });
      const { error } = await runMode(
        () => ({ agent, input: 'x', options: { inputGuardrails: [guard('run', true)] } }),
        stream,
      );
      expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
      expect((error as Error).message).toContain('"run"');
      expect(calls.sort()).toEqual(['agent', 'run']);
      expect(model.requests).toHaveLength(0);
    });

    it('outputGuardrails of the run judge the final output of whichever agent ends the run', async () => {
      const agent = new Agent({ name: 'A', model: new ScriptedModel([[msg('a secret')]]) });
      const options: RunOptions = {
        outputGuardrails: [
          outputGuardrail({
            name: 'no-secrets',
            execute: ({ output }) => ({ tripwireTriggered: String(output).includes('secret') }),
          }),
        ],
      };
      const { error } = await runMode(() => ({ agent, input: 'x', options }), stream);
      expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const ok = new Agent({ name: 'A', model: new ScriptedModel([[msg('fine')]]) });
      const { result } = await runMode(() => ({ agent: ok, input: 'x', options }), stream);
      expect(result!.outputGuardrailResults.map((r) => r.guardrailName)).toEqual(['no-secrets']);
    });
  });

  describe(`run-level handoff defaults (${mode})`, () => {
    it('handoffInputFilter applies to handoffs without a filter of their own; a handoff filter wins', async () => {
      const options: RunOptions = { handoffInputFilter: messagesOnly };
      const b = desk('B');
      await runMode(() => ({ agent: b.a, input: 'hello', options }), stream);
      expect(b.seen.B).toEqual([{ type: 'message', role: 'user', content: 'hello' }]);
      const c = desk('C');
      await runMode(() => ({ agent: c.a, input: 'hello', options }), stream);
      expect(c.seen.C.map((i) => i.type)).toEqual(['function_call', 'function_call_output']);
    });

    it('nestHandoffHistory folds the history for handoffs without a filter', async () => {
      const { a, seen } = desk('B');
      await runMode(
        () => ({ agent: a, input: 'hello', options: { nestHandoffHistory: true } }),
        stream,
      );
      expect(seen.B).toHaveLength(1);
      expect((seen.B[0] as MessageItem).content).toContain('user: hello');
      expect((seen.B[0] as MessageItem).content).toContain('tool call probe({})');
    });
  });

  describe(`errorHandlers.modelRefusal (${mode})`, () => {
    it('turns a refusal into the final output, for structured and for text output', async () => {
      const typed = new Agent({
        name: 'T',
        outputType: z.object({ answer: z.string() }),
        model: new ScriptedModel([[refusal('I cannot help with that.')]]),
      });
      const options: RunOptions = {
        errorHandlers: {
          modelRefusal: (_ctx, { refusal }) => ({ finalOutput: { answer: `refused: ${refusal}` } }),
        },
      };
      const a = await runMode(() => ({ agent: typed, input: 'x', options }), stream);
      expect(a.result!.finalOutput).toEqual({ answer: 'refused: I cannot help with that.' });
      const text = new Agent({ name: 'P', model: new ScriptedModel([[refusal('No.')]]) });
      const b = await runMode(() => ({ agent: text, input: 'x', options }), stream);
      expect(b.result!.finalOutput).toEqual({ answer: 'refused: No.' });
      const untouched = new Agent({
        name: 'T2',
        outputType: z.object({ answer: z.string() }),
        model: new ScriptedModel([[refusal('Nope.')]]),
      });
      const c = await runMode(() => ({ agent: untouched, input: 'x' }), stream);
      expect(c.error).toBeInstanceOf(ModelBehaviorError);
      const bad = await runMode(
        () => ({
          agent: new Agent({ name: 'P', model: new ScriptedModel([[refusal('No.')]]) }),
          input: 'x',
          options: { errorHandlers: { modelRefusal: () => 'oops' as never } },
        }),
        stream,
      );
      expect(bad.error).toBeInstanceOf(UserError);
    });
  });
}
