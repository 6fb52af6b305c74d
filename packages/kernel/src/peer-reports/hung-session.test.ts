/**
 * A run's abort signal ends it while its session hangs (a store that never answers: a dropped
 * connection without a timeout), in both modes: the history read before the first model call,
 * each write, and the read of a resume. An aborted write stays pending in `error.state`, and a
 * resume stores it once — also when the hung write lands late (v2 `appendId`).
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runIn } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { RunAbortedError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';

/** A MemorySession whose `method` hangs on call number `at` (1-based) until `release()`. */
class HangingSession extends MemorySession {
  calls = { getItems: 0, addItems: 0 };
  private held: (() => void)[] = [];
  constructor(
    private readonly method: 'getItems' | 'addItems',
    private readonly at = 1,
  ) {
    super();
  }
  override async getItems(limit?: number): Promise<Item[]> {
    if (++this.calls.getItems === this.at && this.method === 'getItems') await this.hold();
    return super.getItems(limit);
  }
  override async addItems(items: Item[], options?: { appendId?: string }): Promise<void> {
    if (++this.calls.addItems === this.at && this.method === 'addItems') await this.hold();
    return super.addItems(items, options);
  }
  hold() {
    return new Promise<void>((r) => this.held.push(r));
  }
  /** Lets every held call go on (a late answer). */
  release() {
    for (const r of this.held.splice(0)) r();
  }
}

/** Runs with a signal aborted after 30 ms; the error (it must come, well before 2 s). */
async function aborted(
  agent: Agent<any, any>,
  input: string | RunState,
  session: MemorySession,
  stream: boolean,
) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 30);
  const outcome = runIn(agent, input, { session, signal: controller.signal }, stream).then(
    () => 'resolved',
    (error: unknown) => error,
  );
  const late = new Promise((r) => setTimeout(() => r('still waiting 2 s after the abort'), 2_000));
  const error = await Promise.race([outcome, late]);
  clearTimeout(timer);
  return error as RunAbortedError;
}

/** The session after the tool run, stored once. */
const TOOL_RUN = ['user:hello', 'function_call:c1', 'function_call_output:c1', 'assistant:done'];

const texts = (items: Item[]) =>
  items.map((i) =>
    i.type === 'message'
      ? `${i.role}:${typeof i.content === 'string' ? i.content : (i.content[0] as { text: string }).text}`
      : `${i.type}:${(i as { call_id: string }).call_id}`,
  );

for (const stream of [false, true])
  describe(`an abort while the session hangs (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('the history read: the run ends with RunAbortedError, no model call, nothing stored', async () => {
      const model = new ScriptedModel([[msg('hi')]]);
      const agent = new Agent({ name: 'A', model });
      const session = new HangingSession('getItems');
      const error = await aborted(agent, 'hello', session, stream);
      expect(error).toBeInstanceOf(RunAbortedError);
      expect(model.requests).toHaveLength(0);
      session.release();
      expect(await session.getItems()).toEqual([]);
      // Nothing ran: the same run again works.
      await runIn(agent, 'hello', { session }, stream);
      expect(texts(await session.getItems())).toEqual(['user:hello', 'assistant:hi']);
    });

    it('a signal aborted before the run: no session call at all, RunAbortedError', async () => {
      const model = new ScriptedModel([[msg('hi')]]);
      const session = new HangingSession('getItems', 99);
      const error = await runIn(
        new Agent({ name: 'A', model }),
        'hello',
        { session, signal: AbortSignal.abort() },
        stream,
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunAbortedError);
      expect(session.calls).toEqual({ getItems: 0, addItems: 0 });
      expect(model.requests).toHaveLength(0);
    });

    for (const [label, at] of [
      ['the input write', 1],
      ['a tool turn write', 2],
      ['the final write', 3],
    ] as const)
      it(`${label}: RunAbortedError with the write pending in error.state; a resume stores it once, also when the hung write lands late`, async () => {
        const lookup = tool({ name: 'lookup', description: '', execute: () => 'found' });
        const model = new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('done')]]);
        const agent = new Agent({ name: 'A', model, tools: [lookup] });
        const session = new HangingSession('addItems', at);
        const error = await aborted(agent, 'hello', session, stream);
        expect(error).toBeInstanceOf(RunAbortedError);
        expect(error.state).toBeInstanceOf(RunState);
        const state = await RunState.fromString(agent, (error.state as RunState).toString());
        expect(state.pendingSessionWrite).toBeDefined();
        session.release(); // the hung write lands after the abort
        const resumed = await runIn(agent, state, { session }, stream);
        expect(resumed.finalOutput).toBe('done');
        expect(texts(await session.getItems())).toEqual(TOOL_RUN);
        expect(model.requests.length).toBeLessThanOrEqual(2);
      });

    it("a resume's session read: the resume ends with RunAbortedError and can be tried again", async () => {
      const lookup = tool({
        name: 'lookup',
        description: '',
        execute: () => 'found',
        needsApproval: true,
      });
      const model = new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('done')]]);
      const agent = new Agent({ name: 'A', model, tools: [lookup] });
      const session = new HangingSession('getItems', 2);
      const paused = await runIn(agent, 'hello', { session }, stream);
      const state = await RunState.fromString(agent, paused.state.toString());
      state.approve(state.getInterruptions()[0]);
      const json = state.toString();
      const error = await aborted(agent, state, session, stream);
      expect(error).toBeInstanceOf(RunAbortedError);
      session.release();
      const resumed = await runIn(
        agent,
        await RunState.fromString(agent, json),
        { session },
        stream,
      );
      expect(resumed.finalOutput).toBe('done');
      expect(texts(await session.getItems())).toEqual(TOOL_RUN);
    });
  });
