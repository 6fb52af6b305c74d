/**
 * Model features (`Model.supports`), prompt objects and native call items (`NativeToolCall`):
 * a feature the model lacks fails before the first model call; a native call item runs the
 * tool (approval, RunState round trip, exactly once) and is answered with the native output.
 */
import { ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import { dropOrphanCalls } from '../items/item-helpers.js';
import type { HostedItem, Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { type FunctionTool, tool } from '../tool/tool.js';
import { run } from './run.js';

const shellCall = (callId: string, commands: string[]): HostedItem => ({
  type: 'shell_call',
  id: `sh_${callId}`,
  call_id: callId,
  status: 'completed',
  action: { commands, timeout_ms: null, max_output_length: null },
});
const done = (text: string): Item[] => [
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
];

/** A shell tool with a native `shell_call` form; records what ran. */
function shellTool(ran: string[], needsApproval = false): FunctionTool {
  const base = tool({
    name: 'exec_command',
    description: 'Run a command.',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string' } },
      required: ['command'],
      additionalProperties: false,
    },
    needsApproval,
    execute: ({ command }: { command: string }) => {
      ran.push(`function:${command}`);
      return `ran ${command}`;
    },
  });
  return {
    ...base,
    native: {
      callType: 'shell_call',
      providerId: 'openai',
      definition: { type: 'shell' },
      execute: (call) => {
        const commands = (call.action as { commands: string[] }).commands;
        ran.push(`native:${commands.join(';')}`);
        return commands.map((c) => `out of ${c}`);
      },
      toOutput: (call, value, ok) => ({
        type: 'shell_call_output',
        call_id: call.call_id as string,
        output: ok
          ? (value as string[]).map((stdout) => ({
              stdout,
              stderr: '',
              outcome: { type: 'exit', exit_code: 0 },
            }))
          : [{ stdout: '', stderr: String(value), outcome: { type: 'exit', exit_code: 1 } }],
      }),
    },
  };
}

describe('model features are checked before the first model call', () => {
  it('a prompt object on a model without prompt support is a UserError naming both, and no call is made', async () => {
    for (const stream of [false, true]) {
      const model = new ScriptedModel([done('x')], { features: [] });
      const agent = new Agent({ name: 'desk', prompt: { id: 'pmpt_1' }, model });
      const error = await (async () => {
        if (!stream) return run(agent, 'hi');
        const r = await run(agent, 'hi', { stream: true });
        for await (const _ of r);
        return r.completed;
      })().then(
        () => undefined,
        (e) => e,
      );
      expect(UserError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /Agent "desk" uses a prompt object.*scripted:scripted.*"prompt"/,
      );
      expect(model.requests).toHaveLength(0);
    }
  });

  it('deferLoading and hosted tools of another provider are refused the same way; a model without supports() is not checked', async () => {
    const deferred = tool({
      name: 'lookup',
      description: 'd',
      execute: () => 'x',
      deferLoading: true,
    });
    const model = new ScriptedModel([done('x')], { features: ['prompt'] });
    await expect(run(new Agent({ name: 'a', tools: [deferred], model }), 'hi')).rejects.toThrow(
      /tool "lookup" with deferLoading.*"tool_search"/,
    );
    const hosted = {
      type: 'hosted_tool' as const,
      name: 'web_search',
      providerId: 'openai',
      providerData: { type: 'web_search' },
    };
    await expect(run(new Agent({ name: 'a', tools: [hosted], model }), 'hi')).rejects.toThrow(
      /openai hosted tool "web_search".*"hosted_tools:openai"/,
    );
    const plain = new ScriptedModel([done('ok')]);
    const result = await run(
      new Agent({ name: 'a', tools: [deferred], prompt: { id: 'p' }, model: plain }),
      'hi',
    );
    expect(result.finalOutput).toBe('ok');
    expect(plain.requests[0].prompt).toEqual({ id: 'p' });
    expect(plain.requests[0].tools[0]).toMatchObject({ name: 'lookup', deferLoading: true });
  });

  it('a dynamic prompt is resolved per turn from the run context', async () => {
    const model = new ScriptedModel([done('ok')], { features: ['prompt'] });
    const agent = new Agent<{ tier: string }>({
      name: 'a',
      prompt: (ctx) => ({ id: 'pmpt_2', version: '3', variables: { tier: ctx.context.tier } }),
      model,
    });
    await run(agent, 'hi', { context: { tier: 'gold' } });
    expect(model.requests[0]).toMatchObject({
      prompt: { id: 'pmpt_2', version: '3', variables: { tier: 'gold' } },
      systemInstructions: undefined,
    });
  });

  it('rejects a malformed static prompt at construction', () => {
    expect(() => new Agent({ name: 'a', prompt: { id: '' } })).toThrow(UserError);
    expect(() => new Agent({ name: 'a', prompt: { id: 'p', variables: 'x' as any } })).toThrow(
      /prompt/,
    );
  });
});

describe('native call items (NativeToolCall)', () => {
  it('a model with the native tool gets its definition and its call items run the native form', async () => {
    for (const stream of [false, true]) {
      const ran: string[] = [];
      const model = new ScriptedModel([[shellCall('c1', ['ls', 'pwd'])], done('listed')], {
        features: ['native_tool:shell_call'],
      });
      const agent = new Agent({ name: 'a', tools: [shellTool(ran)], model });
      const result = await run(agent, 'list', { stream: stream as false });
      if (stream) for await (const _ of result as any);
      await (result as any).completed;
      expect(ran).toEqual(['native:ls;pwd']);
      expect(model.requests[0].tools).toEqual([
        {
          type: 'hosted_tool',
          name: 'exec_command',
          providerId: 'openai',
          providerData: { type: 'shell' },
        },
      ]);
      const second = model.requests[1].input;
      expect(second.slice(-2)).toEqual([
        shellCall('c1', ['ls', 'pwd']),
        {
          type: 'shell_call_output',
          call_id: 'c1',
          output: [
            { stdout: 'out of ls', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
            { stdout: 'out of pwd', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
          ],
        },
      ]);
      expect(result.finalOutput).toBe('listed');
    }
  });

  it('a model without it gets the function tool, and function calls run the portable form', async () => {
    const ran: string[] = [];
    const model = new ScriptedModel([
      [
        {
          type: 'function_call',
          call_id: 'f1',
          name: 'exec_command',
          arguments: '{"command":"ls"}',
        },
      ],
      done('ok'),
    ]);
    await run(new Agent({ name: 'a', tools: [shellTool(ran)], model }), 'list');
    expect(ran).toEqual(['function:ls']);
    expect(model.requests[0].tools[0]).toMatchObject({ type: 'function', name: 'exec_command' });
  });

  it('a tool without a function form is refused on a model without the native tool', async () => {
    const t = shellTool([]);
    const nativeOnly = { ...t, native: { ...t.native!, portable: false } };
    const model = new ScriptedModel([done('x')], { features: [] });
    await expect(run(new Agent({ name: 'a', tools: [nativeOnly], model }), 'x')).rejects.toThrow(
      /tool "exec_command", a openai shell_call tool.*"native_tool:shell_call"/,
    );
    expect(model.requests).toHaveLength(0);
  });

  it('pauses for approval, survives a RunState JSON round trip, runs once when approved, answers a rejection natively', async () => {
    const ran: string[] = [];
    const tools = [shellTool(ran, true)];
    const model = new ScriptedModel(
      [[shellCall('c1', ['rm x']), shellCall('c2', ['ls'])], done('after')],
      { features: ['native_tool:shell_call'] },
    );
    const agent = new Agent({ name: 'a', tools, model });
    const first = await run(agent, 'go');
    expect(first.interruptions.map((i) => i.call_id)).toEqual(['c1', 'c2']);
    expect(ran).toEqual([]);
    const state = await RunState.fromString(agent, first.state.toString());
    state.approve(state.interruptions[1]);
    state.reject(state.interruptions[0], { message: 'not that one' });
    const second = await run(agent, state);
    expect(second.finalOutput).toBe('after');
    expect(ran).toEqual(['native:ls']);
    const input = model.requests[1].input;
    expect(input.filter((i) => i.type === 'shell_call_output')).toEqual([
      {
        type: 'shell_call_output',
        call_id: 'c1',
        output: [{ stdout: '', stderr: 'not that one', outcome: { type: 'exit', exit_code: 1 } }],
      },
      {
        type: 'shell_call_output',
        call_id: 'c2',
        output: [{ stdout: 'out of ls', stderr: '', outcome: { type: 'exit', exit_code: 0 } }],
      },
    ]);
    expect(model.requests).toHaveLength(2);
    expect(second.history.filter((i) => i.type === 'shell_call')).toHaveLength(2);
  });

  it('dropOrphanCalls pairs native calls with their outputs by call_id', () => {
    const items: Item[] = [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      shellCall('open', ['ls']),
      shellCall('answered', ['pwd']),
      { type: 'shell_call_output', call_id: 'answered', output: [] },
      { type: 'computer_call_output', call_id: 'lost', output: { type: 'computer_screenshot' } },
      { type: 'web_search_call', id: 'ws_1', status: 'completed' },
    ];
    expect(dropOrphanCalls(items).map((i) => `${i.type}:${(i as any).call_id ?? ''}`)).toEqual([
      'shell_call:answered',
      'shell_call_output:answered',
      'web_search_call:',
    ]);
  });
});
