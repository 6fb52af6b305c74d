/**
 * `describeCapabilityConformance`: the vitest suite every `Capability` (v1) runs, driving real
 * runs of the kernel with a `ScriptedModel`: hooks in order and `teardown` once on every exit
 * path, runs independent of each other, `run.state` that survives JSON, `processInput` that keeps
 * calls paired and leaves the run's items alone, the same requests in both stream modes.
 */
import {
  Agent,
  type Capability,
  type CapabilityRun,
  dropOrphanCalls,
  type Item,
  type ModelRequest,
  REDACTED_TOOL_ERROR,
  RunContext,
  RunState,
  run,
  tool,
} from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { fc, msg } from './builders.js';
import { ScriptedModel, type ScriptStep } from './scripted-model.js';
import { waitFor } from './test-redis.js';

/** Builds a fresh capability (one per agent of a test). */
export type CapabilityFactory = () => Capability | Promise<Capability>;

/** Options of {@link describeCapabilityConformance}. */
export interface CapabilityConformanceOptions {
  /**
   * Calls of the capability's own tools the scripted model makes in a run (by tool name), each
   * of which must produce an output (not the redacted error text). Default: none.
   */
  calls?: { tool: string; arguments?: Record<string, unknown> }[];
  /** The run context object (`ctx.context`) of every run. */
  context?: unknown;
  /** Per-test timeout in ms (default 30 000). */
  timeoutMs?: number;
}

const AGENT_INSTRUCTIONS = 'You are the capability conformance agent.';

/** A capability that logs its hooks and delegates to a per-run copy of `inner`. */
function spied(inner: Capability, log: string[]): Capability {
  const copy = () =>
    inner.clone ? inner.clone() : Object.assign(Object.create(Object.getPrototypeOf(inner)), inner);
  const spy: Capability = {
    specificationVersion: inner.specificationVersion,
    name: inner.name,
    clone: () => spied(copy(), log),
    setup: async (r) => {
      log.push('setup');
      await inner.setup?.(r);
    },
    teardown: async (r, outcome) => {
      log.push(`teardown:${outcome.type}`);
      await inner.teardown?.(r, outcome);
    },
  };
  const logged =
    <A extends unknown[], R>(hook: string, fn: (...args: A) => R) =>
    (...args: A): R => {
      log.push(hook);
      return fn(...args);
    };
  if (inner.tools) spy.tools = logged('tools', inner.tools.bind(inner));
  if (inner.instructions) spy.instructions = logged('instructions', inner.instructions.bind(inner));
  if (inner.modelSettings) spy.modelSettings = inner.modelSettings.bind(inner);
  if (inner.processInput) spy.processInput = inner.processInput.bind(inner);
  return spy;
}

/** What a request shows of the capability: instructions and tool names. */
const shape = (r: ModelRequest) => ({
  systemInstructions: r.systemInstructions,
  tools: r.tools.map((t) => t.name).sort(),
});

/** A conversation with call pairs, long enough for compaction, as a run's input. */
function history(): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < 12; i++) {
    items.push({ type: 'message', role: 'user', content: `question ${i}` });
    items.push({
      type: 'function_call',
      call_id: `call_h${i}`,
      name: 'conformance_echo',
      arguments: `{"n":${i}}`,
    });
    items.push({ type: 'function_call_output', call_id: `call_h${i}`, output: `echo ${i}` });
    items.push({ type: 'message', role: 'assistant', content: `answer ${i}` });
  }
  items.push({ type: 'message', role: 'user', content: 'And now?' });
  return items;
}

/**
 * Declares a vitest `describe` block named `Capability conformance: <name>` that checks the
 * `Capability` v1 contract (packages/kernel/src/capability/capability.ts) on capabilities made by
 * `factory`, through real runs of an agent that has the capability, two tools of its own
 * (`conformance_echo`, and `conformance_gate` that needs approval) and a `ScriptedModel`:
 *
 * - a `name`, `specificationVersion` `'v1'` or none, hooks that are functions;
 * - a run: `setup` before `tools` and `instructions`, then `teardown('final_output')` once; the
 *   agent's instructions kept first; the configured `calls` answered (not the redacted error);
 *   the same requests in `stream: false` and `stream: true`;
 * - runs independent of each other: three runs (two of them concurrent) send the same
 *   instructions and tools;
 * - `teardown` once on every exit path — a model error, an abort, an interruption — and after a
 *   resume from `RunState.toString()` `setup` again and the same tools and instructions;
 * - `run.state` holds JSON: the state's extensions equal themselves after `JSON.stringify`;
 * - `processInput` keeps calls and outputs paired in every request and changes neither the array
 *   it is given (a frozen one is accepted) nor the run's items; `modelSettings` returns settings
 *   without changing its (frozen) argument.
 */
