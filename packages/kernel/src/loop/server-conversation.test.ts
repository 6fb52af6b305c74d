import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import { handoff } from '../handoff/handoff.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';
import { run } from './run.js';

describe('server-managed conversations', () => {
  it('autoPreviousResponseId sends only new items each turn, also after an approval pause in another state object', async () => {
    const m = new ScriptedModel([
      { output: [fc('lookup', { q: 'a' }, 'c1'), fc('wipe', {}, 'c2')], responseId: 'resp_1' },
      { output: [msg('done')], responseId: 'resp_2' },
    ]);
    const lookup = tool({
      name: 'lookup',
      description: '',
      parameters: z.object({ q: z.string() }),
      execute: () => 'found',
    });
    const wipe = tool({
      name: 'wipe',
      description: '',
      needsApproval: true,
      execute: () => 'wiped',
    });
    const agent = new Agent({ name: 'A', tools: [lookup, wipe], model: m });
    const r1 = await run(agent, 'hello', { autoPreviousResponseId: true });
    expect(m.requests[0]).toMatchObject({
      previousResponseId: undefined,
      input: [{ type: 'message', role: 'user', content: 'hello' }],
    });
    const state = await RunState.fromString(agent, r1.state.toString());
    state.approve(state.getInterruptions()[0]);
    const r2 = await run(agent, state);
    expect(r2.finalOutput).toBe('done');
    expect(m.requests[1].previousResponseId).toBe('resp_1');
    // only the two outputs: the server already has the user message and both calls
    expect(m.requests[1].input.map((i) => [i.type, (i as any).call_id])).toEqual([
      ['function_call_output', 'c1'],
      ['function_call_output', 'c2'],
    ]);
  });

  it('conversationId is passed through; a handoff inputFilter with it is refused', async () => {
    const b = new Agent({ name: 'B', model: new ScriptedModel([[msg('b')]]) });
    const m = new ScriptedModel([[fc('transfer_to_b', {}, 'h1')]]);
    const a = new Agent({
      name: 'A',
      handoffs: [handoff(b, { inputFilter: (data) => data })],
      model: m,
    });
    await expect(run(a, 'x', { conversationId: 'conv_1' })).rejects.toBeInstanceOf(UserError);
    expect(m.requests[0].conversationId).toBe('conv_1');
  });

  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';
    const chained = () => {
      const m = new ScriptedModel([
        { output: [fc('lookup', { q: 'a' }, 'c1')], responseId: 'resp_1' },
        { output: [fc('wipe', {}, 'c2')], responseId: 'resp_2' },
        { output: [fc('lookup', { q: 'b' }, 'c3')], responseId: 'resp_3' },
        { output: [msg('done')], responseId: 'resp_4' },
      ]);
      const lookup = tool({
        name: 'lookup',
        description: '',
        parameters: z.object({ q: z.string() }),
        execute: () => 'found',
      });
      const wipe = tool({
        name: 'wipe',
        description: '',
        needsApproval: true,
        execute: () => 'wiped',
      });
      return { m, agent: new Agent({ name: 'A', tools: [lookup, wipe], model: m }) };
    };

    it(`a run started with previousResponseId chains every later call to the latest response, across tool turns, a pause and JSON (${mode})`, async () => {
      const { m, agent } = chained();
      const first = await runMode(
        () => ({ agent, input: 'hello', options: { previousResponseId: 'resp_0' } }),
        stream,
      );
      const state = await RunState.fromString(agent, first.result!.state.toString());
      state.approve(state.getInterruptions()[0]);
      const second = await runMode(() => ({ agent, input: state as any }), stream);
      expect(second.result!.finalOutput).toBe('done');
      expect(m.requests.map((r) => r.previousResponseId)).toEqual([
        'resp_0',
        'resp_1',
        'resp_2',
        'resp_3',
      ]);
      expect(m.requests.map((r) => r.input.map((i) => (i as any).call_id ?? i.type))).toEqual([
        ['message'],
        ['c1'],
        ['c2'],
        ['c3'],
      ]);
    });

    it(`an explicit previousResponseId or conversationId given to the resume wins over the stored one (${mode})`, async () => {
      const { m, agent } = chained();
      const first = await runMode(
        () => ({ agent, input: 'hello', options: { previousResponseId: 'resp_0' } }),
        stream,
      );
      first.result!.state.approve(first.result!.interruptions[0]);
      const json = first.result!.state.toString();
      const state = await RunState.fromString(agent, json);
      await runMode(
        () => ({ agent, input: state as any, options: { previousResponseId: 'resp_other' } }),
        stream,
      );
      expect(m.requests[2].previousResponseId).toBe('resp_other');
      expect(m.requests[3].previousResponseId).toBe('resp_3');

      const { m: m2, agent: agent2 } = chained();
      const paused = await runMode(
        () => ({ agent: agent2, input: 'hello', options: { conversationId: 'conv_a' } }),
        stream,
      );
      paused.result!.state.approve(paused.result!.interruptions[0]);
      const restored = await RunState.fromString(agent2, paused.result!.state.toString());
      await runMode(
        () => ({ agent: agent2, input: restored as any, options: { conversationId: 'conv_b' } }),
        stream,
      );
      expect(m2.requests.map((r) => [r.conversationId, r.previousResponseId])).toEqual([
        ['conv_a', undefined],
        ['conv_a', undefined],
        ['conv_b', undefined],
        ['conv_b', undefined],
      ]);
    });
  }
});
