/**
 * A final output that `toolUseBehavior` made from tool results and an output guardrail blocked
 * (openai-agents-js#1712, its guardrails guide "Rejected terminal tool outputs"): the blocked
 * results are withheld from the state — the tripwire error's state, its JSON, a resume's
 * history and the guardrail results — in both modes; a blocked model message is left as it was.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent, type ToolUseBehavior } from '../agent/agent.js';
import { OutputGuardrailTripwireTriggered, RunAbortedError } from '../errors/errors.js';
import { outputGuardrail } from '../guardrail/guardrail.js';
import { run } from '../loop/run.js';
import { OUTPUT_GUARDRAIL_WITHHELD_TEXT } from '../loop/run-guardrails.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';

const SECRET = 'SSN 123-45-6789';
const noPii = outputGuardrail({
  name: 'pii',
  execute: ({ output }) => ({
    tripwireTriggered: JSON.stringify(output ?? null).includes('123-45'),
    outputInfo: { quoted: output },
  }),
});
const other = outputGuardrail({
  name: 'other',
  execute: ({ output }) => ({ tripwireTriggered: false, outputInfo: { alsoQuoted: output } }),
});

const behaviors: [string, ToolUseBehavior][] = [
  ['stop_on_first_tool', 'stop_on_first_tool'],
  ['stopAtToolNames', { stopAtToolNames: ['lookup'] }],
  [
    'a function',
    (_ctx, results) => ({ isFinalOutput: true, finalOutput: results.map((r) => r.output) }),
  ],
];

function scenario(behavior: ToolUseBehavior) {
  const lookup = tool({ name: 'lookup', description: '', execute: () => SECRET });
  const weather = tool({ name: 'weather', description: '', execute: () => 'sunny' });
  const model = new ScriptedModel([
    [fc('lookup', {}, 'c1'), fc('weather', {}, 'c2')],
    [msg('fine')],
  ]);
  const agent = new Agent({
    name: 'A',
    tools: [lookup, weather],
    model,
    toolUseBehavior: behavior,
    outputGuardrails: [noPii, other],
  });
  return { agent, model };
}

for (const stream of [false, true])
  describe(`withheld tool outputs (${stream ? 'streamed' : 'non-streamed'})`, () => {
    for (const [label, behavior] of behaviors)
      it(`${label}: the blocked results are withheld from error.state, its JSON, the guardrail results and a resume`, async () => {
        const { agent, model } = scenario(behavior);
        const out = await runMode(() => ({ agent, input: 'who' }), stream);
        const error = out.error as OutputGuardrailTripwireTriggered;
        expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
        const state = error.state as RunState;
        const outputs = state.generatedItems.filter((i) => i.type === 'tool_call_output_item');
        // Every result of the turn is withheld (the output was made from all of them), call ids kept.
        expect(
          outputs.map((i) => [(i.raw_item as any).call_id, (i.raw_item as any).output, i.output]),
        ).toEqual([
          ['c1', OUTPUT_GUARDRAIL_WITHHELD_TEXT, OUTPUT_GUARDRAIL_WITHHELD_TEXT],
          ['c2', OUTPUT_GUARDRAIL_WITHHELD_TEXT, OUTPUT_GUARDRAIL_WITHHELD_TEXT],
        ]);
        expect(state.finalOutput).toBeUndefined();
        expect(error.result).toEqual({
          guardrailName: 'pii',
          agentName: 'A',
          output: { tripwireTriggered: true },
        });
        expect(state.outputGuardrailResults.map((r) => r.output)).toEqual([
          { tripwireTriggered: true },
          { tripwireTriggered: false },
        ]);
        const json = state.toString();
        expect(json).not.toContain('123-45');
        expect(JSON.stringify(error.result)).not.toContain('123-45');
        // A resume asks the model again, with the withheld text in place of the results.
        const resumed = await run(agent, await RunState.fromString(agent, json));
        expect(resumed.finalOutput).toBe('fine');
        const input = JSON.stringify(model.requests[1].input);
        expect(input).not.toContain('123-45');
        expect(input).toContain(OUTPUT_GUARDRAIL_WITHHELD_TEXT);
      });

    it('a run aborted while its guardrails judged the tool output, resumed from JSON: the trip withholds the results too', async () => {
      let hang = true;
      const judge = outputGuardrail({
        name: 'pii',
        execute: (args) => (hang ? new Promise<never>(() => {}) : noPii.execute(args)),
      });
      const lookup = tool({ name: 'lookup', description: '', execute: () => SECRET });
      const agent = new Agent({
        name: 'A',
        tools: [lookup],
        model: new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('fine')]]),
        toolUseBehavior: 'stop_on_first_tool',
        outputGuardrails: [judge],
      });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const stopped = await runMode(
        () => ({ agent, input: 'who', options: { signal: controller.signal } }),
        stream,
      );
      expect(stopped.error).toBeInstanceOf(RunAbortedError);
      const json = ((stopped.error as RunAbortedError).state as RunState).toString();
      expect(json).toContain('123-45'); // kept to be judged again
      hang = false;
      const resumed = await RunState.fromString(agent, json);
      const tripped = await runMode(() => ({ agent, input: resumed as never }), stream);
      expect(tripped.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const state = (tripped.error as OutputGuardrailTripwireTriggered).state as RunState;
      expect(state.toString()).not.toContain('123-45');
    });

    it('results that pass the guardrails are kept as they are', async () => {
      const lookup = tool({ name: 'lookup', description: '', execute: () => 'harmless' });
      const agent = new Agent({
        name: 'A',
        tools: [lookup],
        model: new ScriptedModel([[fc('lookup', {}, 'c1')]]),
        toolUseBehavior: 'stop_on_first_tool',
        outputGuardrails: [noPii],
      });
      const out = await runMode(() => ({ agent, input: 'who' }), stream);
      expect(out.error).toBeUndefined();
      expect(out.result!.finalOutput).toBe('harmless');
      expect(out.result!.outputGuardrailResults[0].output).toEqual({
        tripwireTriggered: false,
        outputInfo: { quoted: 'harmless' },
      });
    });

    it('tool results of an earlier turn stay when the model blocked message is the final output', async () => {
      const lookup = tool({ name: 'lookup', description: '', execute: () => 'looked up' });
      const agent = new Agent({
        name: 'A',
        tools: [lookup],
        model: new ScriptedModel([[fc('lookup', {}, 'c1')], [msg(SECRET)]]),
        outputGuardrails: [noPii],
      });
      const out = await runMode(() => ({ agent, input: 'who' }), stream);
      const error = out.error as OutputGuardrailTripwireTriggered;
      expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const state = error.state as RunState;
      const output = state.generatedItems.find((i) => i.type === 'tool_call_output_item')!;
      expect(output.output).toBe('looked up');
      // The guardrail's own detail stays for a blocked model message (as in openai-agents-js).
      expect(state.outputGuardrailResults[0].output).toEqual({
        tripwireTriggered: true,
        outputInfo: { quoted: SECRET },
      });
    });
  });
