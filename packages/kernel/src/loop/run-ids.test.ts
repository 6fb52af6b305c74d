/**
 * Run ids (`state.runId`): `run_` + a per-process random tag + a counter, distinct for every
 * run, kept by a paused run's state across a JSON round trip and its resume.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { Agent, RunState, run, tool } from '../index.js';

/** `run_`, the tag (8 base-36 digits of the time + up to 6 random ones), the counter. */
const RUN_ID = /^run_[0-9a-z]{10,}$/;

describe('run ids (both modes)', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`are run_ + a per-process tag + a counter, distinct per run, kept across a JSON resume (${mode})`, async () => {
      const gated = tool({
        name: 'gated',
        description: '',
        needsApproval: true,
        execute: () => 'ran',
      });
      const agent = new Agent({
        name: 'A',
        model: new ScriptedModel([[fc('gated', {}, 'c1')], [msg('done')]]),
        tools: [gated],
      });
      const go = async (input: string | RunState) => {
        if (!stream) return run(agent, input);
        const result = await run(agent, input, { stream: true });
        for await (const _ of result);
        await result.completed;
        return result;
      };
      const paused = await go('go');
      const ids = [paused.state.runId];
      for (let i = 0; i < 3; i++)
        ids.push(
          (await run(new Agent({ name: 'B', model: new ScriptedModel([[msg('x')]]) }), 'hi')).state
            .runId,
        );
      for (const id of ids) expect(id).toMatch(RUN_ID);
      expect(new Set(ids).size).toBe(ids.length);

      const state = await RunState.fromString(agent, paused.state.toString());
      expect(state.runId).toBe(paused.state.runId);
      state.approve(state.getInterruptions()[0]);
      const resumed = await go(state);
      expect(resumed.finalOutput).toBe('done');
      expect(resumed.state.runId).toBe(paused.state.runId);
    });
  }
});
