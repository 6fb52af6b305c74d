/**
 * Resumes that cannot go wrong silently (issue 19): a paused state resumed twice never repeats an
 * approved side effect, states carry a resume generation a store can compare-and-set, tools get
 * `idempotencyKey` in every mode, and a resume with another agent, another session or an agent
 * that lost an approved tool is a `UserError` before anything runs.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runIn } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import type { FunctionCallOutputItem } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import type { Session } from '../session/session.js';
import { type FunctionTool, tool } from '../tool/tool.js';
import { run } from './run.js';
import { RunContext } from './run-context.js';
import { runToolCall } from './run-tool-call.js';

/** A desk whose `refund` needs approval; `refunds` counts executions, `keys` their idempotency keys. */
function desk(
  options: { withRefund?: boolean; refundEnabled?: boolean; resumedOnly?: boolean } = {},
) {
  const refunds: string[] = [];
  const keys: string[] = [];
  const model = new ScriptedModel([
    ...(options.resumedOnly ? [] : [[fc('refund', { order: '#42' }, 'call_refund')]]),
    [msg('Refunded.')],
  ]);
  const refund = tool({
    name: 'refund',
    description: 'Refund an order',
    parameters: z.object({ order: z.string() }),
    needsApproval: true,
    isEnabled: options.refundEnabled ?? true,
    execute: ({ order }, _ctx, details) => {
      refunds.push(order);
      keys.push(details.idempotencyKey);
      return `refunded ${order}`;
    },
  });
  const agent = new Agent({
    name: 'Desk',
    tools: options.withRefund === false ? [] : [refund],
    model,
  });
  return { agent, model, refunds, keys };
}

const outputsOf = (items: { type: string }[]) =>
  items.filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output');

