/**
 * What a streaming consumer and tracing see of items and tool calls: the event name of every
 * kind of run item, agent-level hooks next to run hooks, function spans (output, failure, a
 * redacted error, an error function that gives no text), tool guardrail results, a nested
 * agent run (its run id, inherited options, default turn limit, usage counted once across a
 * pause), and the durability wrap's `attempt`.
 */
import { fc, msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { MaxTurnsExceededError } from '../errors/errors.js';
import { toolInputGuardrail, toolOutputGuardrail } from '../guardrail/tool-guardrail.js';
import type { Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { REDACTED_TOOL_ERROR, tool } from '../tool/tool.js';
import { setTraceProcessors } from '../tracing/processors.js';
import type { FunctionSpanData } from '../tracing/span-types.js';
import { run } from './run.js';
import type { RunStreamEvent } from './run-events.js';

afterEach(() => setTraceProcessors([]));

async function streamedEvents(agent: Agent, input: string | RunState) {
  const result = await run(agent, input, { stream: true });
  const events: RunStreamEvent[] = [];
  for await (const e of result) events.push(e);
  await result.completed;
  return { result, events };
}
const itemEvents = (events: RunStreamEvent[]) =>
  events.flatMap((e) => (e.type === 'run_item_stream_event' ? [`${e.name}:${e.item.type}`] : []));

describe('run item stream events', () => {
  it('each kind of item has its event name', async () => {
    const expert = new Agent({
      name: 'Expert',
      model: new ScriptedModel([[msg('expert answer')]]),
    });
    const gated = tool({
      name: 'gated',
      description: '',
      needsApproval: true,
      execute: () => 'ran',
    });
    const model = new ScriptedModel([
      [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }] } as Item,
        fc('gated', {}, 'g1'),
      ],
      [fc('transfer_to_expert', {}, 'h1')],
    ]);
    const agent = new Agent({ name: 'A', model, tools: [gated], handoffs: [expert] });
    const first = await streamedEvents(agent, 'go');
    expect(itemEvents(first.events)).toEqual([
      'reasoning_item_created:reasoning_item',
      'tool_called:tool_call_item',
      'tool_approval_requested:tool_approval_item',
    ]);
    first.result.state.approve(first.result.interruptions[0]);
    const second = await streamedEvents(agent, first.result.state);
    expect(itemEvents(second.events)).toEqual([
      'tool_output:tool_call_output_item',
      'handoff_requested:handoff_call_item',
      'handoff_occurred:handoff_output_item',
      'message_output_created:message_output_item',
    ]);
  });
});

describe('hooks on the agent', () => {
  it("run only for that agent's own events, after the run hooks", async () => {
    const log: string[] = [];
    const step = tool({ name: 'step', description: '', execute: () => 'ok' });
    const agent = new Agent({
      name: 'A',
      model: new ScriptedModel([[fc('step', {}, 'c1')], [msg('done')]]),
      tools: [step],
      hooks: {
        onAgentStart: () => void log.push('agent:start'),
        onToolStart: (_c, _a, t) => void log.push(`agent:tool:${t}`),
        onToolEnd: (_c, _a, t, _call, value) => void log.push(`agent:tool_end:${t}:${value}`),
        onAgentEnd: (_c, _a, output) => void log.push(`agent:end:${output}`),
      },
    });
    await run(agent, 'go', {
      hooks: {
        onAgentStart: () => void log.push('run:start'),
        onAgentEnd: () => void log.push('run:end'),
      },
    });
    expect(log).toEqual([
      'run:start',
      'agent:start',
      'agent:tool:step',
      'agent:tool_end:step:ok',
      'run:end',
      'agent:end:done',
    ]);
  });
});

