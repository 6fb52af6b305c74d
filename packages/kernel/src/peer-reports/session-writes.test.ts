/**
 * A session write that fails mid-run (openai-agents-python#4685, #4835, #4621, #2130): the run's
 * error carries a resumable state whatever the store threw, and resuming from it (also after a
 * JSON round trip) finishes the run with the right agent, runs no tool twice and leaves the
 * session with every call paired to its output, once — also when the failed write was stored
 * and only its reply was lost.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { SessionError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import type { AddItemsOptions } from '../session/session.js';
import { tool } from '../tool/tool.js';

/** Fails its `failAt`-th append; with `lost`, after storing it (the reply was lost). */
class FlakySession extends MemorySession {
  private appends = 0;
  constructor(
    private readonly failAt: number,
    private readonly lost: boolean,
    private readonly error: () => unknown,
  ) {
    super();
  }
  override async addItems(items: Item[], options?: AddItemsOptions): Promise<void> {
    if (++this.appends !== this.failAt) return super.addItems(items, options);
    if (this.lost) await super.addItems(items, options);
    throw this.error();
  }
}

const errors = {
  'a plain Error': () => new Error('connection reset'),
  'a SessionError': () => new SessionError('store down', { operation: 'addItems' }),
};

function desk(approval: boolean) {
  const counts = { charged: 0 };
  const charge = tool({
    name: 'charge',
    description: '',
    needsApproval: approval,
    execute: () => `charged ${++counts.charged}`,
  });
  const delegate = new Agent({
    name: 'Delegate',
    model: new ScriptedModel([[msg('delegated')]], { whenExhausted: 'repeat_last' }),
  });
  const triage = new Agent({
    name: 'Triage',
    tools: [charge],
    handoffs: [delegate],
    // One response only: a resume that asked Triage again would exhaust the script.
    model: new ScriptedModel([[fc('charge', {}, 'c1'), fc('transfer_to_delegate', {}, 'h1')]]),
  });
  return { triage, counts };
}

for (const stream of [false, true])
  for (const [errorName, makeError] of Object.entries(errors))
    describe(`a failed session write (${stream ? 'streamed' : 'non-streamed'}, ${errorName})`, () => {
      for (const approval of [false, true])
        for (const lost of [false, true])
          for (const failAt of approval ? [1, 2, 3, 4] : [1, 2, 3])
            it(`append #${failAt}${lost ? ' (stored, reply lost)' : ''}${approval ? ', approval-gated tool' : ''}: resumes with the handoff target, tool once, history once`, async () => {
              const { triage, counts } = desk(approval);
              const session = new FlakySession(failAt, lost, makeError);
              let out = await runMode(
                () => ({ agent: triage, input: 'refund me', options: { session } }),
                stream,
              );
              let failures = 0;
              for (let step = 0; step < 4; step++) {
                let state: RunState<any, any>;
                if (out.error) {
                  failures++;
                  expect(out.error).toBeInstanceOf(SessionError);
                  const carried = (out.error as SessionError).state as RunState<any, any>;
                  expect(carried).toBeInstanceOf(RunState);
                  state = await RunState.fromString(triage, carried.toString());
                } else if (out.result!.interruptions.length > 0) {
                  state = await RunState.fromString(triage, out.result!.state.toString());
                  state.approve(state.getInterruptions()[0]);
                } else break;
                out = await runMode(
                  () => ({ agent: triage, input: state as any, options: { session } }),
                  stream,
                );
              }
              expect(failures).toBe(1);
              expect(out.error).toBeUndefined();
              expect(out.result!.finalOutput).toBe('delegated');
              expect(out.result!.lastAgent.name).toBe('Delegate');
              expect(counts.charged).toBe(1);
              const stored = (await session.getItems()).map(
                (i) =>
                  `${i.type}:${(i as { call_id?: string }).call_id ?? (i as { role?: string }).role}`,
              );
              expect(stored).toEqual([
                'message:user',
                'function_call:c1',
                'function_call:h1',
                'function_call_output:c1',
                'function_call_output:h1',
                'message:assistant',
              ]);
            });
    });

it('a store failure keeps its own error as `cause` and says how to resume', async () => {
  const cause = new Error('ECONNRESET');
  const session = new FlakySession(1, false, () => cause);
  const agent = new Agent({ name: 'A', model: new ScriptedModel([[msg('hi')]]) });
  const out = await runMode(() => ({ agent, input: 'x', options: { session } }), false);
  const error = out.error as SessionError;
  expect(error).toBeInstanceOf(SessionError);
  expect(error.cause).toBe(cause);
  expect(error.operation).toBe('addItems');
  expect(error.message).toContain('ECONNRESET');
  expect(error.message).toContain('error.state');
});

describe('a session whose methods are not async', () => {
  /** Returns plain values and throws synchronously (a hand-written v1 session). */
  const syncSession = (fail: 'none' | 'getItems' | 'addItems') => {
    const stored: Item[] = [];
    return {
      stored,
      session: {
        sessionId: 'sync',
        getItems: () => {
          if (fail === 'getItems') throw new Error('disk gone');
          return stored.slice();
        },
        addItems: (items: Item[]) => {
          if (fail === 'addItems') throw new Error('disk full');
          stored.push(...items);
        },
        popItem: () => stored.pop(),
        clearSession: () => {
          stored.length = 0;
        },
      } as never,
    };
  };
  const agent = () =>
    new Agent({
      name: 'A',
      model: new ScriptedModel([[msg('hi')]], { whenExhausted: 'repeat_last' }),
    });

  for (const stream of [false, true]) {
    it(`works with plain return values (stream: ${stream})`, async () => {
      const { session, stored } = syncSession('none');
      const out = await runMode(
        () => ({ agent: agent(), input: 'hello', options: { session } }),
        stream,
      );
      expect(out.error).toBeUndefined();
      expect(out.result?.finalOutput).toBe('hi');
      expect(stored.map((i) => i.type)).toEqual(['message', 'message']);
    });
    for (const op of ['getItems', 'addItems'] as const) {
      it(`turns a synchronous throw of ${op} into a SessionError (stream: ${stream})`, async () => {
        const { session } = syncSession(op);
        const { error } = await runMode(
          () => ({ agent: agent(), input: 'hello', options: { session } }),
          stream,
        );
        expect(error).toBeInstanceOf(SessionError);
        expect((error as SessionError).message).toContain(`${op}() failed: disk`);
      });
    }
  }
});
