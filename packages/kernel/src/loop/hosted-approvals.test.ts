import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import type { HostedItem } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { type HostedTool, tool } from '../tool/tool.js';

const mcp: HostedTool = {
  type: 'hosted_tool',
  name: 'mcp_files',
  providerId: 'openai',
  providerData: { type: 'mcp', server_label: 'files' },
};
const request = (id: string): HostedItem => ({
  type: 'mcp_approval_request',
  id,
  name: 'delete_file',
  arguments: '{"path":"/tmp/x"}',
  server_label: 'files',
});
const answers = (input: { type: string }[]) =>
  input.filter((i) => i.type === 'mcp_approval_response');

describe('hosted approval requests in the loop', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`a hosted request and a gated function call pause together; each is answered once after JSON (${mode})`, async () => {
      let wiped = 0;
      const wipe = tool({
        name: 'wipe',
        description: '',
        needsApproval: true,
        execute: () => `wiped ${++wiped}`,
      });
      const model = new ScriptedModel([
        [request('mcpr_1'), fc('wipe', {}, 'w1')],
        [msg('both done')],
      ]);
      const agent = new Agent({ name: 'Ops', tools: [mcp, wipe], model });
      const first = (await runMode(() => ({ agent, input: 'clean up' }), stream)).result!;
      expect(first.interruptions.map((i) => [i.tool_name, i.call_id])).toEqual([
        ['wipe', 'w1'],
        ['delete_file', 'mcpr_1'],
      ]);
      const state = await RunState.fromString(agent, first.state.toString());
      for (const item of state.getInterruptions()) state.approve(item);
      const second = (await runMode(() => ({ agent, input: state as any }), stream)).result!;
      expect(second.finalOutput).toBe('both done');
      expect(wiped).toBe(1);
      expect(model.requests).toHaveLength(2);
      expect(answers(model.requests[1].input)).toEqual([
        { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true },
      ]);
    });

    it(`approve({ always: true }) of a hosted request decides its later requests without a pause (${mode})`, async () => {
      const model = new ScriptedModel([[request('mcpr_1')], [request('mcpr_2')], [msg('done')]]);
      const agent = new Agent({ name: 'Ops', tools: [mcp], model });
      const first = (await runMode(() => ({ agent, input: 'go' }), stream)).result!;
      first.state.approve(first.interruptions[0], { always: true });
      const second = (await runMode(() => ({ agent, input: first.state as any }), stream)).result!;
      expect(second.interruptions).toEqual([]);
      expect(second.finalOutput).toBe('done');
      expect(answers(model.requests[2].input).map((i: any) => i.approval_request_id)).toEqual([
        'mcpr_1',
        'mcpr_2',
      ]);
    });
  }

  it('a hosted request inside an agent used as a tool pauses the parent (path = the parent call)', async () => {
    const sub = new Agent({
      name: 'Files',
      tools: [mcp],
      model: new ScriptedModel([[request('mcpr_9')], [msg('deleted')]]),
    });
    const parent = new Agent({
      name: 'Boss',
      tools: [sub.asTool({ toolName: 'ask_files' })],
      model: new ScriptedModel([[fc('ask_files', { input: 'delete x' }, 'p1')], [msg('ok')]]),
    });
    const first = (await runMode(() => ({ agent: parent, input: 'go' }), false)).result!;
    expect(first.interruptions.map((i) => [i.tool_name, i.call_id, i.path])).toEqual([
      ['delete_file', 'mcpr_9', ['p1']],
    ]);
    const state = await RunState.fromString(parent, first.state.toString());
    state.reject(state.getInterruptions()[0], { message: 'not today' });
    const second = (await runMode(() => ({ agent: parent, input: state as any }), false)).result!;
    expect(second.finalOutput).toBe('ok');
    const subRequests = (sub.model as ScriptedModel).requests;
    expect(answers(subRequests[1].input)).toEqual([
      {
        type: 'mcp_approval_response',
        approval_request_id: 'mcpr_9',
        approve: false,
        reason: 'not today',
      },
    ]);
  });
});