describe('function spans and tool errors', () => {
  it('a span per call with its output; a failed call fails its span with the model-visible text', async () => {
    const rec = new RecordingTraceProcessor();
    setTraceProcessors([rec]);
    const good = tool({ name: 'good', description: '', execute: () => ({ n: 1 }) });
    const bad = tool({
      name: 'bad',
      description: '',
      execute: () => {
        throw new Error('internal detail');
      },
    });
    const quiet = tool({
      name: 'quiet',
      description: '',
      execute: () => {
        throw new Error('quiet detail');
      },
      errorFunction: () => undefined,
    });
    const model = new ScriptedModel([
      [fc('good', {}, 'c1'), fc('bad', {}, 'c2'), fc('quiet', {}, 'c3')],
      [msg('done')],
    ]);
    await run(new Agent({ name: 'A', model, tools: [good, bad, quiet] }), 'go', {
      tracing: { includeSensitiveData: true },
    });
    const spans = rec.ended.filter((s) => s.data.kind === 'function');
    const byName = Object.fromEntries(spans.map((s) => [(s.data as FunctionSpanData).name, s]));
    expect((byName.good.data as FunctionSpanData).output).toBe('{"n":1}');
    expect(byName.good.error).toBeUndefined();
    expect(byName.bad.error?.message).toBe(REDACTED_TOOL_ERROR);
    // An error function that gives no text falls back to the default policy's text.
    expect(byName.quiet.error?.message).toBe(REDACTED_TOOL_ERROR);
    const outputs = model.requests[1].input.filter((i) => i.type === 'function_call_output');
    expect(outputs.map((o) => (o as { output: unknown }).output)).toEqual([
      '{"n":1}',
      REDACTED_TOOL_ERROR,
      REDACTED_TOOL_ERROR,
    ]);
    // The model never sees the error's message; the developer does, on the span, because this
    // run includes sensitive data.
    expect(JSON.stringify(model.requests)).not.toContain('detail');
    expect(byName.bad.error?.data).toMatchObject({ type: 'Error', message: 'internal detail' });
    // With it off, the real error's text reaches no span.
    rec.ended.length = 0;
    const again = new ScriptedModel([[fc('bad', {}, 'c2')], [msg('done')]]);
    await run(new Agent({ name: 'A', model: again, tools: [bad] }), 'go', {
      tracing: { includeSensitiveData: false },
    });
    const failed = rec.ended.find((s) => s.data.kind === 'function');
    expect(failed?.error?.message).toBe(REDACTED_TOOL_ERROR);
    expect(JSON.stringify(rec.ended)).not.toContain('detail');
  });

  it('tool output guardrails run only on calls that succeeded; input guardrail results are recorded', async () => {
    const judged: string[] = [];
    const checked = tool({
      name: 'checked',
      description: '',
      parameters: z.object({ fail: z.boolean() }),
      execute: ({ fail }) => {
        if (fail) throw new Error('failed');
        return 'fine';
      },
      inputGuardrails: [
        toolInputGuardrail({ name: 'in', execute: () => ({ behavior: { type: 'allow' } }) }),
      ],
      outputGuardrails: [
        toolOutputGuardrail({
          name: 'out',
          execute: ({ output }) => {
            judged.push(String(output));
            return { behavior: { type: 'allow' } };
          },
        }),
      ],
    });
    const model = new ScriptedModel([
      [fc('checked', { fail: false }, 'c1'), fc('checked', { fail: true }, 'c2')],
      [msg('done')],
    ]);
    const result = await run(new Agent({ name: 'A', model, tools: [checked] }), 'go');
    expect(judged).toEqual(['fine']);
    expect(
      result.toolInputGuardrailResults.map((r) => [r.guardrailName, r.toolName, r.callId]),
    ).toEqual([
      ['in', 'checked', 'c1'],
      ['in', 'checked', 'c2'],
    ]);
    expect(result.toolOutputGuardrailResults.map((r) => [r.guardrailName, r.callId])).toEqual([
      ['out', 'c1'],
    ]);
  });
});

describe('an agent used as a tool', () => {
  it('runs as <parent run id>.<call id>, inherits run options, and stops at 10 turns by default', async () => {
    const seen: string[] = [];
    const loop = tool({
      name: 'loop',
      description: '',
      execute: (_a, ctx) => {
        seen.push(ctx.runId);
        return 'again';
      },
    });
    const sub = new Agent({
      name: 'Sub',
      tools: [loop],
      model: new ScriptedModel([[fc('loop', {}, undefined as any)]], {
        whenExhausted: 'repeat_last',
      }),
    });
    const parent = new Agent({
      name: 'Boss',
      tools: [sub.asTool({ toolName: 'ask_sub' })],
      model: new ScriptedModel([[fc('ask_sub', { input: 'go on' }, 'p1')]]),
    });
    const error = await run(parent, 'go', { runId: 'run_parent', maxTurns: 30 }).catch((e) => e);
    expect(error).toBeInstanceOf(MaxTurnsExceededError);
    expect(error.maxTurns).toBe(10);
    expect(new Set(seen)).toEqual(new Set(['run_parent.p1']));
    expect(seen).toHaveLength(10);
  });

  it('counts the nested usage once across a pause and resume', async () => {
    const gated = tool({
      name: 'gated',
      description: '',
      needsApproval: true,
      execute: () => 'ran',
    });
    const sub = new Agent({
      name: 'Sub',
      tools: [gated],
      model: new ScriptedModel([
        {
          output: [fc('gated', {}, 'g1')],
          usage: { inputTokens: 100, outputTokens: 10, totalTokens: 110 },
        },
        {
          output: [msg('sub done')],
          usage: { inputTokens: 200, outputTokens: 20, totalTokens: 220 },
        },
      ]),
    });
    const parent = new Agent({
      name: 'Boss',
      tools: [sub.asTool({ toolName: 'ask_sub' })],
      model: new ScriptedModel([
        {
          output: [fc('ask_sub', { input: 'x' }, 'p1')],
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        },
        { output: [msg('all done')], usage: { inputTokens: 2, outputTokens: 2, totalTokens: 4 } },
      ]),
    });
    const paused = await run(parent, 'go');
    expect(paused.usage).toMatchObject({ requests: 2, inputTokens: 101, outputTokens: 11 });
    const state = await RunState.fromString(parent, paused.state.toString());
    state.approve(state.getInterruptions()[0]);
    const done = await run(parent, state);
    expect(done.finalOutput).toBe('all done');
    expect(done.usage).toMatchObject({
      requests: 4,
      inputTokens: 303,
      outputTokens: 33,
      totalTokens: 336,
    });
  });
});

describe('a durability wrap re-running a call', () => {
  it("passes the wrap's attempt number to the tool", async () => {
    const attempts: number[] = [];
    const idem = tool({
      name: 'idem',
      description: '',
      effect: 'idempotent',
      execute: (_a, _c, { attempt }) => {
        attempts.push(attempt);
        return 'ok';
      },
    });
    const model = new ScriptedModel([[fc('idem', {}, 'c1')], [msg('done')]]);
    await run(new Agent({ name: 'A', model, tools: [idem] }), 'go', {
      durability: { wrapToolCall: (_key, call) => call({ attempt: 3 }) },
    });
    expect(attempts).toEqual([3]);
  });
});
