import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { run } from '../loop/run.js';
import { tool } from '../tool/tool.js';

describe('smoke', () => {
  it('runs a tool loop to a final answer', async () => {
    const calls: number[] = [];
    const add = tool({
      name: 'add',
      description: 'add',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => {
        calls.push(a + b);
        return a + b;
      },
    });
    const m = new ScriptedModel([[fc('add', { a: 1, b: 2 }, 'c1')], [msg('3')]]);
    const agent = new Agent({ name: 'A', instructions: 'hi', tools: [add], model: m });
    const result = await run(agent, 'what is 1+2');
    expect(result.finalOutput).toBe('3');
    expect(calls).toEqual([3]);
    expect(result.newItems.map((i) => i.type)).toEqual([
      'tool_call_item',
      'tool_call_output_item',
      'message_output_item',
    ]);
    expect(m.requests[1].input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'c1',
      output: '3',
    });
    const streamed = await run(
      agent.clone({ model: new ScriptedModel([[fc('add', { a: 1, b: 2 }, 'c1')], [msg('3')]]) }),
      'x',
      { stream: true },
    );
    let text = '';
    for await (const t of streamed.toTextStream()) text += t;
    expect(text).toBe('3');
    expect(streamed.finalOutput).toBe('3');
  });
});
