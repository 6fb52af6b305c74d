/**
 * Fault: the run's signal aborts at every await of a turn with tools. A run on `ScriptedModel`,
 * `MemorySession` and async tools settles on microtasks alone, so "abort after k microtask
 * rounds" lands, for k = 1, 2, …, at each point where the run is suspended — from reading the
 * session to the last write — until a k where the run finishes first. Each time, in both
 * modes: a `RunAbortedError`; its `history` replayable (no call without output); the session
 * holding whole writes only (a prefix of the conversation, ending where a write ended); its state, after a
 * JSON round trip, resumes to the end without re-running a tool whose output it holds (or that
 * finished before the abort); the session then holding the conversation exactly once.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runIn } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { OutputGuardrailTripwireTriggered, RunAbortedError } from '../errors/errors.js';
import { inputGuardrail, outputGuardrail } from '../guardrail/guardrail.js';
import { dropOrphanCalls } from '../items/item-helpers.js';
import type { Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';
import { run } from './run.js';

/** More than any scenario here needs (~100–300 rounds); a run past it fails the test. */
const MAX_ROUNDS = 2_000;
/**
 * Microtask rounds the kernel may take to take in a tool's result (the tool's promise, then the
 * abort race around it, then the awaiting call). A tool that finished this close to the abort
 * may be re-run on resume: an abort can not tell a result that was about to arrive from one the
 * tool gave in answer to the abort (`cancellation.test.ts` counts on the latter being dropped).
 */
const SETTLE_ROUNDS = 2;
/** The round the current sweep is in (read by the tools when they finish). */
const clock = { round: 0 };

/**
 * A support turn: the model calls `lookup` and `refund` together (optionally `refund` needs
 * approval), then answers. Tools, guardrails and hooks are async; tools honour their signal and
 * count what they do.
 */
function world(options: { refundNeedsApproval?: boolean; final?: Item[] } = {}) {
  const started = new Map<string, number>();
  const finished = new Map<string, number>();
  /** Each finish, with the round it happened in. */
  const finishes: { callId: string; round: number }[] = [];
  const model = new ScriptedModel(
    [
      (request) =>
        request.input.some((i) => i.type === 'function_call_output')
          ? (options.final ?? [msg('All done.')])
          : [fc('lookup', { id: '42' }, 'c_lookup'), fc('refund', { id: '42' }, 'c_refund')],
    ],
    { whenExhausted: 'repeat_last' },
  );
  const work = (name: string, needsApproval = false) =>
    tool({
      name,
      description: `${name} an order`,
      parameters: z.object({ id: z.string() }),
      needsApproval,
      execute: async ({ id }, _ctx, { callId, signal }) => {
        started.set(callId, (started.get(callId) ?? 0) + 1);
        await null;
        await Promise.resolve();
        signal.throwIfAborted();
        finished.set(callId, (finished.get(callId) ?? 0) + 1);
        finishes.push({ callId, round: clock.round });
        return `${name} ${id} ok`;
      },
    });
  // Judging takes a few rounds, so it overlaps the model call it races.
  const judged = async () => {
    for (let i = 0; i < 4; i++) await null;
    return { tripwireTriggered: false, outputInfo: 'ok' };
  };
  const tick = async () => {
    await null;
  };
  const agent = new Agent({
    name: 'Support',
    // Async hooks: more places where the run waits on user code.
    hooks: {
      onAgentStart: tick,
      onAgentEnd: tick,
      onLLMStart: tick,
      onLLMEnd: tick,
      onToolStart: tick,
      onToolEnd: tick,
    },
    model,
    tools: [work('lookup'), work('refund', options.refundNeedsApproval)],
    inputGuardrails: [inputGuardrail({ name: 'polite', execute: judged })],
    outputGuardrails: [outputGuardrail({ name: 'on topic', execute: judged })],
  });
  return { agent, model, started, finished, finishes };
}

function describeItem(item: Item): string {
  if (item.type === 'message') {
    const text =
      typeof item.content === 'string'
        ? item.content
        : item.content.map((p) => (p as { text?: string }).text ?? '').join('');
    return `${item.role}:${text}`;
  }
  if (item.type === 'function_call') return `call:${item.call_id}`;
  if (item.type === 'function_call_output') return `output:${item.call_id}:${item.output}`;
  return item.type;
}

/** Runs to the end in either mode; resolves with the result or rejects with the run's error. */

/**
 * Starts `start()` and aborts `controller` after `k` microtask rounds (unless it settled first).
 * Resolves with the outcome and the calls that had finished at the abort: `settled` (at least
 * SETTLE_ROUNDS before it) and `recent` (just before it).
 */
