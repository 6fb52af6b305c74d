import { Agent, run, UserError } from '@baton/kernel';
import { msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { RealtimeAgent } from './realtime-agent.js';

describe('RealtimeAgent', () => {
  it('is a kernel Agent: clone keeps it realtime and keeps the voice', () => {
    const agent = new RealtimeAgent({ name: 'Desk', instructions: 'Hi', voice: 'marin' });
    const copy = agent.clone({ instructions: 'Hello' });
    expect(copy).toBeInstanceOf(RealtimeAgent);
    expect(copy).toBeInstanceOf(Agent);
    expect([copy.voice, copy.instructions, copy.name]).toEqual(['marin', 'Hello', 'Desk']);
  });

  it('refuses the options a shared realtime model cannot honour', () => {
    for (const key of ['model', 'modelSettings', 'outputType', 'toolUseBehavior']) {
      expect(() => new RealtimeAgent({ name: 'X', [key]: {} } as never)).toThrow(UserError);
    }
    expect(() => new RealtimeAgent({ name: 'X', voice: 3 as never })).toThrow(/voice/);
  });

  it('runs as a text agent with a model given to run()', async () => {
    const agent = new RealtimeAgent({ name: 'Desk', instructions: 'Be brief.' });
    const model = new ScriptedModel([[msg('Hi there.')]]);
    const result = await run(agent, 'Hello', { model });
    expect(result.finalOutput).toBe('Hi there.');
    expect(model.requests[0].systemInstructions).toBe('Be brief.');
  });
});
