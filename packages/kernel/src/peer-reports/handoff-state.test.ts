/**
 * Per-agent bookkeeping across handoffs, in both modes: the toolChoice reset is tracked per
 * agent (openai-agents-python#335, AgentToolUseTracker); a nesting input filter changes only
 * what the next model sees — the session and `history` keep every item
 * (openai-agents-python#2254); a streamed run's turn count moves while it runs
 * (openai-agents-js#1480).
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { handoff } from '../handoff/handoff.js';
import { nestHandoffHistory } from '../handoff/handoff-filters.js';
import { run } from '../loop/run.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';

for (const stream of [false, true]) {
  it(
    'openai-agents-python#335: the toolChoice reset is per agent across a handoff, ' +
      (stream ? 'streamed' : 'non-streamed'),
    async () => {
      const t = tool({ name: 'look', description: '', execute: () => 'x' });
      const bModel = new ScriptedModel([[fc('look', {}, 'b1')], [msg('b done')]]);
      const b = new Agent({
        name: 'B',
        tools: [t],
        model: bModel,
        modelSettings: { toolChoice: 'required' },
      });
      const aModel = new ScriptedModel([[fc('look', {}, 'a1')], [fc('transfer_to_b', {}, 'h')]]);
      const a = new Agent({
        name: 'A',
        tools: [t],
        handoffs: [b],
        model: aModel,
        modelSettings: { toolChoice: 'required' },
      });
      const r = await runMode(() => ({ agent: a, input: 'x' }), stream);
      expect(r.result!.finalOutput).toBe('b done');
      expect(aModel.requests.map((q) => q.modelSettings.toolChoice ?? 'auto')).toEqual([
        'required',
        'auto',
      ]);
      expect(bModel.requests.map((q) => q.modelSettings.toolChoice ?? 'auto')).toEqual([
        'required',
        'auto',
      ]);
    },
  );
  it(
    'openai-agents-python#2254: with a nesting handoff filter the session and history keep every item, ' +
      (stream ? 'streamed' : 'non-streamed'),
    async () => {
      const t = tool({ name: 'look', description: '', execute: () => 'DATA' });
      const b = new Agent({
        name: 'B',
        model: new ScriptedModel([[msg('b done')], [msg('b again')]]),
      });
      const a = new Agent({
        name: 'A',
        tools: [t],
        handoffs: [handoff(b, { inputFilter: nestHandoffHistory() })],
        model: new ScriptedModel([[fc('look', {}, 'a1')], [fc('transfer_to_b', {}, 'h')]]),
      });
      const session = new MemorySession();
      const r = await runMode(() => ({ agent: a, input: 'x', options: { session } }), stream);
      const stored = (await session.getItems()).map((i: any) => `${i.type}:${i.call_id ?? i.role}`);
      expect(stored).toEqual([
        'message:user',
        'function_call:a1',
        'function_call_output:a1',
        'function_call:h',
        'function_call_output:h',
        'message:assistant',
      ]);
      expect(r.result!.history.map((i: any) => `${i.type}:${i.call_id ?? i.role}`)).toEqual(stored);
    },
  );
}
it("openai-agents-js#1480: a streamed run's state.currentTurn counts the turns as they happen", async () => {
  const t = tool({ name: 'look', description: '', execute: () => 'x' });
  const a = new Agent({
    name: 'A',
    tools: [t],
    model: new ScriptedModel([[fc('look', {})], [fc('look', {})], [msg('done')]]),
  });
  const r = await run(a, 'x', { stream: true });
  const turns: number[] = [];
  for await (const e of r)
    if (e.type === 'run_item_stream_event' && e.name === 'tool_output')
      turns.push(r.state.currentTurn);
  await r.completed;
  expect(turns).toEqual([1, 2]);
  expect(r.state.currentTurn).toBe(3);
});