async function abortAfter<T>(
  k: number,
  controller: AbortController,
  finishes: { callId: string; round: number }[],
  start: () => Promise<T>,
) {
  let settled = false;
  const from = finishes.length;
  clock.round = 0;
  const outcome = start().then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  void outcome.then(() => {
    settled = true;
  });
  let atAbort: { settled: Set<string>; recent: Set<string> } | undefined;
  for (clock.round = 1; clock.round <= k && !settled; clock.round++) await null;
  if (!settled) {
    const done = finishes.slice(from);
    atAbort = {
      settled: new Set(done.filter((f) => f.round <= k - SETTLE_ROUNDS).map((f) => f.callId)),
      recent: new Set(done.filter((f) => f.round > k - SETTLE_ROUNDS).map((f) => f.callId)),
    };
    controller.abort();
  }
  clock.round = Number.POSITIVE_INFINITY;
  return { ...(await outcome), atAbort };
}

/** Call ids whose output a state holds (finished tools it must not run again). */
function outputsIn(state: RunState): Set<string> {
  return new Set(
    state.generatedItems.flatMap((i) =>
      i.type === 'tool_call_output_item' ? [(i.raw_item as { call_id: string }).call_id] : [],
    ),
  );
}

/** What one abort at round k did, checked; returns whether the run was aborted. */
/** The session an unaborted run leaves: its items, and the item count after each write. */
interface Conversation {
  items: string[];
  writeEnds: number[];
}

type Setup = () => Promise<{
  w: ReturnType<typeof world>;
  session: MemorySession;
  input: string | RunState;
}>;

async function checkAbortAt(
  k: number,
  stream: boolean,
  setup: Setup,
  conversation: Conversation,
): Promise<{ aborted: boolean; reRunAfterFinish: number }> {
  const { w, session, input } = await setup();
  const before = (await session.getItems()).map(describeItem);
  const controller = new AbortController();
  const { result, error, atAbort } = await abortAfter(k, controller, w.finishes, () =>
    runIn(w.agent, input, { session, signal: controller.signal }, stream),
  );
  if (!atAbort) {
    // The run finished before round k: it must have finished normally.
    expect(error).toBeUndefined();
    expect(result!.finalOutput).toBe('All done.');
    expect((await session.getItems()).map(describeItem)).toEqual(conversation.items);
    return { aborted: false, reRunAfterFinish: 0 };
  }
  const where = `abort at round ${k} (${stream ? 'streamed' : 'non-streamed'})`;
  // A run that completed although aborted at its very end is allowed; otherwise RunAbortedError.
  if (error === undefined) {
    expect(result!.finalOutput, where).toBe('All done.');
    expect((await session.getItems()).map(describeItem), where).toEqual(conversation.items);
    return { aborted: false, reRunAfterFinish: 0 };
  }
  expect(error, where).toBeInstanceOf(RunAbortedError);
  const aborted = error as RunAbortedError;
  // The history is replayable: no call without its output, no output without its call.
  expect(aborted.history, where).toBeDefined();
  expect(dropOrphanCalls(aborted.history!), where).toEqual(aborted.history);
  // The session holds whole writes: what it held before, then a prefix of the conversation that
  // ends where one of the unaborted run's writes ended.
  const stored = (await session.getItems()).map(describeItem);
  expect(stored.slice(0, before.length), where).toEqual(before);
  expect(conversation.items.slice(0, stored.length), where).toEqual(stored);
  expect(conversation.writeEnds, where).toContain(stored.length);
  // The state resumes after a JSON round trip, to the end, without re-running finished tools.
  expect(aborted.state, where).toBeInstanceOf(RunState);
  const state = await RunState.fromString(w.agent, (aborted.state as RunState).toString());
  const held = outputsIn(state);
  const finishedBefore = new Map(w.finished);
  const resumed = await runIn(w.agent, state, { session }, stream);
  expect(resumed.finalOutput, where).toBe('All done.');
  // The input guardrail passed before the answer was used (an abort does not skip it).
  expect(
    resumed.inputGuardrailResults.map((g) => g.guardrailName),
    where,
  ).toEqual(['polite']);
  let reRunAfterFinish = 0;
  for (const [callId, n] of w.finished) {
    const again = n - (finishedBefore.get(callId) ?? 0);
    // A call whose output the state holds, or that finished before the abort, never runs
    // again; a call that finished just at the abort may (it is counted).
    if (held.has(callId)) expect(again, `${where}: ${callId} re-ran`).toBe(0);
    if (atAbort.settled.has(callId)) expect(again, `${where}: ${callId} re-ran`).toBe(0);
    if (atAbort.recent.has(callId) && again > 0) reRunAfterFinish++;
    expect(n, `${where}: ${callId} finished ${n} times`).toBeLessThanOrEqual(
      atAbort.recent.has(callId) ? 2 : 1,
    );
  }
  expect((await session.getItems()).map(describeItem), where).toEqual(conversation.items);
  return { aborted: true, reRunAfterFinish };
}

