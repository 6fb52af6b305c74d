import { Agent, type HandoffInputData, handoff, type Item, run, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { keepLastN, removeAllTools } from './handoff-filters.js';

const view = (inputHistory: Item[]): HandoffInputData => ({
  inputHistory,
  preHandoffItems: [],
  newItems: [],
  runContext: {} as HandoffInputData['runContext'],
});

describe('handoff filters', () => {
  for (const stream of [false, true]) {
    it(`removeAllTools hides tool calls and handoffs from the next agent, not from newItems (stream: ${stream})`, async () => {
      let seen: Item[] = [];
      const b = new Agent({
        name: 'B',
        model: new ScriptedModel([
          (req) => {
            seen = req.input.slice();
            return [msg('hi from B')];
          },
        ]),
      });
      const probe = tool({ name: 'probe', description: '', execute: () => 'probed' });
      const a = new Agent({
        name: 'A',
        tools: [probe],
        handoffs: [handoff(b, { inputFilter: removeAllTools })],
        model: new ScriptedModel([[fc('probe', {}, 'c1')], [fc('transfer_to_b', {}, 'h1')]]),
      });
      const result = stream ? await run(a, 'hello', { stream: true }) : await run(a, 'hello');
      if ('completed' in result) {
        for await (const _ of result) {
          /* drain */
        }
        await result.completed;
      }
      expect(seen).toEqual([{ type: 'message', role: 'user', content: 'hello' }]);
      expect(result.finalOutput).toBe('hi from B');
      expect(result.newItems.filter((i) => i.type === 'tool_call_item')).toHaveLength(1);
    });
  }

  it('keepLastN keeps the last n items and never starts with an orphan output', async () => {
    const keep = await keepLastN(2)(
      view([
        { type: 'message', role: 'user', content: 'a' },
        { type: 'function_call', call_id: 'x', name: 'n', arguments: '{}' },
        { type: 'function_call_output', call_id: 'x', output: 'o' },
      ]),
    );
    expect(keep.inputHistory).toEqual([
      { type: 'function_call', call_id: 'x', name: 'n', arguments: '{}' },
      { type: 'function_call_output', call_id: 'x', output: 'o' },
    ]);
    const cut = await keepLastN(1)(view(keep.inputHistory));
    expect(cut.inputHistory).toEqual([]);
  });
});
