/**
 * The run's signal ends every user callback the loop awaits: hooks, `instructions`,
 * `isEnabled`, `needsApproval`, guardrails (run and tool), error functions and handlers,
 * filters, `sessionInputCallback`, handoff callbacks. For each kind, in both modes:
 * - a callback that hangs (ignoring the signal) ends the run with `RunAbortedError` once the
 *   signal aborts; its `state`, after a JSON round trip, resumes to the same final output as a
 *   run that was never stopped, calling that callback again (except for those that follow a
 *   step that completed: `onToolEnd`, the `onHandoff` run hook), never running again a tool
 *   that completed, and leaving the session with the conversation exactly once;
 * - a callback that aborts the signal itself and returns: no callback starts after it.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runIn } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { RunAbortedError } from '../errors/errors.js';
import { inputGuardrail, outputGuardrail } from '../guardrail/guardrail.js';
import { toolInputGuardrail, toolOutputGuardrail } from '../guardrail/tool-guardrail.js';
import { handoff } from '../handoff/handoff.js';
import type { Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';
import type { RunOptions } from './run-options.js';

const KINDS = [
  'sessionInputCallback',
  'onAgentStart',
  'toolIsEnabled',
  'handoffIsEnabled',
  'instructions',
  'callModelInputFilter',
  'inputGuardrail',
  'onLLMStart',
  'onLLMEnd',
  'needsApproval',
  'toolInputGuardrail',
  'onToolStart',
  'toolOutputGuardrail',
  'onToolEnd',
  'toolErrorFormatter',
  'onToolError',
  'errorFunction',
  'handoffOnHandoff',
  'handoffInputFilter',
  'onHandoff',
  'invalidFinalOutput',
  'outputGuardrail',
  'onAgentEnd',
  'maxTurns',
] as const;
type Kind = (typeof KINDS)[number];

/** Kinds whose callback follows a step that completed: a resume does not call it again. */
const AFTER_DONE: Kind[] = ['onToolEnd', 'onHandoff'];

/**
 * Triage calls `lookup`, `flaky` (which always fails) and `ghost` (which it does not have)
 * together, then hands off to Expert,
 * whose answer is not JSON: `invalidFinalOutput` makes the final output. Every callback counts
 * its calls and notes any that started once the signal had aborted. `target` hangs (or aborts
 * and returns, `how: 'abort'`) on its first call.
 */
