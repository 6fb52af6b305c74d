/**
 * Tool-call behaviour reported as bugs in the peers' trackers, each run in both modes (and, where
 * a run pauses, after a RunState JSON round trip). The issue each case comes from is in its name.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import type { FunctionCallOutputItem, Item } from '../items/item-types.js';
import type { ModelRequest } from '../model/model.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';

const outputsOf = (items: Item[]) =>
  items
    .filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output')
    .map((i) => [i.call_id, i.output]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const stream of [false, true]) {
  const mode = stream ? 'streamed' : 'non-streamed';
  describe(`peer tool reports (${mode})`, () => {
    it('openai-agents-js#664: a call with `arguments: ""` runs a no-parameter tool with {}', async () => {
      const seen: unknown[] = [];
      const ping = tool({
        name: 'ping',
        description: '',
        execute: (args) => {
          seen.push(args);
          return 'pong';
        },
      });
      const model = new ScriptedModel([[fc('ping', '', 'c1')], [msg('done')]]);
      const agent = new Agent({ name: 'A', tools: [ping], model });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(out.error).toBeUndefined();
      expect(out.result!.finalOutput).toBe('done');
      expect(seen).toEqual([{}]);
      expect(outputsOf(model.requests[1].input)).toEqual([['c1', 'pong']]);
    });

    it('openai-agents-js#664 (variation): malformed or empty JSON for a tool with required parameters goes back to the model as an error, the tool never runs', async () => {
      let ran = 0;
      const add = tool({
        name: 'add',
        description: '',
        parameters: z.object({ a: z.number() }),
        execute: ({ a }) => {
          ran++;
          return String(a + 1);
        },
      });
      const model = new ScriptedModel([
        [fc('add', '{"a": 1', 'c1'), fc('add', '', 'c2'), fc('add', { a: 'one' }, 'c3')],
        [msg('gave up')],
      ]);
      const agent = new Agent({ name: 'A', tools: [add], model });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(out.error).toBeUndefined();
      expect(out.result!.finalOutput).toBe('gave up');
      expect(ran).toBe(0);
      const sent = outputsOf(model.requests[1].input);
      expect(sent.map(([id]) => id)).toEqual(['c1', 'c2', 'c3']);
      // Each says what was wrong so the model can correct the call (not the redacted text).
      for (const [, output] of sent) expect(String(output)).toContain('arguments for tool "add"');
      expect(String(sent[0][1])).toMatch(/Invalid JSON/);
      expect(String(sent[1][1])).toMatch(/expected number/);
    });

    it('openai-agents-python#263/#335: a forced toolChoice is reset to auto after a tool call (no loop); resetToolChoice:false keeps it', async () => {
      for (const reset of [true, false]) {
        const t = tool({ name: 'lookup', description: '', execute: () => 'found' });
        const model = new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('answer')]]);
        const agent = new Agent({
          name: 'A',
          tools: [t],
          model,
          modelSettings: { toolChoice: 'required' },
          resetToolChoice: reset,
        });
        const out = await runMode(() => ({ agent, input: 'x' }), stream);
        expect(out.result!.finalOutput).toBe('answer');
        expect(model.requests[0].modelSettings.toolChoice).toBe('required');
        if (reset) expect(model.requests[1].modelSettings.toolChoice ?? 'auto').toBe('auto');
        else expect(model.requests[1].modelSettings.toolChoice).toBe('required');
      }
    });

    it('openai-agents-python#335 (variation): the tool-use reset survives an approval pause and a RunState JSON round trip', async () => {
      const t = tool({
        name: 'lookup',
        description: '',
        needsApproval: true,
        execute: () => 'found',
      });
      const other = tool({ name: 'noop', description: '', execute: () => 'ok' });
      const model = new ScriptedModel([
        [fc('noop', {}, 'c0')],
        [fc('lookup', {}, 'c1')],
        [msg('answer')],
      ]);
      const agent = new Agent({
        name: 'A',
        tools: [t, other],
        model,
        modelSettings: { toolChoice: 'lookup' },
      });
      const first = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(first.result!.interruptions).toHaveLength(1);
      const state = await RunState.fromString(agent, first.result!.state.toString());
      state.approve(state.getInterruptions()[0]);
      const second = await runMode(() => ({ agent, input: state as any }), stream);
      expect(second.result!.finalOutput).toBe('answer');
      expect(model.requests[0].modelSettings.toolChoice).toBe('lookup');
      expect(model.requests[1].modelSettings.toolChoice ?? 'auto').toBe('auto');
      expect(model.requests[2].modelSettings.toolChoice ?? 'auto').toBe('auto');
    });

    it('openai-agents-python#203: stop_on_first_tool with parallel calls takes the first call in response order, not the first to finish; no second model call', async () => {
      const slow = tool({
        name: 'slow',
        description: '',
        execute: async () => {
          await sleep(30);
          return 'slow result';
        },
      });
      const fast = tool({ name: 'fast', description: '', execute: () => 'fast result' });
      const model = new ScriptedModel([[fc('slow', {}, 'c1'), fc('fast', {}, 'c2')]]);
      const agent = new Agent({
        name: 'A',
        tools: [slow, fast],
        model,
        toolUseBehavior: 'stop_on_first_tool',
      });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(out.result!.finalOutput).toBe('slow result');
      expect(model.requests).toHaveLength(1);
    });

    it('openai-agents-js#247: an agent with stopAtToolNames used as a tool returns that tool output to the parent without a customOutputExtractor', async () => {
      const query = tool({ name: 'query_logs', description: '', execute: () => 'L'.repeat(5000) });
      const filters = tool({ name: 'filters', description: '', execute: () => 'f' });
      const inner = new Agent({
        name: 'Logs',
        tools: [filters, query],
        model: new ScriptedModel([[fc('filters', {}, 'i1')], [fc('query_logs', {}, 'i2')]]),
        toolUseBehavior: { stopAtToolNames: ['query_logs'] },
      });
      const outerModel = new ScriptedModel([[fc('get_logs', { input: 'q' }, 'o1')], [msg('ok')]]);
      const outer = new Agent({
        name: 'Boss',
        tools: [inner.asTool({ toolName: 'get_logs', toolDescription: 'logs' })],
        model: outerModel,
      });
      const out = await runMode(() => ({ agent: outer, input: 'x' }), stream);
      expect(out.result!.finalOutput).toBe('ok');
      expect(outputsOf(outerModel.requests[1].input)).toEqual([['o1', 'L'.repeat(5000)]]);
    });

    it('parallel tool calls run concurrently and their outputs go back in call order, each call_id once', async () => {
      let running = 0;
      let peak = 0;
      const mk = (name: string, ms: number) =>
        tool({
          name,
          description: '',
          execute: async () => {
            running++;
            peak = Math.max(peak, running);
            await sleep(ms);
            running--;
            return name;
          },
        });
      const model = new ScriptedModel([
        [fc('a', {}, 'c1'), fc('b', {}, 'c2'), fc('c', {}, 'c3')],
        [msg('done')],
      ]);
      const agent = new Agent({ name: 'A', tools: [mk('a', 30), mk('b', 10), mk('c', 1)], model });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(out.result!.finalOutput).toBe('done');
      expect(peak).toBe(3);
      const input = model.requests[1].input;
      expect(outputsOf(input)).toEqual([
        ['c1', 'a'],
        ['c2', 'b'],
        ['c3', 'c'],
      ]);
      const kinds = input.map((i) => `${i.type}:${(i as any).call_id ?? ''}`);
      expect(kinds).toEqual([
        'message:',
        'function_call:c1',
        'function_call:c2',
        'function_call:c3',
        'function_call_output:c1',
        'function_call_output:c2',
        'function_call_output:c3',
      ]);
    });

    it('vercel/ai: a tool that throws goes back to the model as an error output and the run continues (the next request carries it)', async () => {
      const t = tool({
        name: 'flaky',
        description: '',
        execute: () => {
          throw new Error('boom');
        },
      });
      const model = new ScriptedModel([[fc('flaky', {}, 'c1')], [msg('sorry')]]);
      const agent = new Agent({ name: 'A', tools: [t], model });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(out.result!.finalOutput).toBe('sorry');
      const sent = outputsOf(model.requests[1].input);
      expect(sent).toHaveLength(1);
      expect(sent[0][0]).toBe('c1');
      expect(typeof sent[0][1]).toBe('string');
      expect(out.result!.newItems.map((i) => i.type)).toEqual([
        'tool_call_item',
        'tool_call_output_item',
        'message_output_item',
      ]);
    });

    it('openai-agents-python#117: toolChoice "none" in run modelSettings is sent as is on every request', async () => {
      const t = tool({ name: 'lookup', description: '', execute: () => 'found' });
      const model = new ScriptedModel([[msg('plain')]]);
      const agent = new Agent({ name: 'A', tools: [t], model });
      const out = await runMode(
        () => ({ agent, input: 'x', options: { modelSettings: { toolChoice: 'none' } } }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('plain');
      const req: ModelRequest = model.requests[0];
      expect(req.modelSettings.toolChoice).toBe('none');
    });
  });
}
