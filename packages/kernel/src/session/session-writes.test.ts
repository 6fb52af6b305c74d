/**
 * Session writes of the run loop: a write is part of the state before it is attempted, so a run
 * resumed after a failed write (JSON round trip between) retries exactly that write — with the
 * same appendId for a v2 session — and never calls the model or a tool again for it.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { SessionError, UserError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import { run } from '../loop/run.js';
import type { RunOptions } from '../loop/run-options.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';
import { MemorySession } from './memory-session.js';
import type { AddItemsOptions, Session, SessionV2 } from './session.js';

type Fault = 'before' | 'after' | undefined;

/**
 * A MemorySession whose n-th `addItems` call (0-based) fails: `'before'` writes nothing,
 * `'after'` writes and then loses the reply (the caller sees an error). As v1 it hides
 * `specificationVersion` and records the arguments of each call.
 */
function flaky(version: 'v1' | 'v2', faults: Record<number, Fault>, initialItems: Item[] = []) {
  const inner = new MemorySession({ sessionId: `flaky_${version}`, initialItems });
  const calls: { items: Item[]; args: number; appendId?: string }[] = [];
  const session: Session & Partial<SessionV2> = {
    sessionId: inner.sessionId,
    getItems: (limit) => inner.getItems(limit),
    addItems: async (...args: [Item[], AddItemsOptions?]) => {
      const fault = faults[calls.length];
      calls.push({ items: args[0], args: args.length, appendId: args[1]?.appendId });
      if (fault === 'before') throw new SessionError('store down', { operation: 'addItems' });
      await inner.addItems(...args);
      if (fault === 'after') throw new SessionError('reply lost', { operation: 'addItems' });
    },
    popItem: () => inner.popItem(),
    clearSession: () => inner.clearSession(),
  };
  if (version === 'v2') Object.assign(session, { specificationVersion: 'v2' });
  return { session, calls, stored: () => inner.getItems() };
}

const texts = (items: Item[]) =>
  items.map((i) =>
    i.type === 'message'
      ? typeof i.content === 'string'
        ? i.content
        : i.content.map((p) => (p as { text?: string }).text).join('')
      : `${i.type}:${(i as { call_id?: string }).call_id}`,
  );

/** A two-turn run: a tool call (counted per call id), then the final answer. */
function scenario() {
  const runs: Record<string, number> = {};
  const model = new ScriptedModel([[fc('lookup', { q: 'x' }, 'c1')], [msg('the answer')]]);
  const lookup = tool({
    name: 'lookup',
    description: 'Looks up.',
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    execute: (_args, _ctx, details) => {
      const id = details.callId;
      runs[id] = (runs[id] ?? 0) + 1;
      return 'found';
    },
  });
  return { agent: new Agent({ name: 'A', model, tools: [lookup] }), model, runs };
}

async function drive(agent: Agent, input: string | RunState, options: RunOptions, stream: boolean) {
  if (!stream) return run(agent, input, options);
  const result = await run(agent, input, { ...options, stream: true });
  for await (const _ of result);
  await result.completed;
  return result;
}

/** Runs to the end, resuming the error's state (after a JSON round trip) on every SessionError. */
async function runResuming(
  agent: Agent,
  input: string,
  session: Session,
  stream: boolean,
  maxResumes = 5,
) {
  let next: string | RunState = input;
  const errors: SessionError[] = [];
  for (let i = 0; i <= maxResumes; i++) {
    try {
      return { result: await drive(agent, next, { session }, stream), errors };
    } catch (error) {
      if (!(error instanceof SessionError) || !error.state) throw error;
      errors.push(error);
      next = await RunState.fromString(agent, (error.state as RunState).toString());
    }
  }
  throw new Error('too many resumes');
}

const expected = ['hi', 'function_call:c1', 'function_call_output:c1', 'the answer'];

