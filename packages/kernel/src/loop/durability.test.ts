/** The durable-execution seams: runStep, the two wrap points, in-doubt calls, run ids. */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { DurabilityError, ToolCallInDoubtError } from '../errors/errors.js';
import type { ModelResponse, ModelStreamEvent } from '../model/model.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';
import { runStep } from './run.js';

describe('durable seams', () => {
  it('runStep runs one turn at a time; a driver can replay a journaled model response and tool result', async () => {
    const journal = new Map<string, unknown>();
    let toolRuns = 0;
    const t = tool({
      name: 'charge',
      description: '',
      effect: 'idempotent',
      execute: (_a, _c, d) => `charged ${++toolRuns} key=${d.idempotencyKey}`,
    });
    const model = () =>
      new ScriptedModel(
        [
          (req) =>
            req.input.some((i) => i.type === 'function_call_output')
              ? [msg('done')]
              : [fc('charge', {}, 'c1')],
        ],
        {
          whenExhausted: 'repeat_last',
        },
      );
    const make = () => new Agent({ name: 'A', tools: [t], model: model() });
    new Agent({
      name: 'A',
      tools: [t],
      model: new ScriptedModel([[fc('charge', {}, 'c1')], [msg('done')]]),
    });
    const durability = {
      wrapModelCall: async (
        key: { runId: string; turn: number },
        _req: unknown,
        fn: () => Promise<ModelResponse>,
      ) => {
        const k = `${key.runId}/${key.turn}`;
        if (!journal.has(k)) journal.set(k, await fn());
        return journal.get(k) as ModelResponse;
      },
      wrapToolCall: async (key: { callId: string }, fn: () => Promise<unknown>) => {
        if (!journal.has(key.callId)) journal.set(key.callId, await fn());
        return journal.get(key.callId);
      },
    };
    const first = await runStep(make(), 'go', { durability, runId: 'run_fixed' });
    expect(first.nextStep).toBe('run_again');
    expect(first.result.state.runId).toBe('run_fixed');
    expect(journal.get('c1')).toBe('charged 1 key=run_fixed:c1');
    // a "crash" after the journal write: another worker replays the same step from the old state
    const replay = await runStep(make(), 'go', { durability, runId: 'run_fixed' });
    expect(toolRuns).toBe(1);
    expect(replay.result.newItems.map((i) => i.type)).toEqual(
      first.result.newItems.map((i) => i.type),
    );
    const worker = make(); // a worker loads the state with the agent it then runs
    const second = await runStep(
      worker,
      await RunState.fromString(worker, first.result.state.toString()),
      { durability },
    );
    expect(second.nextStep).toBe('final_output');
    expect(second.result.finalOutput).toBe('done');
  });

  it('wrapModelCall can stream through fn({ onEvent })', async () => {
    const deltas: string[] = [];
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[msg('hello world')]]) });
    await runStep(agent, 'x', {
      durability: {
        wrapModelCall: (_k, _r, fn) =>
          fn({
            onEvent: (e: ModelStreamEvent) =>
              void (e.type === 'text_delta' && deltas.push(e.delta)),
          }),
      },
    });
    expect(deltas.join('')).toBe('hello world');
  });

  it('ToolCallInDoubtError pauses with an in_doubt item; approving re-runs it with approved: true; DurabilityError fails the step', async () => {
    let runs = 0;
    const t = tool({ name: 'ship', description: '', execute: () => ++runs });
    const agent = new Agent({
      name: 'A',
      tools: [t],
      model: new ScriptedModel([[fc('ship', {}, 'c1')], [msg('ok')]]),
    });
    const seen: boolean[] = [];
    const durability = {
      wrapToolCall: async (
        key: { approved: boolean; toolName: string; callId: string },
        fn: () => Promise<unknown>,
      ) => {
        seen.push(key.approved);
        if (!key.approved) throw new ToolCallInDoubtError(key.toolName, key.callId);
        return fn();
      },
    };
    const step = await runStep(agent, 'x', { durability });
    expect(step.nextStep).toBe('interruption');
    expect(step.result.interruptions[0]).toMatchObject({ kind: 'in_doubt', call_id: 'c1' });
    step.result.state.approve(step.result.interruptions[0]);
    const resumed = await runStep(agent, step.result.state, { durability });
    expect(resumed.nextStep).toBe('run_again');
    expect(runs).toBe(1);
    expect(seen).toEqual([false, true]);
    const failing = new Agent({
      name: 'B',
      tools: [t],
      model: new ScriptedModel([[fc('ship', {}, 'c1')]]),
    });
    await expect(
      runStep(failing, 'x', {
        durability: {
          wrapToolCall: async () => {
            throw new DurabilityError('journal write refused (stale epoch)');
          },
        },
      }),
    ).rejects.toBeInstanceOf(DurabilityError);
  });
});

describe('a state made by a driver before the first turn', () => {
  it('runs input guardrails on its input and stores it in the session', async () => {
    const { inputGuardrail } = await import('../guardrail/guardrail.js');
    const { MemorySession } = await import('../session/memory-session.js');
    const { RunContext } = await import('./run-context.js');
    const seen: unknown[] = [];
    const g = inputGuardrail({
      name: 'g',
      runInParallel: false,
      execute: ({ input }) => {
        seen.push(input);
        return { tripwireTriggered: false };
      },
    });
    const agent = new Agent({
      name: 'A',
      inputGuardrails: [g],
      model: new ScriptedModel([[msg('hi')]]),
    });
    const input = [{ type: 'message' as const, role: 'user' as const, content: 'hello' }];
    const state = RunState.create(agent, input, new RunContext(undefined, { runId: 'run_d' }), 10);
    const session = new MemorySession();
    const step = await runStep(agent, state, { session });
    expect(step.nextStep).toBe('final_output');
    expect(seen).toEqual([input]);
    expect((await session.getItems()).map((i: any) => i.content?.[0]?.text ?? i.content)).toEqual([
      'hello',
      'hi',
    ]);
  });
});
