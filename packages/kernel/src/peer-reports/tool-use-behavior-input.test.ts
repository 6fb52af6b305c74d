/**
 * Bad `toolUseBehavior` input gets a clear UserError, never a raw TypeError or a silent wrong
 * stop: a config that is none of the four forms (a typo'd name, `stopAtToolNames` as a string,
 * whose substring match stopped at other tools), and a function that returns no decision — in
 * both modes, with the run's state on the error, resumable after a JSON round trip. And an abort
 * ends a toolUseBehavior function that hangs (it held the aborted run forever).
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent, type ToolUseBehavior } from '../agent/agent.js';
import { RunAbortedError, UserError } from '../errors/errors.js';
import { run } from '../loop/run.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';

const lookup = tool({ name: 'lookup', description: '', execute: () => 'found' });

describe('toolUseBehavior config', () => {
  for (const bad of [
    'stop_on_first',
    { stopAtToolNames: 'lookup_all' },
    { stopAtToolNames: [1] },
    {},
  ])
    it(`${JSON.stringify(bad)} is refused when the agent is made`, () => {
      expect(
        () => new Agent({ name: 'A', tools: [lookup], toolUseBehavior: bad as ToolUseBehavior }),
      ).toThrow(UserError);
      expect(
        () => new Agent({ name: 'A', tools: [lookup], toolUseBehavior: bad as ToolUseBehavior }),
      ).toThrow(/toolUseBehavior/);
    });
});

for (const stream of [false, true])
  describe(`a toolUseBehavior function without a decision (${stream ? 'streamed' : 'non-streamed'})`, () => {
    for (const returned of [undefined, null, 'yes', { isFinalOutput: 'true' }])
      it(`returning ${JSON.stringify(returned)}: a UserError naming the agent, with a resumable state`, async () => {
        let answer: unknown = returned;
        const agent = new Agent({
          name: 'A',
          tools: [lookup],
          model: new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('done')]]),
          toolUseBehavior: (() => answer) as never,
        });
        const out = await runMode(() => ({ agent, input: 'who' }), stream);
        const error = out.error as UserError;
        expect(error).toBeInstanceOf(UserError);
        expect(error.message).toMatch(/Agent "A".*toolUseBehavior.*isFinalOutput/);
        const state = await RunState.fromString(agent, (error.state as RunState).toString());
        answer = { isFinalOutput: false };
        const resumed = await run(agent, state);
        expect(resumed.finalOutput).toBe('done');
      });

    it('a toolUseBehavior function that hangs: the abort ends the run, the results kept; a resume from JSON finishes', async () => {
      let hang = true;
      let ran = 0;
      const count = tool({ name: 'count', description: '', execute: () => `ran ${++ran}` });
      const agent = new Agent({
        name: 'A',
        tools: [count],
        model: new ScriptedModel([[fc('count', {}, 'c1')], [msg('done')]]),
        toolUseBehavior: () => (hang ? new Promise<never>(() => {}) : { isFinalOutput: false }),
      });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const late = new Promise((r) =>
        setTimeout(() => r('still waiting 2 s after the abort'), 2_000),
      );
      const out = await Promise.race([
        runMode(() => ({ agent, input: 'who', options: { signal: controller.signal } }), stream),
        late,
      ]);
      const error = (out as { error?: unknown }).error as RunAbortedError;
      expect(error).toBeInstanceOf(RunAbortedError);
      hang = false;
      const state = await RunState.fromString(agent, (error.state as RunState).toString());
      expect(state.generatedItems.map((i) => i.raw_item.type)).toEqual([
        'function_call',
        'function_call_output',
      ]);
      const resumed = await run(agent, state);
      expect(resumed.finalOutput).toBe('done');
      expect(ran).toBe(1);
    });
  });