function world(target: Kind | undefined, how: 'hang' | 'abort') {
  const controller = new AbortController();
  const calls: Partial<Record<Kind, number>> = {};
  const late: string[] = [];
  const runs = { lookup: 0, flaky: 0 };
  let armed = true;
  /** Callbacks are watched for a late start until the stopped run has settled. */
  const watch = { on: true };
  const cb =
    <A extends unknown[], T>(kind: Kind, value: (...args: A) => T) =>
    (...args: A): T | Promise<T> => {
      if (watch.on && controller.signal.aborted) late.push(kind);
      calls[kind] = (calls[kind] ?? 0) + 1;
      if (kind !== target || !armed) return value(...args);
      armed = false;
      if (how === 'abort') {
        controller.abort();
        return value(...args);
      }
      setTimeout(() => controller.abort(), 0);
      return new Promise<T>(() => {}); // ignores the signal
    };
  const allow = { behavior: { type: 'allow' as const } };
  const lookup = tool({
    name: 'lookup',
    description: 'Look up an order',
    parameters: z.object({ id: z.string() }),
    isEnabled: cb('toolIsEnabled', () => true),
    needsApproval: cb('needsApproval', () => false),
    inputGuardrails: [
      toolInputGuardrail({ name: 'in', execute: cb('toolInputGuardrail', () => allow) }),
    ],
    outputGuardrails: [
      toolOutputGuardrail({ name: 'out', execute: cb('toolOutputGuardrail', () => allow) }),
    ],
    execute: async ({ id }) => {
      runs.lookup++;
      return `order ${id}: shipped`;
    },
  });
  const flaky = tool({
    name: 'flaky',
    description: 'Always fails',
    parameters: z.object({}),
    errorFunction: cb('errorFunction', () => 'flaky is down'),
    execute: async () => {
      runs.flaky++;
      throw new Error('down');
    },
  });
  const expert = new Agent({
    name: 'Expert',
    model: new ScriptedModel([[msg('not json')]], { whenExhausted: 'repeat_last' }),
    outputType: z.object({ answer: z.string() }),
  });
  const answered = (input: Item[]) =>
    input.some((i) => i.type === 'function_call_output' && i.call_id === 'c_lookup');
  const triage = new Agent({
    name: 'Triage',
    instructions: cb('instructions', () => 'Help with orders.'),
    model: new ScriptedModel(
      [
        (request) =>
          answered(request.input)
            ? [fc('transfer_to_expert', {}, 'h1')]
            : [
                fc('lookup', { id: '42' }, 'c_lookup'),
                fc('flaky', {}, 'c_flaky'),
                fc('ghost', {}, 'c_ghost'),
              ],
      ],
      { whenExhausted: 'repeat_last' },
    ),
    tools: [lookup, flaky],
    handoffs: [
      handoff(expert, {
        isEnabled: cb('handoffIsEnabled', () => true),
        onHandoff: cb('handoffOnHandoff', () => undefined),
        inputFilter: cb('handoffInputFilter', (data) => data),
      }),
    ],
    inputGuardrails: [
      inputGuardrail({
        name: 'polite',
        execute: cb('inputGuardrail', () => ({ tripwireTriggered: false })),
      }),
    ],
    hooks: { onToolError: cb('onToolError', () => undefined) },
  });
  const session = new MemorySession({ initialItems: [msg('earlier', 'user'), msg('hello')] });
  const options: RunOptions = {
    session,
    signal: controller.signal,
    // Two turns of Triage, then the handler instead of Expert's turn.
    maxTurns: target === 'maxTurns' ? 2 : 10,
    sessionInputCallback: cb('sessionInputCallback', (history: Item[], input: Item[]) => [
      ...history,
      ...input,
    ]),
    callModelInputFilter: cb('callModelInputFilter', (data) => data),
    toolNotFound: 'return_error_to_model',
    toolErrorFormatter: cb('toolErrorFormatter', (args) => `No tool ${args.toolName}.`),
    outputGuardrails: [
      outputGuardrail({
        name: 'on topic',
        execute: cb('outputGuardrail', () => ({ tripwireTriggered: false })),
      }),
    ],
    errorHandlers: {
      invalidFinalOutput: cb('invalidFinalOutput', () => ({ finalOutput: { answer: 'fixed' } })),
      maxTurns: cb('maxTurns', () => ({ finalOutput: { answer: 'stopped' } })),
    },
    hooks: {
      onAgentStart: cb('onAgentStart', () => undefined),
      onAgentEnd: cb('onAgentEnd', () => undefined),
      onLLMStart: cb('onLLMStart', () => undefined),
      onLLMEnd: cb('onLLMEnd', () => undefined),
      onToolStart: cb('onToolStart', () => undefined),
      onToolEnd: cb('onToolEnd', () => undefined),
      onHandoff: cb('onHandoff', () => undefined),
    },
  };
  return { triage, options, calls, late, runs, session, watch };
}

/** The stored conversation, one line per item (calls and outputs by call id). */
async function stored(session: MemorySession): Promise<string[]> {
  return (await session.getItems()).map((i) =>
    i.type === 'message'
      ? `${i.role}:${typeof i.content === 'string' ? i.content : JSON.stringify(i.content)}`
      : `${i.type}:${(i as { call_id?: string }).call_id}`,
  );
}

const RUN_INPUT = 'where is order 42?';

describe('an abort ends a hung user callback; the state resumes as if it had not started', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';
    for (const kind of KINDS) {
      it(`${kind} (${mode})`, async () => {
        const clean = world(kind === 'maxTurns' ? 'maxTurns' : undefined, 'abort');
        // The reference: the same world never stopped (maxTurns: its handler must be reached).
        if (kind === 'maxTurns') clean.options.signal = undefined;
        const reference = await runIn(clean.triage, RUN_INPUT, clean.options, stream);
        const w = world(kind, 'hang');
        const error = await runIn(w.triage, RUN_INPUT, w.options, stream).catch((e) => e);
        expect(error).toBeInstanceOf(RunAbortedError);
        expect(w.calls[kind]).toBeGreaterThan(0);
        const state = error.state as RunState | undefined;
        // Only a callback before the run's state exists (the session's input) leaves none.
        expect(state === undefined).toBe(kind === 'sessionInputCallback');
        expect(w.late).toEqual([]);
        w.watch.on = false;
        const input = state ? await RunState.fromString(w.triage, state.toString()) : RUN_INPUT;
        const resumed = await runIn(w.triage, input, { ...w.options, signal: undefined }, stream);
        expect(resumed.finalOutput).toEqual(reference.finalOutput);
        // As many calls as a run never stopped, and the one stopped made again.
        expect(w.calls[kind]).toBe(clean.calls[kind]! + (AFTER_DONE.includes(kind) ? 0 : 1));
        // A tool that completed is not run again; one stopped before it finished runs once more.
        expect(w.runs.lookup).toBe(1);
        expect(w.runs.flaky).toBe(['onToolError', 'errorFunction'].includes(kind) ? 2 : 1);
        // Each item once (a sibling's output kept from the stopped run may come first).
        expect((await stored(w.session)).sort()).toEqual((await stored(clean.session)).sort());
      });
    }
  }
});

