/**
 * One failed session write's `error.state`, resumed twice after a JSON round trip (a retry
 * loop that resumed, lost the reply and resumed again), in both modes, with a store error that
 * is not an Error: both resumes end with the handoff target, a tool that ran before the failure
 * does not run again (one taken before the tool ran — the input write failed — runs it in each
 * resume: two continuations of one state), and the session holds the conversation once (each
 * write's `appendId` is the same in both resumes).
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

/** Fails its `failAt`-th append with a string; with `lost`, after storing it. */
class FlakySession extends MemorySession {
  private appends = 0;
  constructor(
    private readonly failAt: number,
    private readonly lost: boolean,
  ) {
    super();
  }
  override async addItems(items: Item[], options?: AddItemsOptions): Promise<void> {
    if (++this.appends !== this.failAt) return super.addItems(items, options);
    if (this.lost) await super.addItems(items, options);
    throw 'store down';
  }
}

for (const stream of [false, true])
  describe(`an error.state resumed twice (${stream ? 'streamed' : 'non-streamed'})`, () => {
    for (const failAt of [1, 2, 3])
      for (const lost of [false, true])
        it(`append #${failAt} failed${lost ? ' (stored, reply lost)' : ''}: no finished tool re-run, history once, handoff target`, async () => {
          const counts = { charged: 0 };
          const charge = tool({
            name: 'charge',
            description: '',
            execute: () => `charged ${++counts.charged}`,
          });
          // A fresh graph per run, its models answering the same (as a real model would to the
          // same input): both resumes make the same writes.
          const graph = () => {
            const delegate = new Agent({
              name: 'Delegate',
              model: new ScriptedModel([[msg('delegated')]], { whenExhausted: 'repeat_last' }),
            });
            return new Agent({
              name: 'Triage',
              tools: [charge],
              handoffs: [delegate],
              model: new ScriptedModel([
                [fc('charge', {}, 'c1'), fc('transfer_to_delegate', {}, 'h1')],
              ]),
            });
          };
          const session = new FlakySession(failAt, lost);
          const out = await runMode(
            () => ({ agent: graph(), input: 'x', options: { session } }),
            stream,
          );
          expect(out.error).toBeInstanceOf(SessionError);
          const json = ((out.error as SessionError).state as RunState<any, any>).toString();
          for (let k = 0; k < 2; k++) {
            const agent = graph();
            const state = await RunState.fromString(agent, json);
            const resumed = await runMode(
              () => ({ agent, input: state as any, options: { session } }),
              stream,
            );
            expect(resumed.error).toBeUndefined();
            expect(resumed.result!.finalOutput).toBe('delegated');
            expect(resumed.result!.lastAgent.name).toBe('Delegate');
          }
          expect(counts.charged).toBe(failAt === 1 ? 2 : 1);
          expect(
            (await session.getItems()).map(
              (i) =>
                `${i.type}:${(i as { call_id?: string }).call_id ?? (i as { role?: string }).role}`,
            ),
          ).toEqual([
            'message:user',
            'function_call:c1',
            'function_call:h1',
            'function_call_output:c1',
            'function_call_output:h1',
            'message:assistant',
          ]);
        });
  });