/** Sweeps k = 1, 2, … until the run finishes before the abort; returns the figures. */
async function sweep(
  stream: boolean,
  setup: Setup,
): Promise<{ points: number; reRunAfterFinish: number }> {
  // Loads zod and the item schemas first, so the first sweep sees the same rounds as the others
  // (inside the test, not at module level: mutation testing attributes the run to this test).
  await run(world().agent, 'warm up');
  // The conversation an unaborted run leaves in the session, and where its writes end.
  const baseline = await setup();
  const writeEnds = [(await baseline.session.getItems()).length];
  const add = baseline.session.addItems.bind(baseline.session);
  baseline.session.addItems = async (items, options) => {
    await add(items, options);
    writeEnds.push((await baseline.session.getItems()).length);
  };
  await runIn(baseline.w.agent, baseline.input, { session: baseline.session }, stream);
  const conversation = {
    items: (await baseline.session.getItems()).map(describeItem),
    writeEnds,
  };
  expect(conversation.items).toContain('assistant:All done.');
  let reRunAfterFinish = 0;
  for (let k = 1; k <= MAX_ROUNDS; k++) {
    const outcome = await checkAbortAt(k, stream, setup, conversation);
    reRunAfterFinish += outcome.reRunAfterFinish;
    if (!outcome.aborted) {
      // Past the run's last await: every later k also finishes (checked once more).
      const later = await checkAbortAt(k + 50, stream, setup, conversation);
      expect(later.aborted).toBe(false);
      return { points: k - 1, reRunAfterFinish };
    }
  }
  throw new Error(`the run did not finish within ${MAX_ROUNDS} microtask rounds`);
}

describe('abort at every await of a turn with tools', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`a new run on a session with history, input and output guardrails and two concurrent tools (${mode})`, async () => {
      const { points, reRunAfterFinish } = await sweep(stream, async () => ({
        w: world(),
        session: new MemorySession({ initialItems: [msg('earlier', 'user'), msg('Hello.')] }),
        input: 'refund order 42',
      }));
      console.info(
        `[abort-sweep] new run, ${mode}: ${points} abort points, tools re-run after finishing within ${SETTLE_ROUNDS} rounds of the abort: ${reRunAfterFinish}`,
      );
      expect(points).toBeGreaterThan(20);
    });

    it(`a final answer followed by a reasoning item (${mode})`, async () => {
      const final: Item[] = [
        msg('All done.'),
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'that settles it' }] },
      ];
      const { points } = await sweep(stream, async () => ({
        w: world({ final }),
        session: new MemorySession(),
        input: 'refund order 42',
      }));
      expect(points).toBeGreaterThan(20);
    });

    it(`resuming an approved call next to a finished sibling (${mode})`, async () => {
      const { points, reRunAfterFinish } = await sweep(stream, async () => {
        const w = world({ refundNeedsApproval: true });
        const session = new MemorySession();
        const paused = await run(w.agent, 'refund order 42', { session });
        expect(paused.interruptions.map((i) => i.call_id)).toEqual(['c_refund']);
        const state = await RunState.fromString(w.agent, paused.state.toString());
        state.approve(state.getInterruptions()[0]);
        expect(w.finished.get('c_lookup')).toBe(1);
        return { w, session, input: state };
      });
      console.info(
        `[abort-sweep] approved resume, ${mode}: ${points} abort points, tools re-run after finishing within ${SETTLE_ROUNDS} rounds of the abort: ${reRunAfterFinish}`,
      );
      expect(points).toBeGreaterThan(10);
    });
  }
});

describe('a final output kept for its guardrails', () => {
  for (const stream of [false, true]) {
    it(`after an output tripwire (not an abort), resuming asks the model again (${stream ? 'streamed' : 'non-streamed'})`, async () => {
      const model = new ScriptedModel([[msg('leaked SSN 123')], [msg('Safe answer.')]]);
      const agent = new Agent({
        name: 'A',
        model,
        outputGuardrails: [
          outputGuardrail({
            name: 'no ssn',
            execute: ({ output }) => ({ tripwireTriggered: String(output).includes('SSN') }),
          }),
        ],
      });
      const error = await runIn(agent, 'q', {}, stream).catch((e) => e);
      expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const state = await RunState.fromString(agent, (error.state as RunState).toString());
      expect(state.finalOutput).toBeUndefined();
      const resumed = await runIn(agent, state, {}, stream);
      expect(resumed.finalOutput).toBe('Safe answer.');
      expect(model.requests).toHaveLength(2);
    });
  }
});
