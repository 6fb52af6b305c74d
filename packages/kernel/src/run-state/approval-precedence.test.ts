import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import type { FunctionCallOutputItem } from '../items/item-types.js';
import { DEFAULT_REJECTION_TEXT } from '../loop/execute-tools.js';
import { tool } from '../tool/tool.js';
import { RunState } from './run-state.js';

function deleter(script: any[]) {
  const ran: number[] = [];
  const model = new ScriptedModel(script);
  const deleteFile = tool({
    name: 'delete_file',
    description: '',
    parameters: z.object({ n: z.number() }),
    needsApproval: true,
    execute: ({ n }) => {
      ran.push(n);
      return `deleted ${n}`;
    },
  });
  return { agent: new Agent({ name: 'Ops', model, tools: [deleteFile] }), model, ran };
}

const outputOf = (model: ScriptedModel, request: number, callId: string) =>
  model.requests[request].input.find(
    (i): i is FunctionCallOutputItem => i.type === 'function_call_output' && i.call_id === callId,
  )?.output;

/** One response with two calls of the same gated tool, then a final answer. */
const twoCalls = () => [
  [fc('delete_file', { n: 1 }, 'a'), fc('delete_file', { n: 2 }, 'b')],
  [msg('ok')],
];

describe('approval precedence: a decision for one call beats a standing decision', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`approve(always) then reject(other): the rejected call never runs (${mode}, after JSON)`, async () => {
      const { agent, model, ran } = deleter(twoCalls());
      const first = (await runMode(() => ({ agent, input: 'clean' }), stream)).result!;
      const [a, b] = first.interruptions;
      first.state.approve(a, { always: true });
      first.state.reject(b, { message: 'Keep file 2.' });
      const state = await RunState.fromString(agent, first.state.toString());
      const second = (await runMode(() => ({ agent, input: state as any }), stream)).result!;
      expect(second.finalOutput).toBe('ok');
      expect(ran).toEqual([1]);
      expect(outputOf(model, 1, 'b')).toBe('Keep file 2.');
    });

    it(`reject(other) then approve(always): the per-call rejection still wins (${mode})`, async () => {
      const { agent, model, ran } = deleter(twoCalls());
      const first = (await runMode(() => ({ agent, input: 'clean' }), stream)).result!;
      const [a, b] = first.interruptions;
      first.state.reject(b);
      first.state.approve(a, { always: true });
      const second = (await runMode(() => ({ agent, input: first.state as any }), stream)).result!;
      expect(ran).toEqual([1]);
      expect(outputOf(model, 1, 'b')).toBe(DEFAULT_REJECTION_TEXT);
      expect(second.finalOutput).toBe('ok');
    });

    it(`reject(always) then approve(one): only the approved call runs (${mode}, after JSON)`, async () => {
      const { agent, model, ran } = deleter(twoCalls());
      const first = (await runMode(() => ({ agent, input: 'clean' }), stream)).result!;
      const [a, b] = first.interruptions;
      first.state.reject(a, { always: true, message: 'No deletes.' });
      first.state.approve(b);
      const state = await RunState.fromString(agent, JSON.stringify(first.state));
      await runMode(() => ({ agent, input: state as any }), stream);
      expect(ran).toEqual([2]);
      expect(outputOf(model, 1, 'a')).toBe('No deletes.');
    });

    it(`"always" still decides calls nobody decided (${mode})`, async () => {
      const { agent, ran } = deleter([
        ...twoCalls().slice(0, 1),
        [fc('delete_file', { n: 3 }, 'c')],
        [msg('ok')],
      ]);
      const first = (await runMode(() => ({ agent, input: 'clean' }), stream)).result!;
      const [a, b] = first.interruptions;
      first.state.reject(b);
      first.state.approve(a, { always: true });
      const second = (await runMode(() => ({ agent, input: first.state as any }), stream)).result!;
      expect(second.interruptions).toEqual([]);
      expect(second.finalOutput).toBe('ok');
      expect(ran).toEqual([1, 3]);
    });
  }
});