describe('no user callback starts once the signal has aborted', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';
    for (const kind of KINDS) {
      it(`after ${kind} aborts the run and returns (${mode})`, async () => {
        const w = world(kind, 'abort');
        const outcome = await runIn(w.triage, RUN_INPUT, w.options, stream).catch((e) => e);
        expect(w.calls[kind]).toBe(1);
        expect(w.late).toEqual([]);
        w.watch.on = false;
        // The last callbacks of a run may abort it with nothing left to do: it then ends.
        if (!(outcome instanceof RunAbortedError))
          expect(
            ['onAgentEnd', 'outputGuardrail'].includes(kind) || outcome.finalOutput,
          ).toBeTruthy();
        else if (outcome.state) {
          const state = await RunState.fromString(w.triage, outcome.state.toString());
          const resumed = await runIn(w.triage, state, { ...w.options, signal: undefined }, stream);
          expect(resumed.finalOutput).toEqual({
            answer: kind === 'maxTurns' ? 'stopped' : 'fixed',
          });
        }
      });
    }
    it(`a run whose signal aborted before it started calls nothing (${mode})`, async () => {
      const w = world(undefined, 'abort');
      const controller = new AbortController();
      controller.abort();
      const error = await runIn(
        w.triage,
        RUN_INPUT,
        { ...w.options, signal: controller.signal },
        stream,
      ).catch((e) => e);
      expect(error).toBeInstanceOf(RunAbortedError);
      expect(w.calls).toEqual({});
    });
  }
});

/**
 * The other awaited callbacks, each in a run of its own: a `prompt` function, a capability's
 * `setup`, a model provider's `getModel`, a hosted tool's `onApproval`, `modelRefusal`. Each
 * hangs once: the abort ends the run; its state (JSON round trip) resumes to the answer,
 * calling the callback again.
 */
describe('an abort ends the other awaited callbacks too', () => {
  const refusal: Item = {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'refusal', refusal: 'no' }],
  } as Item;
  const cases: Record<
    string,
    (hang: <T>(value: T) => T | Promise<T>) => {
      agent: Agent;
      options?: RunOptions;
    }
  > = {
    prompt: (hang) => ({
      agent: new Agent({
        name: 'A',
        model: new ScriptedModel([[msg('done')]]),
        prompt: () => hang({ id: 'pmpt_1' }),
      }),
    }),
    'capability setup': (hang) => ({
      agent: new Agent({
        name: 'A',
        model: new ScriptedModel([[msg('done')]]),
        capabilities: [{ name: 'slow', setup: () => hang(undefined) }],
      }),
    }),
    'modelProvider.getModel': (hang) => {
      const model = new ScriptedModel([[msg('done')]]);
      return {
        agent: new Agent({ name: 'A', model: 'fake' }),
        options: { modelProvider: { getModel: () => hang(model) } },
      };
    },
    'hosted onApproval': (hang) => ({
      agent: new Agent({
        name: 'A',
        model: new ScriptedModel([
          [
            {
              type: 'mcp_approval_request',
              id: 'r1',
              name: 'delete_file',
              arguments: '{}',
              server_label: 'files',
            },
          ],
          [msg('done')],
        ]),
        tools: [
          {
            type: 'hosted_tool',
            name: 'mcp_files',
            providerId: 'openai',
            providerData: { type: 'mcp', server_label: 'files' },
            onApproval: () => hang({ approve: true }),
          },
        ],
      }),
    }),
    modelRefusal: (hang) => ({
      agent: new Agent({ name: 'A', model: new ScriptedModel([[refusal]]) }),
      options: { errorHandlers: { modelRefusal: () => hang({ finalOutput: 'done' }) } },
    }),
  };
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';
    for (const [name, make] of Object.entries(cases)) {
      it(`${name} (${mode})`, async () => {
        const controller = new AbortController();
        let calls = 0;
        const hang = <T>(value: T): T | Promise<T> => {
          if (++calls > 1) return value;
          setTimeout(() => controller.abort(), 0);
          return new Promise<T>(() => {});
        };
        const { agent, options = {} } = make(hang);
        const error = await runIn(
          agent,
          'go',
          { ...options, signal: controller.signal },
          stream,
        ).catch((e) => e);
        expect(error).toBeInstanceOf(RunAbortedError);
        const state = await RunState.fromString(agent, (error.state as RunState).toString());
        const resumed = await runIn(agent, state, options, stream);
        expect(resumed.finalOutput).toBe('done');
        expect(calls).toBe(2);
      });
    }
  }
});
