/** `runToolCall`: one call through the tool machinery outside a model turn. */
import { RecordingTraceProcessor } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { RunAbortedError, ToolCallError } from '../errors/errors.js';
import type { FunctionCallItem } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { REDACTED_TOOL_ERROR, tool } from '../tool/tool.js';
import { setTraceProcessors } from '../tracing/processors.js';
import { createTracer } from '../tracing/tracer.js';
import { RunContext } from './run-context.js';
import { runToolCall } from './run-tool-call.js';

const call = (name: string, args: unknown, id = 'call_1'): FunctionCallItem => ({
  type: 'function_call',
  call_id: id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

function setup(tools: Parameters<typeof tool>[0][]) {
  const made = tools.map((t) => tool(t));
  const agent = new Agent({ name: 'Voice', tools: made });
  const state = RunState.create(agent, [], new RunContext({ user: 'ada' }), 10);
  return { agent, state, tools: made };
}

describe('runToolCall', () => {
  it('validates arguments: invalid ones become an error output and the tool never runs', async () => {
    let runs = 0;
    const { agent, state, tools } = setup([
      {
        name: 'lookup',
        description: '',
        parameters: z.object({ orderId: z.string() }),
        execute: () => ++runs,
      },
    ]);
    const out = await runToolCall({ state, agent, tools, call: call('lookup', { orderId: 7 }) });
    expect(out.type).toBe('output');
    if (out.type !== 'output') return;
    expect(out.ran).toBe(false);
    expect(out.item).toMatchObject({ type: 'function_call_output', call_id: 'call_1' });
    expect(String(out.item.output)).toContain('Invalid arguments for tool "lookup"');
    expect(runs).toBe(0);
  });

  it('runs a valid call with the context and hooks, and returns the raw value and its text', async () => {
    const seen: string[] = [];
    const { agent, state, tools } = setup([
      {
        name: 'lookup',
        description: '',
        parameters: z.object({ orderId: z.string() }),
        execute: ({ orderId }, ctx) => ({ orderId, user: (ctx.context as { user: string }).user }),
      },
    ]);
    const out = await runToolCall({
      state,
      agent,
      tools,
      call: call('lookup', { orderId: '#42' }),
      hooks: {
        onToolStart: (_c, a, name) => void seen.push(`start ${a.name} ${name}`),
        onToolEnd: (_c, _a, name, _call, value) =>
          void seen.push(`end ${name} ${JSON.stringify(value)}`),
      },
    });
    expect(out).toMatchObject({
      type: 'output',
      ran: true,
      output: { orderId: '#42', user: 'ada' },
      item: { output: '{"orderId":"#42","user":"ada"}' },
    });
    expect(seen).toEqual(['start Voice lookup', 'end lookup {"orderId":"#42","user":"ada"}']);
  });

  it('asks for approval, then runs once approved and answers a rejection with its message', async () => {
    let runs = 0;
    const { agent, state, tools } = setup([
      { name: 'refund', description: '', needsApproval: true, execute: () => `refunded ${++runs}` },
    ]);
    const first = await runToolCall({ state, agent, tools, call: call('refund', {}) });
    expect(first.type).toBe('approval');
    if (first.type !== 'approval') return;
    expect(first.items[0]).toMatchObject({ tool_name: 'refund', call_id: 'call_1', path: [] });
    state.interruptions.push(...first.items);
    state.approve(first.items[0]);
    const second = await runToolCall({ state, agent, tools, call: call('refund', {}) });
    expect(second).toMatchObject({ type: 'output', ran: true, output: 'refunded 1' });

    const pending = await runToolCall({ state, agent, tools, call: call('refund', {}, 'call_2') });
    if (pending.type !== 'approval') throw new Error('expected an approval');
    state.interruptions.push(...pending.items);
    state.reject(pending.items[0], { message: 'Not today.' });
    const rejected = await runToolCall({ state, agent, tools, call: call('refund', {}, 'call_2') });
    expect(rejected).toMatchObject({ type: 'output', ran: false, item: { output: 'Not today.' } });
    expect(runs).toBe(1);
  });

  it('applies the error policy and the timeout; errorFunction null raises ToolCallError', async () => {
    const { agent, state, tools } = setup([
      {
        name: 'boom',
        description: '',
        execute: () => {
          throw new Error('db password is hunter2');
        },
      },
      {
        name: 'slow',
        description: '',
        timeoutMs: 20,
        execute: () => new Promise((r) => setTimeout(r, 2_000)),
      },
      {
        name: 'strict',
        description: '',
        errorFunction: null,
        execute: () => {
          throw new Error('no');
        },
      },
    ]);
    const boom = await runToolCall({ state, agent, tools, call: call('boom', {}) });
    expect(boom).toMatchObject({ type: 'output', item: { output: REDACTED_TOOL_ERROR } });
    const slow = await runToolCall({ state, agent, tools, call: call('slow', {}) });
    expect(slow.type === 'output' && String(slow.item.output)).toMatch(/timed out after 20 ?ms/);
    await expect(runToolCall({ state, agent, tools, call: call('strict', {}) })).rejects.toThrow(
      ToolCallError,
    );
    const unknown = await runToolCall({ state, agent, tools, call: call('nope', {}) });
    expect(unknown.type === 'output' && unknown.item.output).toContain('"nope"');
  });

  it('an abort signal stops a running tool with RunAbortedError', async () => {
    const { agent, state, tools } = setup([
      { name: 'hang', description: '', execute: () => new Promise(() => {}) },
    ]);
    const controller = new AbortController();
    const pending = runToolCall({
      state,
      agent,
      tools,
      call: call('hang', {}),
      signal: controller.signal,
    });
    controller.abort();
    await expect(pending).rejects.toThrow(RunAbortedError);
  });

  it('records a function span under the given parent span', async () => {
    const recorder = new RecordingTraceProcessor();
    setTraceProcessors([recorder]);
    try {
      const tracer = createTracer({ workflowName: 'Realtime session' })!;
      tracer.startTrace();
      const parent = tracer.startSpan({ kind: 'realtime_session', agentName: 'Voice' }, null);
      const { agent, state, tools } = setup([
        { name: 'ping', description: '', execute: () => 'pong' },
      ]);
      await runToolCall({
        state,
        agent,
        tools,
        call: call('ping', {}),
        tracer,
        parentSpan: parent,
      });
      tracer.endSpan(parent);
      tracer.endTrace();
      expect(recorder.tree()).toEqual(['realtime_session:', '  function:ping']);
      const fn = recorder.ended.find((s) => s.data.kind === 'function');
      expect(fn?.data).toMatchObject({ callId: 'call_1', input: '{}', output: 'pong' });
    } finally {
      setTraceProcessors([]);
    }
  });

  it('createTracer makes no tracer when no processor is registered or tracing is disabled', () => {
    setTraceProcessors([]);
    expect(createTracer({ workflowName: 'x' })).toBeUndefined();
    setTraceProcessors([new RecordingTraceProcessor()]);
    try {
      expect(createTracer({ workflowName: 'x', disabled: true })).toBeUndefined();
      expect(createTracer({ workflowName: 'x', groupId: 'g' })?.trace).toMatchObject({
        name: 'x',
        groupId: 'g',
      });
    } finally {
      setTraceProcessors([]);
    }
  });
});
