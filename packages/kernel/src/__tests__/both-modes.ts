/** Test helper: runs a scenario in both modes and returns comparable snapshots. */
import { ScriptedModel, type ScriptStep } from '@baton/testing';
import { expect } from 'vitest';
import type { Agent } from '../agent/agent.js';
import type { RunHooks } from '../agent/hooks.js';
import type { AgentInput } from '../items/item-types.js';
import { run } from '../loop/run.js';
import type { RunStreamEvent } from '../loop/run-events.js';
import type { RunOptions } from '../loop/run-options.js';
import type { RunResultBase } from '../loop/run-result.js';
import type { RunState } from '../run-state/run-state.js';

export interface Scenario {
  agent: Agent<any, any>;
  input: AgentInput;
  options?: RunOptions;
  /** Models created for this scenario (fresh per mode). */
  models?: ScriptedModel[];
}

export interface ModeOutcome {
  result?: RunResultBase;
  error?: unknown;
  hooks: string[];
  events: RunStreamEvent[];
  models: ScriptedModel[];
}

export function recordingHooks(log: string[]): RunHooks {
  return {
    onAgentStart: (_c, a) => void log.push(`agent_start:${a.name}`),
    onAgentEnd: (_c, a) => void log.push(`agent_end:${a.name}`),
    onLLMStart: (_c, a) => void log.push(`llm_start:${a.name}`),
    onLLMEnd: (_c, a) => void log.push(`llm_end:${a.name}`),
    onToolStart: (_c, a, t, call) => void log.push(`tool_start:${a.name}:${t}:${call.call_id}`),
    onToolEnd: (_c, a, t, call) => void log.push(`tool_end:${a.name}:${t}:${call.call_id}`),
    onHandoff: (_c, from, to) => void log.push(`handoff:${from.name}->${to.name}`),
  };
}

/**
 * Runs `agent` on `input` in one mode: the result (streamed: after every event was read and
 * `completed` resolved); rejects as the run does.
 */
export async function runIn(
  agent: Agent<any, any>,
  input: AgentInput | RunState,
  options: RunOptions,
  stream: boolean,
): Promise<RunResultBase> {
  if (!stream) return run(agent, input, options);
  const result = await run(agent, input, { ...options, stream: true });
  for await (const _event of result);
  await result.completed;
  return result;
}

export async function runMode(make: () => Scenario, stream: boolean): Promise<ModeOutcome> {
  const scenario = make();
  const hooks: string[] = [];
  const events: RunStreamEvent[] = [];
  const options = { ...scenario.options, hooks: scenario.options?.hooks ?? recordingHooks(hooks) };
  try {
    if (stream) {
      const result = await run(scenario.agent, scenario.input, { ...options, stream: true });
      for await (const e of result) events.push(e);
      await result.completed;
      return { result, hooks, events, models: scenario.models ?? [] };
    }
    const result = await run(scenario.agent, scenario.input, options);
    return { result, hooks, events, models: scenario.models ?? [] };
  } catch (error) {
    return { error, hooks, events, models: scenario.models ?? [] };
  }
}

function itemsOf(r: RunResultBase) {
  return r.newItems.map((i) => ({ type: i.type, agent: i.agent.name, raw: i.raw_item }));
}

/** Runs `make()` in both modes, asserts identical items, usage, final output, hooks and errors. */
export async function runBothModes(
  make: () => Scenario,
): Promise<{ sync: ModeOutcome; streamed: ModeOutcome }> {
  const sync = await runMode(make, false);
  const streamed = await runMode(make, true);
  // Tool calls of one response run concurrently, so their start/end hooks may interleave
  // differently when tools wait on timers; every other hook must be in the same order.
  const ordered = (hooks: string[]) => hooks.filter((h) => !h.startsWith('tool_'));
  expect(ordered(streamed.hooks)).toEqual(ordered(sync.hooks));
  expect([...streamed.hooks].sort()).toEqual([...sync.hooks].sort());
  if (sync.error || streamed.error) {
    expect((streamed.error as Error)?.constructor).toBe((sync.error as Error)?.constructor);
    expect((streamed.error as Error)?.message).toBe((sync.error as Error)?.message);
  } else {
    expect(itemsOf(streamed.result!)).toEqual(itemsOf(sync.result!));
    expect(streamed.result!.usage).toEqual(sync.result!.usage);
    expect(streamed.result!.finalOutput).toEqual(sync.result!.finalOutput);
    expect(streamed.result!.interruptions.map((i) => i.call_id)).toEqual(
      sync.result!.interruptions.map((i) => i.call_id),
    );
    expect(streamed.result!.lastAgent.name).toBe(sync.result!.lastAgent.name);
  }
  return { sync, streamed };
}

export function model(steps: ScriptStep[], scenarioModels?: ScriptedModel[]): ScriptedModel {
  const m = new ScriptedModel(steps);
  scenarioModels?.push(m);
  return m;
}
