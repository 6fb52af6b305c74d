/**
 * Odd values at the run's boundaries, in both modes: a session store that throws something that
 * is not an Error (a string, `undefined`, an object without a message, one without a prototype,
 * one whose `toString` throws) and a `maxTurns` handler returning an output that is not text (an
 * object, `undefined`, a BigInt, a circular object). Each gives a named Baton error — with a
 * resumable state for a failed write — or a history without junk, never a raw TypeError.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { SessionError, UserError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import type { AddItemsOptions } from '../session/session.js';
import { tool } from '../tool/tool.js';

const thrown: Record<string, { make: () => unknown; shown: string }> = {
  'a string': { make: () => 'store offline', shown: 'store offline' },
  undefined: { make: () => undefined, shown: 'undefined' },
  'an object without a message': { make: () => ({ code: 'E42' }), shown: '{"code":"E42"}' },
  'an object without a prototype': { make: () => Object.create(null), shown: '[object Object]' },
  'an object whose toString throws': {
    make: () => ({
      toString() {
        throw new Error('no');
      },
    }),
    shown: '[object Object]',
  },
};

/** Throws `value()` from its first `getItems` or `addItems` (synchronously or as a rejection). */
class ThrowingSession extends MemorySession {
  private failed = false;
  constructor(
    private readonly value: () => unknown,
    private readonly where: 'getItems' | 'addItems',
    private readonly sync: boolean,
  ) {
    super();
  }
  private fail(): Promise<never> {
    this.failed = true;
    if (this.sync) throw this.value();
    return Promise.reject(this.value());
  }
  override getItems(limit?: number): Promise<Item[]> {
    return this.where === 'getItems' && !this.failed ? this.fail() : super.getItems(limit);
  }
  override addItems(items: Item[], options?: AddItemsOptions): Promise<void> {
    return this.where === 'addItems' && !this.failed ? this.fail() : super.addItems(items, options);
  }
}

const keys = (items: Item[]) =>
  items.map(
    (i) => `${i.type}:${(i as { call_id?: string }).call_id ?? (i as { role?: string }).role}`,
  );

for (const stream of [false, true])
  describe(`odd values at the boundaries (${stream ? 'streamed' : 'non-streamed'})`, () => {
    for (const [name, { make, shown }] of Object.entries(thrown))
      for (const where of ['getItems', 'addItems'] as const)
        for (const sync of [false, true])
          it(`a session whose ${where} throws ${name}${sync ? ' synchronously' : ''}: a SessionError naming it${where === 'addItems' ? ', resumable once' : ''}`, async () => {
            let charged = 0;
            const charge = tool({
              name: 'charge',
              description: '',
              execute: () => `c${++charged}`,
            });
            const agent = new Agent({
              name: 'A',
              tools: [charge],
              model: new ScriptedModel([[fc('charge', {}, 'c1')], [msg('done')]]),
            });
            const session = new ThrowingSession(make, where, sync);
            const out = await runMode(() => ({ agent, input: 'x', options: { session } }), stream);
            expect(out.error).toBeInstanceOf(SessionError);
            const error = out.error as SessionError;
            expect(error.message).toContain(`${where}() failed: ${shown}.`);
            if (where === 'getItems') return;
            expect(error.state).toBeInstanceOf(RunState);
            const state = await RunState.fromString(
              agent,
              (error.state as RunState<any, any>).toString(),
            );
            const resumed = await runMode(
              () => ({ agent, input: state as any, options: { session } }),
              stream,
            );
            expect(resumed.error).toBeUndefined();
            expect(resumed.result!.finalOutput).toBe('done');
            expect(charged).toBe(1);
            expect(keys(await session.getItems())).toEqual([
              'message:user',
              'function_call:c1',
              'function_call_output:c1',
              'message:assistant',
            ]);
          });

    const looping = () => {
      const again = tool({ name: 'again', description: '', execute: () => 'more' });
      const model = new ScriptedModel([[fc('again', {})]], { whenExhausted: 'repeat_last' });
      return new Agent({ name: 'Loop', tools: [again], model });
    };
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const [name, finalOutput] of [
      ['a BigInt', 10n],
      ['a circular object', circular],
    ] as const)
      it(`errorHandlers.maxTurns returning ${name}: a UserError saying how to fix it, nothing stored`, async () => {
        const session = new MemorySession();
        const out = await runMode(
          () => ({
            agent: looping(),
            input: 'x',
            options: { maxTurns: 1, session, errorHandlers: { maxTurns: () => ({ finalOutput }) } },
          }),
          stream,
        );
        expect(out.error).toBeInstanceOf(UserError);
        expect((out.error as Error).message).toMatch(
          /^errorHandlers\.maxTurns returned a finalOutput that cannot be written to the history as JSON \(.+\)\. .*includeInHistory: false/s,
        );
        expect((await session.getItems()).at(-1)?.type).toBe('function_call_output');
      });

    for (const [name, finalOutput, text] of [
      ['undefined', undefined, undefined],
      ['a function', () => 1, undefined],
      ['an empty string', '', undefined],
      ['an empty object', {}, '{}'],
      ['a structured output', { refund: 12.5, reason: 'late' }, '{"refund":12.5,"reason":"late"}'],
    ] as const)
      it(`errorHandlers.maxTurns returning ${name}: ${text ? 'its JSON' : 'no empty message'} in the history and session, also after a JSON round trip`, async () => {
        const session = new MemorySession();
        const agent = looping();
        const out = await runMode(
          () => ({
            agent,
            input: 'x',
            options: { maxTurns: 1, session, errorHandlers: { maxTurns: () => ({ finalOutput }) } },
          }),
          stream,
        );
        expect(out.error).toBeUndefined();
        const result = out.result!;
        expect(result.finalOutput).toBe(finalOutput);
        const stored = await session.getItems();
        const last = stored.at(-1) as { role?: string; content?: unknown };
        if (text) {
          expect(last.role).toBe('assistant');
          expect(JSON.stringify(last.content)).toContain(JSON.stringify(text).slice(1, -1));
        } else expect(stored.at(-1)?.type).toBe('function_call_output');
        expect(keys(result.history)).toEqual(keys(stored));
        const state = await RunState.fromString(agent, result.state.toString());
        expect(state.generatedItems.map((i) => i.type)).toEqual(result.newItems.map((i) => i.type));
      });
  });

for (const stream of [false, true])
  it(`a state holding a value that is not JSON: toString() throws a UserError naming it (${stream ? 'streamed' : 'non-streamed'})`, async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const finalOutput of [10n, circular]) {
      const again = tool({ name: 'again', description: '', execute: () => 'more' });
      const agent = new Agent({
        name: 'Loop',
        tools: [again],
        model: new ScriptedModel([[fc('again', {})]], { whenExhausted: 'repeat_last' }),
      });
      const out = await runMode(
        () => ({
          agent,
          input: 'x',
          options: {
            maxTurns: 1,
            errorHandlers: { maxTurns: () => ({ finalOutput, includeInHistory: false }) },
          },
        }),
        stream,
      );
      expect(out.result!.finalOutput).toBe(finalOutput);
      const state = out.result!.state;
      expect(() => state.toString()).toThrow(UserError);
      expect(() => state.toString()).toThrow(/^This RunState cannot be serialized: .*not JSON \(/);
    }
  });