export function describeCapabilityConformance(
  name: string,
  factory: CapabilityFactory,
  options: CapabilityConformanceOptions = {},
): void {
  const timeout = options.timeoutMs ?? 30_000;
  const calls = options.calls ?? [];
  const callSteps = (): ScriptStep[] =>
    calls.length === 0 ? [] : [calls.map((c, i) => fc(c.tool, c.arguments ?? {}, `call_cap_${i}`))];

  /** An agent with the capability (spied) and a scripted model. */
  async function setUp(steps: ScriptStep[]) {
    const log: string[] = [];
    const model = new ScriptedModel(steps);
    const agent = new Agent({
      name: 'Capability conformance',
      instructions: AGENT_INSTRUCTIONS,
      model,
      capabilities: [spied(await factory(), log)],
      tools: [
        tool({ name: 'conformance_echo', description: 'Echo.', execute: (a) => JSON.stringify(a) }),
        tool({
          name: 'conformance_gate',
          description: 'Gated.',
          needsApproval: true,
          execute: () => 'opened',
        }),
      ],
    });
    return { log, model, agent };
  }
  const drive = async (
    agent: Agent,
    input: string | Item[] | RunState,
    stream: boolean,
    signal?: AbortSignal,
  ) => {
    const opts = { context: options.context, signal };
    if (!stream) return run(agent, input as string, opts);
    const result = await run(agent, input as string, { ...opts, stream: true });
    for await (const _ of result);
    await result.completed;
    return result;
  };
  const answer = (): ScriptStep[] => [...callSteps(), [msg('Capability conformance answer.')]];

  describe(`Capability conformance: ${name}`, () => {
    it('declares a name, specificationVersion v1 (or none) and function hooks', async () => {
      const cap = await factory();
      expect(typeof cap.name).toBe('string');
      expect(cap.name.length).toBeGreaterThan(0);
      expect([undefined, 'v1']).toContain(cap.specificationVersion);
      for (const hook of [
        'clone',
        'tools',
        'instructions',
        'modelSettings',
        'processInput',
        'setup',
        'teardown',
      ] as const)
        expect(['undefined', 'function'], hook).toContain(typeof cap[hook]);
    });

    it('a run: setup, tools, instructions, then one teardown; its calls answered; the same requests in both modes', {
      timeout,
    }, async () => {
      const requests: ReturnType<typeof shape>[][] = [];
      for (const stream of [false, true]) {
        const { log, model, agent } = await setUp(answer());
        const result = await drive(agent, 'Conformance question.', stream);
        expect(result.finalOutput).toBe('Capability conformance answer.');
        expect(log.filter((l) => l !== 'tools' && l !== 'instructions')).toEqual([
          'setup',
          'teardown:final_output',
        ]);
        const order = ['setup', 'tools', 'instructions'].filter((h) => log.includes(h));
        expect(log.filter((l) => order.includes(l))).toEqual(order);
        for (const r of model.requests)
          expect(r.systemInstructions?.startsWith(AGENT_INSTRUCTIONS)).toBe(true);
        const outputs = result.newItems.filter((i) => i.type === 'tool_call_output_item');
        expect(outputs).toHaveLength(calls.length);
        for (const o of outputs)
          expect((o.raw_item as { output: unknown }).output).not.toBe(REDACTED_TOOL_ERROR);
        requests.push(model.requests.map(shape));
      }
      expect(requests[1]).toEqual(requests[0]);
    });

    it('runs are independent: three runs, two of them concurrent, send the same instructions and tools', {
      timeout,
    }, async () => {
      const { agent, model } = await setUp([[msg('one')], [msg('two')], [msg('three')]]);
      await drive(agent, 'Conformance question.', false);
      await Promise.all([
        drive(agent, 'Conformance question.', false),
        drive(agent, 'Conformance question.', true),
      ]);
      const shapes = model.requests.map(shape);
      expect(shapes[1]).toEqual(shapes[0]);
      expect(shapes[2]).toEqual(shapes[0]);
    });

    it('teardown once on every exit path (model error, abort, interruption); setup again on resume', {
      timeout,
    }, async () => {
      const failing = await setUp([{ error: new Error('conformance: the model failed') }]);
      await expect(drive(failing.agent, 'x', false)).rejects.toThrow(
        'conformance: the model failed',
      );
      expect(failing.log.filter((l) => l.startsWith('teardown'))).toEqual(['teardown:error']);
      const slow = await setUp([{ output: [msg('late')], delayMs: 60_000 }]);
      const controller = new AbortController();
      const aborted = drive(slow.agent, 'x', true, controller.signal).catch((e: unknown) => e);
      await waitFor(() => slow.model.requests.length === 1, timeout, 'the model call');
      controller.abort();
      expect(await aborted).toBeInstanceOf(Error);
      expect(slow.log.filter((l) => l.startsWith('teardown'))).toEqual(['teardown:error']);
      const gated = await setUp([[fc('conformance_gate', {}, 'call_gate')], ...answer()]);
      const paused = await drive(gated.agent, 'Open the gate.', false);
      expect(paused.interruptions.map((i) => i.call_id)).toEqual(['call_gate']);
      expect(gated.log.filter((l) => l.startsWith('teardown') || l === 'setup')).toEqual([
        'setup',
        'teardown:interruption',
      ]);
      const state = await RunState.fromString(gated.agent, paused.state.toString());
      state.approve(state.getInterruptions()[0]);
      const done = await drive(gated.agent, state, false);
      expect(done.finalOutput).toBe('Capability conformance answer.');
      expect(gated.log.filter((l) => l.startsWith('teardown') || l === 'setup')).toEqual([
        'setup',
        'teardown:interruption',
        'setup',
        'teardown:final_output',
      ]);
      const [before, ...after] = gated.model.requests.map(shape);
      for (const s of after) expect(s).toEqual(before);
    });

    it('run.state holds JSON: the extensions come back unchanged from JSON.stringify', {
      timeout,
    }, async () => {
      const { agent } = await setUp([[fc('conformance_gate', {}, 'call_gate')], ...answer()]);
      const paused = await drive(agent, 'Open the gate.', false);
      const extensions = paused.state.extensions;
      expect(JSON.parse(JSON.stringify(extensions))).toStrictEqual(extensions);
      const state = await RunState.fromString(agent, paused.state.toString());
      state.approve(state.getInterruptions()[0]);
      const done = await drive(agent, state, false);
      expect(JSON.parse(JSON.stringify(done.state.extensions))).toStrictEqual(
        done.state.extensions,
      );
    });

    it('processInput keeps calls paired and leaves its argument and the run items alone; modelSettings too', {
      timeout,
    }, async () => {
      const { agent, model } = await setUp(answer());
      const input = history();
      const sent = structuredClone(input);
      const result = await drive(agent, input, false);
      expect(input).toEqual(sent);
      expect(result.history.slice(0, sent.length)).toEqual(sent);
      for (const r of model.requests) expect(dropOrphanCalls(r.input)).toEqual(r.input);
      // Called directly (after setup, as a run would) with frozen arguments: no in-place change.
      const cap = await factory();
      const data = new Map<string, unknown>();
      const capRun: CapabilityRun = {
        runContext: new RunContext(options.context),
        agent,
        runId: 'run_capability_conformance',
        state: { get: (k) => data.get(k), set: (k, v) => void data.set(k, v) },
        getModel: async () => model,
        transcript: () => ({ input: sent, generated: [] }),
      };
      await cap.setup?.(capRun);
      try {
        const frozen = Object.freeze(sent.map((i) => Object.freeze(structuredClone(i)))) as Item[];
        if (cap.processInput) {
          const out = await cap.processInput(frozen, capRun);
          expect(dropOrphanCalls(out)).toEqual(out);
        }
        const settings = Object.freeze({ temperature: 0.5 });
        if (cap.modelSettings) expect(typeof cap.modelSettings(settings)).toBe('object');
      } finally {
        await cap.teardown?.(capRun, { type: 'final_output' });
      }
    });
  });
}
