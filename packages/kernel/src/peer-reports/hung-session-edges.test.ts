/**
 * Edges of a run's signal and its session (see hung-session.test.ts), in both modes: a write
 * the run reaches with its signal already aborted is not started (a v1 session, which has no
 * `appendId`, would store it twice once a resume sends it); sessions that answer synchronously,
 * throw synchronously or return a thenable; a custom abort reason; and no abort listener left
 * on a long-lived signal after many runs with a session.
 */
import { getEventListeners } from 'node:events';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runIn } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { RunAbortedError, SessionError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import type { Session } from '../session/session.js';
import { tool } from '../tool/tool.js';

/** A v1 session (no `specificationVersion`, no `appendId`) over an array. */
function v1Session(): Session & { items: Item[]; writes: number } {
  const s = {
    sessionId: 'v1',
    items: [] as Item[],
    writes: 0,
    getItems: async () => s.items.slice(),
    addItems: async (items: Item[]) => {
      s.writes++;
      s.items.push(...structuredClone(items));
    },
    popItem: async () => s.items.pop(),
    clearSession: async () => {
      s.items = [];
    },
  };
  return s;
}

const ids = (items: Item[]) =>
  items.map((i) => (i.type === 'message' ? `${i.role}` : `${i.type}:${(i as any).call_id}`));

for (const stream of [false, true])
  describe(`a run's signal and its session, edges (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('a write reached after the abort is not started: a resume from JSON stores it once in a v1 session', async () => {
      const controller = new AbortController();
      const lookup = tool({ name: 'lookup', description: '', execute: () => 'found' });
      const agent = new Agent({
        name: 'A',
        tools: [lookup],
        model: new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('done')]]),
      });
      // The signal aborts in a hook after the tool ran (code that ignores the signal), so the
      // turn's write is reached with the signal aborted.
      const hooks = { onToolEnd: () => controller.abort() };
      const session = v1Session();
      const error = await runIn(
        agent,
        'hello',
        { session, hooks, signal: controller.signal },
        stream,
      ).then(
        () => undefined,
        (e: unknown) => e as RunAbortedError,
      );
      expect(error).toBeInstanceOf(RunAbortedError);
      expect(ids(session.items)).toEqual(['user']); // the input only: the items write not sent
      const state = await RunState.fromString(agent, (error!.state as RunState).toString());
      expect(state.pendingSessionWrite).toBeDefined();
      const resumed = await runIn(agent, state, { session }, stream);
      expect(resumed.finalOutput).toBe('done');
      expect(ids(session.items)).toEqual([
        'user',
        'function_call:c1',
        'function_call_output:c1',
        'assistant',
      ]);
    });

    it('a session that answers synchronously (values, a thenable, a sync throw) works, and a sync throw is a SessionError', async () => {
      const items: Item[] = [];
      const session = {
        sessionId: 'sync',
        // biome-ignore lint/suspicious/noThenProperty: a thenable that is not a Promise, on purpose
        getItems: () => ({ then: (resolve: (v: Item[]) => void) => resolve(items.slice()) }),
        addItems: (more: Item[]) => void items.push(...more),
        popItem: () => items.pop(),
        clearSession: () => void items.splice(0),
      } as unknown as Session;
      const agent = new Agent({
        name: 'A',
        model: new ScriptedModel([[msg('one')], [msg('two')]]),
      });
      const signal = new AbortController().signal;
      await runIn(agent, 'a', { session, signal }, stream);
      await runIn(agent, 'b', { session, signal }, stream);
      expect(ids(items)).toEqual(['user', 'assistant', 'user', 'assistant']);
      const broken = {
        ...session,
        getItems: () => {
          throw new Error('closed');
        },
      } as unknown as Session;
      const error = await runIn(agent, 'c', { session: broken, signal }, stream).catch((e) => e);
      expect(error).toBeInstanceOf(SessionError);
      expect(String(error.message)).toContain('closed');
    });

    it('a custom abort reason while the history read hangs: RunAbortedError carrying the reason', async () => {
      const session = { ...v1Session(), getItems: () => new Promise<Item[]>(() => {}) };
      const agent = new Agent({ name: 'A', model: new ScriptedModel([[msg('hi')]]) });
      const controller = new AbortController();
      const reason = new Error('user left');
      setTimeout(() => controller.abort(reason), 10);
      const error = await runIn(agent, 'x', { session, signal: controller.signal }, stream).catch(
        (e) => e,
      );
      expect(error).toBeInstanceOf(RunAbortedError);
      expect(error.cause ?? error.reason).toBe(reason);
    });

    it('many runs with a session on one long-lived signal leave no abort listener on it', async () => {
      const controller = new AbortController();
      const session = v1Session();
      const lookup = tool({ name: 'lookup', description: '', execute: () => 'found' });
      for (let i = 0; i < 20; i++) {
        const agent = new Agent({
          name: 'A',
          tools: [lookup],
          model: new ScriptedModel([[fc('lookup', {}, `c${i}`)], [msg('done')]]),
        });
        await runIn(agent, 'hello', { session, signal: controller.signal }, stream);
      }
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      expect(session.items).toHaveLength(80);
    });
  });