for (const stream of [false, true]) {
  const mode = stream ? 'streamed' : 'non-streamed';

  describe(`resuming a paused state twice (${mode})`, () => {
    it('with a session: the second resume of the same JSON is refused and runs nothing again', async () => {
      const { agent, model, refunds } = desk();
      const session = new MemorySession({ sessionId: 'conv_1' });
      const paused = await runIn(agent, 'refund order 42', { session }, stream);
      const json = paused.state.toString();
      const first = await RunState.fromString(agent, json);
      first.approve(first.getInterruptions()[0]);
      expect((await runIn(agent, first, { session }, stream)).finalOutput).toBe('Refunded.');
      const stored = await session.getItems();
      // The same paused state again (a double-clicked "approve", a second worker).
      const second = await RunState.fromString(agent, json);
      second.approve(second.getInterruptions()[0]);
      const error = await runIn(agent, second, { session }, stream).catch((e) => e);
      expect(error).toBeInstanceOf(UserError);
      expect(error.message).toMatch(
        /already resumed: session "conv_1" holds the output of call call_refund \(tool "refund"\)/,
      );
      expect(refunds).toEqual(['#42']);
      expect(model.requests).toHaveLength(2);
      expect(await session.getItems()).toEqual(stored);
      expect(outputsOf(stored).map((o) => o.call_id)).toEqual(['call_refund']);
      // The refused state is untouched: still paused, still resumable by nobody else.
      expect(second.inUse).toBe(false);
      expect(second.resumeGeneration).toBe(0);
    });

    it('without a session: each resume raises the generation, so a store detects a stale copy', async () => {
      const { agent, refunds } = desk();
      const paused = await runIn(agent, 'refund order 42', {}, stream);
      expect(paused.state.resumeGeneration).toBe(0);
      // A store that keeps the latest generation per run id and claims it before a resume.
      const stored = new Map<string, number>();
      const store = {
        save: (s: RunState) => stored.set(s.runId, s.resumeGeneration),
        claim(s: RunState) {
          const current = stored.get(s.runId) ?? 0;
          if (s.resumeGeneration < current) return false;
          stored.set(s.runId, s.resumeGeneration + 1);
          return true;
        },
      };
      const json = paused.state.toString();
      store.save(paused.state);
      const a = await RunState.fromString(agent, json);
      const b = await RunState.fromString(agent, json);
      expect(store.claim(a)).toBe(true);
      a.approve(a.getInterruptions()[0]);
      const done = await runIn(agent, a, {}, stream);
      expect(done.state.resumeGeneration).toBe(1);
      expect(JSON.parse(done.state.toString()).resumeGeneration).toBe(1);
      store.save(done.state);
      expect(b.resumeGeneration).toBe(0);
      expect(store.claim(b)).toBe(false); // already resumed: refused before any tool runs
      expect(refunds).toEqual(['#42']);
    });

    it('tools receive idempotencyKey runId:callId, the same after a JSON round trip', async () => {
      const { agent, keys } = desk();
      const paused = await runIn(agent, 'refund', { runId: 'run_fixed' }, stream);
      const state = await RunState.fromString(agent, paused.state.toString());
      state.approve(state.getInterruptions()[0]);
      await runIn(agent, state, {}, stream);
      expect(keys).toEqual(['run_fixed:call_refund']);
    });

    it('run(otherAgent, state) is refused, by name and by identity, before anything runs', async () => {
      const { agent, model, refunds } = desk();
      const paused = await runIn(agent, 'refund', {}, stream);
      paused.state.approve(paused.state.getInterruptions()[0]);
      const stranger = new Agent({ name: 'Stranger', model });
      const byName = await runIn(stranger, paused.state, {}, stream).catch((e) => e);
      expect(byName).toBeInstanceOf(UserError);
      expect(byName.message).toMatch(/belongs to starting agent "Desk", not "Stranger"/);
      const twin = desk().agent; // same name, another object (another tool list)
      const byIdentity = await runIn(twin, paused.state, {}, stream).catch((e) => e);
      expect(byIdentity).toBeInstanceOf(UserError);
      expect(byIdentity.message).toMatch(/loaded with another Agent object named "Desk"/);
      expect(refunds).toEqual([]);
      expect(model.requests).toHaveLength(1);
      expect(paused.state.resumeGeneration).toBe(0);
      expect((await runIn(agent, paused.state, {}, stream)).finalOutput).toBe('Refunded.');
    });

    it('an approved call whose tool is gone (or disabled) on the rebound agent fails the resume', async () => {
      for (const changed of [{ withRefund: false }, { refundEnabled: false }]) {
        const { agent, refunds } = desk();
        const paused = await runIn(agent, 'refund', {}, stream);
        const later = desk({ ...changed, resumedOnly: true });
        const state = await RunState.fromString(later.agent, paused.state.toString());
        state.approve(state.getInterruptions()[0]);
        const error = await runIn(later.agent, state, {}, stream).catch((e) => e);
        expect(error).toBeInstanceOf(UserError);
        expect(error.message).toMatch(
          /Call call_refund was approved for tool "refund", which agent "Desk" does not have/,
        );
        expect(later.model.requests).toHaveLength(0);
        expect(refunds).toEqual([]);
        // Rejecting instead needs no tool: the model is told, the run goes on.
        state.reject(state.getInterruptions()[0], { message: 'not today' });
        const rejected = await runIn(later.agent, state, {}, stream);
        expect(outputsOf(rejected.history).map((o) => o.output)).toEqual(['not today']);
        expect(rejected.finalOutput).toBe('Refunded.');
      }
    });

    it('a resume with another session, or none, is refused unless allowSessionChange', async () => {
      const { agent } = desk();
      const one = new MemorySession({ sessionId: 'one' });
      const two = new MemorySession({ sessionId: 'two' });
      const paused = await runIn(agent, 'refund', { session: one }, stream);
      const json = paused.state.toString();
      expect(JSON.parse(json).sessionId).toBe('one');
      const cases: [Session | undefined, RegExp][] = [
        [undefined, /started with session "one", and is resumed with no session/],
        [two, /started with session "one", and is resumed with session "two"/],
      ];
      for (const [session, message] of cases) {
        const state = await RunState.fromString(agent, json);
        const error = await runIn(agent, state, { session }, stream).catch((e) => e);
        expect(error).toBeInstanceOf(UserError);
        expect(error.message).toMatch(message);
      }
      const state = await RunState.fromString(agent, json);
      state.approve(state.getInterruptions()[0]);
      await runIn(agent, state, { session: two, allowSessionChange: true }, stream);
      expect((await two.getItems()).map((i) => i.type)).toEqual([
        'function_call_output',
        'message',
      ]);
      expect(state.sessionId).toBe('two');
      // A run that started without a session refuses one on resume, too.
      const bare = await runIn(desk().agent, 'refund', {}, stream);
      const error = await runIn(
        bare.state.startingAgent,
        bare.state,
        { session: one },
        stream,
      ).catch((e) => e);
      expect(error.message).toMatch(/started with no session, and is resumed with session "one"/);
    });
  });
}

describe('idempotencyKey in every mode', () => {
  it('runToolCall and agents used as tools pass runId:callId too', async () => {
    const keys: string[] = [];
    const t = tool({
      name: 'charge',
      description: '',
      execute: (_a, _c, details) => void keys.push(details.idempotencyKey),
    });
    const agent = new Agent({ name: 'A', tools: [t] });
    const state = RunState.create(agent, [], new RunContext({}, { runId: 'run_rt' }), 1);
    await runToolCall({ state, agent, tools: [t as FunctionTool], call: fc('charge', {}, 'c9') });
    const inner = new Agent({
      name: 'Inner',
      tools: [t],
      model: new ScriptedModel([[fc('charge', {}, 'c_in')], [msg('charged')]]),
    });
    const outer = new Agent({
      name: 'Outer',
      tools: [inner.asTool({ toolName: 'inner', toolDescription: '' })],
      model: new ScriptedModel([[fc('inner', { input: 'go' }, 'c_out')], [msg('done')]]),
    });
    await run(outer, 'go', { runId: 'run_outer' });
    expect(keys).toEqual(['run_rt:c9', 'run_outer.c_out:c_in']);
  });
});
