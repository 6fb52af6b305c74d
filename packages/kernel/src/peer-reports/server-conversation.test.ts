/**
 * Approvals with a server-managed conversation (openai-agents-js#1114, openai-agents-python#2710:
 * a resumed run reuses the stored `previousResponseId` / `conversationId`), in both modes and
 * after a RunState JSON round trip: the resumed request continues from the last response and
 * sends only the outputs the server has not seen — the sibling that ran before the pause, and
 * the approved call — never the history again.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';

for (const stream of [false, true])
  describe(`server-managed conversation, approval resumed (${stream ? 'streamed' : 'non-streamed'})`, () => {
    for (const [name, options, expected] of [
      [
        'autoPreviousResponseId',
        { autoPreviousResponseId: true },
        { previousResponseId: 'resp_1' },
      ],
      ['conversationId', { conversationId: 'conv_1' }, { conversationId: 'conv_1' }],
    ] as const)
      it(`${name}: the resumed request sends only the two outputs`, async () => {
        const free = tool({ name: 'free', description: '', execute: () => 'f' });
        const gated = tool({
          name: 'gated',
          description: '',
          needsApproval: true,
          execute: () => 'g',
        });
        const model = new ScriptedModel([
          { output: [fc('free', {}, 'c1'), fc('gated', {}, 'c2')], responseId: 'resp_1' },
          { output: [msg('done')], responseId: 'resp_2' },
        ]);
        const agent = new Agent({ name: 'A', tools: [free, gated], model });
        const first = await runMode(() => ({ agent, input: 'x', options }), stream);
        const state = await RunState.fromString(agent, first.result!.state.toString());
        state.approve(state.getInterruptions()[0]);
        const second = await runMode(() => ({ agent, input: state as any, options }), stream);
        expect(second.result!.finalOutput).toBe('done');
        const resumed = model.requests[1];
        expect(resumed).toMatchObject(expected);
        expect(resumed.input).toEqual([
          { type: 'function_call_output', call_id: 'c1', output: 'f' },
          { type: 'function_call_output', call_id: 'c2', output: 'g' },
        ]);
      });
  });
