import { fc, msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import {
  InputGuardrailTripwireTriggered,
  MaxTurnsExceededError,
  ModelCallError,
  RunAbortedError,
  UserError,
} from '../errors/errors.js';
import { inputGuardrail } from '../guardrail/guardrail.js';
import type { FunctionCallOutputItem, Item } from '../items/item-types.js';
import { run } from '../loop/run.js';
import type { RunOptions } from '../loop/run-options.js';
import { createProviderRegistry } from '../model/provider-registry.js';
import { REDACTED_TOOL_ERROR, tool } from '../tool/tool.js';
import { setTraceProcessors } from '../tracing/processors.js';
import type { GenerationSpanData } from '../tracing/span-types.js';
import { Agent } from './agent.js';

afterEach(() => setTraceProcessors([]));

const outputOf = (items: Item[], callId: string) =>
  items.find(
    (i): i is FunctionCallOutputItem => i.type === 'function_call_output' && i.call_id === callId,
  )?.output;

/** A parent that asks `sub` once (call id `p1`) and then answers with what it got. */
function parentOf(sub: Agent<any, any>, asTool: Parameters<Agent['asTool']>[0] = {}) {
  const model = new ScriptedModel([
    [fc('ask_sub', { input: 'question' }, 'p1')],
    [msg('parent done')],
  ]);
  return {
    parent: new Agent({
      name: 'Parent',
      tools: [sub.asTool({ toolName: 'ask_sub', ...asTool })],
      model,
    }),
    model,
  };
}

const both = [false, true] as const;
const modeName = (stream: boolean) => (stream ? 'streamed' : 'non-streamed');

describe('agents as tools inherit the parent run options', () => {
  for (const stream of both) {
    it(`model override, modelSettings, hooks and toolNotFound flow down; runOptions override per tool (${modeName(stream)})`, async () => {
      const shared = new ScriptedModel([
        [fc('ask_sub', { input: 'q' }, 'p1')],
        [fc('no_such_tool', {}, 'n1')], // nested: unknown tool, returned to the model
        [msg('sub answer')],
        [msg('parent done')],
      ]);
      const sub = new Agent({ name: 'Sub', model: new ScriptedModel([]) });
      const parent = new Agent({ name: 'Parent', tools: [sub.asTool({ toolName: 'ask_sub' })] });
      const { result, hooks } = await runMode(
        () => ({
          agent: parent,
          input: 'x',
          options: {
            model: shared,
            modelSettings: { temperature: 0.3 },
            toolNotFound: 'return_error_to_model',
          } satisfies RunOptions,
        }),
        stream,
      );
      expect(result!.finalOutput).toBe('parent done');
      expect(shared.requests.map((r) => r.modelSettings.temperature)).toEqual([0.3, 0.3, 0.3, 0.3]);
      expect(outputOf(shared.requests[2].input, 'n1')).toMatch(/tool "no_such_tool" not found/);
      expect(hooks).toContain('agent_start:Sub');
      expect(hooks).toContain('llm_end:Sub');

      const overridden = new ScriptedModel([[msg('sub answer')]]);
      const sub2 = new Agent({ name: 'Sub', model: overridden });
      const { parent: p2 } = parentOf(sub2, {
        runOptions: { modelSettings: { temperature: 0.9 } },
      });
      await runMode(
        () => ({ agent: p2, input: 'x', options: { modelSettings: { temperature: 0.3 } } }),
        stream,
      );
      expect(overridden.requests[0].modelSettings.temperature).toBe(0.9);
    });
  }

  it('modelProvider, retry, maxToolConcurrency and tracing reach the nested run', async () => {
    const rec = new RecordingTraceProcessor();
    setTraceProcessors([rec]);
    let active = 0;
    let peak = 0;
    const slow = tool({
      name: 'slow',
      description: '',
      parameters: z.object({ n: z.number() }),
      execute: async () => {
        peak = Math.max(peak, ++active);
        await new Promise((r) => setTimeout(r, 5));
        active--;
        return 'ok';
      },
    });
    const nestedModel = new ScriptedModel([
      { error: new ModelCallError('overloaded', { retryable: true, statusCode: 503 }) },
      [fc('slow', { n: 1 }, 's1'), fc('slow', { n: 2 }, 's2'), fc('slow', { n: 3 }, 's3')],
      [msg('sub answer')],
    ]);
    const provider = createProviderRegistry({ scripted: { getModel: () => nestedModel } });
    const sub = new Agent({ name: 'Sub', model: 'scripted:sub', tools: [slow] });
    const { parent } = parentOf(sub);
    const result = await run(parent, 'x', {
      modelProvider: provider,
      retry: { maxRetries: 1, backoff: { initialDelayMs: 1 } },
      maxToolConcurrency: 1,
      tracing: { includeSensitiveData: false },
    });
    expect(result.finalOutput).toBe('parent done');
    expect(nestedModel.requests).toHaveLength(3); // one retry
    expect(peak).toBe(1);
    const generations = rec.started.filter((s) => s.data.kind === 'generation');
    expect(generations.length).toBe(4);
    for (const g of generations) expect((g.data as GenerationSpanData).input).toBeUndefined();

    const noRetry = new ScriptedModel([
      { error: new ModelCallError('overloaded', { retryable: true }) },
    ]);
    const { parent: p2 } = parentOf(new Agent({ name: 'Sub', model: noRetry }));
    await expect(run(p2, 'x', { retry: { maxRetries: 0 } })).rejects.toThrow(/overloaded/);
    expect(noRetry.requests).toHaveLength(1);
  });

  it('the parent signal aborts the nested run', async () => {
    const controller = new AbortController();
    const sub = new Agent({
      name: 'Sub',
      model: new ScriptedModel([{ output: [msg('late')], delayMs: 5_000 }]),
    });
    const { parent } = parentOf(sub);
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    const error = await run(parent, 'x', { signal: controller.signal }).catch((e) => e);
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('a nested run that fails fails the parent with its own error', () => {
  for (const stream of both) {
    it(`UserError (no model), max turns and a guardrail tripwire are never rewritten into a tool output (${modeName(stream)})`, async () => {
      const cases: [Agent<any, any>, Parameters<Agent['asTool']>[0], new (...a: any[]) => Error][] =
        [
          [new Agent({ name: 'Sub' }), {}, UserError],
          [
            new Agent({
              name: 'Sub',
              tools: [tool({ name: 'loop', description: '', execute: () => 'again' })],
              model: new ScriptedModel([[fc('loop', {}, 'l1')], [fc('loop', {}, 'l2')]]),
            }),
            { maxTurns: 1 },
            MaxTurnsExceededError,
          ],
          [
            new Agent({
              name: 'Sub',
              inputGuardrails: [
                inputGuardrail({
                  name: 'no',
                  runInParallel: false,
                  execute: () => ({ tripwireTriggered: true }),
                }),
              ],
              model: new ScriptedModel([[msg('never')]]),
            }),
            {},
            InputGuardrailTripwireTriggered,
          ],
        ];
      for (const [sub, options, kind] of cases) {
        const { parent, model } = parentOf(sub, options);
        const { error } = await runMode(() => ({ agent: parent, input: 'x' }), stream);
        expect(error, kind.name).toBeInstanceOf(kind);
        expect((error as Error).message).not.toContain(REDACTED_TOOL_ERROR);
        expect(model.requests, kind.name).toHaveLength(1); // the parent model never saw an output
        const state = (error as { state?: any }).state;
        expect(state.startingAgent.name).toBe('Parent');
        expect(state.nestedStates.p1.startingAgent.name).toBe('Sub'); // kept to resume from
      }
    });
  }

  it('resuming the parent after a nested outage resumes the nested run: its finished tool calls are not re-run', async () => {
    let lookups = 0;
    const lookup = tool({
      name: 'lookup',
      description: '',
      execute: () => {
        lookups++;
        return 'found';
      },
    });
    const nestedModel = new ScriptedModel([
      [fc('lookup', {}, 'k1')],
      { error: new ModelCallError('bad gateway', { retryable: false, statusCode: 502 }) },
      [msg('sub answer')],
    ]);
    const sub = new Agent({ name: 'Sub', tools: [lookup], model: nestedModel });
    const { parent } = parentOf(sub);
    const error = await run(parent, 'x').catch((e) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    const resumed = await run(parent, error.state);
    expect(resumed.finalOutput).toBe('parent done');
    expect(lookups).toBe(1);
    expect(outputOf(resumed.history, 'p1')).toBe('sub answer');
  });
});

describe('nested stream events reach the parent stream', () => {
  it('wrapped as nested_run_stream_event, tagged with the nested agent and the parent call id; toTextStream stays the parent text', async () => {
    const onStream: string[] = [];
    const sub = new Agent({ name: 'Sub', model: new ScriptedModel([[msg('sub answer')]]) });
    const { parent } = parentOf(sub, {
      onStream: ({ event, toolCallId }) =>
        void (
          event.type === 'raw_model_stream_event' &&
          event.data.type === 'text_delta' &&
          onStream.push(`${toolCallId}:${event.data.delta}`)
        ),
    });
    const result = await run(parent, 'x', { stream: true });
    const nested: string[] = [];
    let parentText = '';
    for await (const event of result) {
      if (event.type === 'nested_run_stream_event') {
        const inner = event.event;
        if (inner.type === 'raw_model_stream_event' && inner.data.type === 'text_delta')
          nested.push(`${event.toolCallId}:${event.agent.name}:${inner.data.delta}`);
        if (inner.type === 'run_item_stream_event')
          nested.push(`${event.toolCallId}:${inner.name}`);
      } else if (event.type === 'raw_model_stream_event' && event.data.type === 'text_delta')
        parentText += event.data.delta;
    }
    await result.completed;
    expect(nested).toEqual([
      'p1:Sub:sub ',
      'p1:Sub:answ',
      'p1:Sub:er',
      'p1:message_output_created',
    ]);
    expect(parentText).toBe('parent done');
    expect(onStream.join('|')).toBe('p1:sub |p1:answ|p1:er');
  });
});
