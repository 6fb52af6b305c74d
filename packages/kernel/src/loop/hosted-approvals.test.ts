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

describe("a hosted tool's onApproval callback (both modes)", () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`decides its server's requests without a pause, once each; other servers' requests still pause (${mode})`, async () => {
      const asked: string[] = [];
      const files: HostedTool = {
        ...mcp,
        onApproval: (_ctx, r) => {
          asked.push(String(r.id));
          return r.id === 'mcpr_ok'
            ? { approve: true, reason: 'dropped' }
            : { approve: false, reason: 'too risky' };
        },
      };
      const mail: HostedTool = {
        type: 'hosted_tool',
        name: 'mcp_mail',
        providerId: 'openai',
        providerData: { type: 'mcp', server_label: 'mail' },
      };
      const mailRequest: HostedItem = {
        type: 'mcp_approval_request',
        id: 'mcpr_mail',
        name: 'send',
        arguments: '{"to":"x"}',
        server_label: 'mail',
      };
      const model = new ScriptedModel([
        [request('mcpr_ok'), request('mcpr_no'), mailRequest],
        [msg('handled')],
      ]);
      const agent = new Agent({ name: 'Ops', tools: [mail, files], model });
      const first = (await runMode(() => ({ agent, input: 'go' }), stream)).result!;
      // The mail server has no callback: its request pauses the run.
      expect(first.interruptions.map((i) => [i.tool_name, i.call_id, i.arguments])).toEqual([
        ['send', 'mcpr_mail', '{"to":"x"}'],
      ]);
      expect(asked).toEqual(['mcpr_ok', 'mcpr_no']);
      expect(first.state.isApproved('delete_file', 'mcpr_ok')).toBe(true);
      expect(first.state.isApproved('delete_file', 'mcpr_no')).toBe(false);
      const state = await RunState.fromString(agent, first.state.toString());
      state.approve(state.getInterruptions()[0]);
      const second = (await runMode(() => ({ agent, input: state as any }), stream)).result!;
      expect(second.finalOutput).toBe('handled');
      expect(asked).toEqual(['mcpr_ok', 'mcpr_no']); // not asked again on resume
      expect(answers(model.requests[1].input)).toEqual([
        { type: 'mcp_approval_response', approval_request_id: 'mcpr_ok', approve: true },
        {
          type: 'mcp_approval_response',
          approval_request_id: 'mcpr_no',
          approve: false,
          reason: 'too risky',
        },
        { type: 'mcp_approval_response', approval_request_id: 'mcpr_mail', approve: true },
      ]);
    });

    it(`an "always" decision recorded in the state wins over the callback, with its message (${mode})`, async () => {
      let asked = 0;
      const files: HostedTool = { ...mcp, onApproval: () => (++asked, { approve: true }) };
      const other: HostedTool = {
        ...mcp,
        name: 'mcp_other',
        providerData: { type: 'mcp', server_label: 'other' },
      };
      const model = new ScriptedModel([
        [{ ...request('mcpr_1'), server_label: 'other' }],
        [request('mcpr_2')],
        [msg('done')],
      ]);
      const agent = new Agent({ name: 'Ops', tools: [other, files], model });
      const first = (await runMode(() => ({ agent, input: 'go' }), stream)).result!;
      expect(first.interruptions.map((i) => i.call_id)).toEqual(['mcpr_1']);
      first.state.reject(first.interruptions[0], { always: true, message: 'no deletions' });
      const second = (await runMode(() => ({ agent, input: first.state as any }), stream)).result!;
      expect(second.finalOutput).toBe('done');
      expect(asked).toBe(0);
      expect(answers(model.requests[2].input)).toEqual([
        {
          type: 'mcp_approval_response',
          approval_request_id: 'mcpr_1',
          approve: false,
          reason: 'no deletions',
        },
        {
          type: 'mcp_approval_response',
          approval_request_id: 'mcpr_2',
          approve: false,
          reason: 'no deletions',
        },
      ]);
    });
  }
});

describe('a hosted request approved one by one under an "always" rejection (both modes)', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`is answered approve: true without the rejection's message; the others carry it (${mode})`, async () => {
      const model = new ScriptedModel([[request('mcpr_a'), request('mcpr_b')], [msg('handled')]]);
      const agent = new Agent({ name: 'Ops', tools: [mcp], model });
      const first = (await runMode(() => ({ agent, input: 'go' }), stream)).result!;
      const state = await RunState.fromString(agent, first.state.toString());
      const [a, b] = state.getInterruptions();
      state.reject(a, { always: true, message: 'no deletions' });
      state.approve(b);
      const second = (await runMode(() => ({ agent, input: state as any }), stream)).result!;
      expect(second.finalOutput).toBe('handled');
      expect(answers(model.requests[1].input)).toStrictEqual([
        {
          type: 'mcp_approval_response',
          approval_request_id: 'mcpr_a',
          approve: false,
          reason: 'no deletions',
        },
        { type: 'mcp_approval_response', approval_request_id: 'mcpr_b', approve: true },
      ]);
    });
  }
});