for (const stream of [false, true]) {
  describe(`session writes (stream: ${stream})`, () => {
    it('a failed final write is retried alone on resume: no second model call, one answer', async () => {
      for (const version of ['v1', 'v2'] as const) {
        const { agent, model, runs } = scenario();
        // Calls: 0 input, 1 turn-1 items, 2 final answer.
        const { session, calls, stored } = flaky(version, { 2: 'before' });
        const { result, errors } = await runResuming(agent, 'hi', session, stream);
        expect(errors).toHaveLength(1);
        const failed = errors[0].state as RunState;
        expect(failed.hasFinalOutput).toBe(true);
        expect(failed.finalOutput).toBe('the answer');
        expect(failed.pendingSessionWrite?.appendId).toBe(`${failed.runId}:t2:items:2-3`);
        expect(result.finalOutput).toBe('the answer');
        expect(model.calls).toBe(2);
        expect(runs).toEqual({ c1: 1 });
        expect(texts(await stored())).toEqual(expected);
        expect(calls.map((c) => texts(c.items))).toEqual([
          ['hi'],
          ['function_call:c1', 'function_call_output:c1'],
          ['the answer'],
          ['the answer'],
        ]);
      }
    });

    it('v2: a write whose reply was lost is re-sent with its appendId and stored once', async () => {
      for (const lost of [0, 1, 2]) {
        const { agent, model, runs } = scenario();
        const { session, calls, stored } = flaky('v2', { [lost]: 'after' });
        const { result, errors } = await runResuming(agent, 'hi', session, stream);
        expect(errors).toHaveLength(1);
        expect(result.finalOutput).toBe('the answer');
        expect(texts(await stored())).toEqual(expected);
        expect(model.calls).toBe(2);
        expect(runs).toEqual({ c1: 1 });
        const runId = result.state.runId;
        const ids = [`${runId}:t0:input`, `${runId}:t1:items:0-2`, `${runId}:t2:items:2-3`];
        // The failed call is sent again, with the same id, before anything else.
        expect(calls.map((c) => c.appendId)).toEqual([
          ...ids.slice(0, lost + 1),
          ...ids.slice(lost),
        ]);
      }
    });

    it('v1: calls addItems(items) with one argument, as before', async () => {
      const { agent } = scenario();
      const { session, calls, stored } = flaky('v1', {});
      await drive(agent, 'hi', { session }, stream);
      expect(calls.map((c) => c.args)).toEqual([1, 1, 1]);
      expect(calls.every((c) => c.appendId === undefined)).toBe(true);
      expect(texts(await stored())).toEqual(expected);
    });

    it('a failed write of a turn is retried as it was, then the next turn is written', async () => {
      for (const version of ['v1', 'v2'] as const) {
        const { agent, model, runs } = scenario();
        const { session, calls, stored } = flaky(version, { 1: 'before' });
        const { result, errors } = await runResuming(agent, 'hi', session, stream);
        expect(errors).toHaveLength(1);
        expect(result.finalOutput).toBe('the answer');
        expect(model.calls).toBe(2);
        expect(runs).toEqual({ c1: 1 });
        expect(texts(await stored())).toEqual(expected);
        expect(calls.map((c) => texts(c.items))).toEqual([
          ['hi'],
          ['function_call:c1', 'function_call_output:c1'],
          ['function_call:c1', 'function_call_output:c1'],
          ['the answer'],
        ]);
      }
    });

    it('a failed input write stores only the new input on resume, not the history again', async () => {
      for (const version of ['v1', 'v2'] as const) {
        const { agent, model } = scenario();
        const history: Item[] = [
          { type: 'message', role: 'user', content: 'earlier' },
          msg('earlier answer'),
        ];
        const { session, stored } = flaky(version, { 0: 'before' }, history);
        const { result, errors } = await runResuming(agent, 'hi', session, stream);
        expect(errors).toHaveLength(1);
        expect(result.finalOutput).toBe('the answer');
        expect(model.calls).toBe(2);
        expect(texts(await stored())).toEqual(['earlier', 'earlier answer', ...expected]);
        // The model saw the history once.
        expect(texts(model.requests[0].input)).toEqual(['earlier', 'earlier answer', 'hi']);
      }
    });

    it('a state holding a failed write refuses to resume without its session', async () => {
      const { agent, model } = scenario();
      const { session } = flaky('v2', { 2: 'before' });
      const error = await drive(agent, 'hi', { session }, stream).catch((e) => e);
      expect(error).toBeInstanceOf(SessionError);
      const state = await RunState.fromString(agent, (error.state as RunState).toString());
      const refused = await drive(agent, state, {}, stream).catch((e) => e);
      expect(refused).toBeInstanceOf(UserError);
      expect(refused.message).toMatch(/started with session "flaky_v2", and is resumed with no/);
      // Even a caller who allows a session change cannot drop the pending write unnoticed.
      const pending = await drive(agent, state, { allowSessionChange: true }, stream).catch(
        (e) => e,
      );
      expect(pending).toBeInstanceOf(UserError);
      expect(pending.message).toMatch(/session write that did not complete .*:t2:items:2-3/);
      // That resume recorded "no session" as allowed; the write still needs its own session.
      state.sessionId = 'flaky_v2';
      expect(model.calls).toBe(2);
      // Once the write landed, the finished state is refused as before.
      const done = await drive(agent, state, { session }, stream);
      expect(done.finalOutput).toBe('the answer');
      const again = await drive(agent, done.state, { session }, stream).catch((e) => e);
      expect(again.message).toMatch(/already has a final output/);
    });
  });
}

describe('MemorySession v2', () => {
  it('stores an appendId once and forgets ids on clearSession', async () => {
    const s = new MemorySession();
    expect(s.specificationVersion).toBe('v2');
    const one: Item[] = [{ type: 'message', role: 'user', content: 'one' }];
    await s.addItems(one, { appendId: 'a' });
    await s.addItems(one, { appendId: 'a' });
    await s.addItems(one);
    expect(texts(await s.getItems())).toEqual(['one', 'one']);
    await s.clearSession();
    await s.addItems(one, { appendId: 'a' });
    expect(texts(await s.getItems())).toEqual(['one']);
  });
});
