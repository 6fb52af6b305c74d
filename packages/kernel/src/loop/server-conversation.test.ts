import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import { handoff } from '../handoff/handoff.js';
import { removeAllTools } from '../handoff/handoff-filters.js';
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
      handoffs: [handoff(b, { inputFilter: removeAllTools })],
      model: m,
    });
    await expect(run(a, 'x', { conversationId: 'conv_1' })).rejects.toBeInstanceOf(UserError);
    expect(m.requests[0].conversationId).toBe('conv_1');
  });
});
