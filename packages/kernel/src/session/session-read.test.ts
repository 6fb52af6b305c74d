/** Session rows are checked with the item schemas when a run reads them (the boundary). */
import { msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runIn } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { SessionError } from '../errors/errors.js';
import { MAX_ITEM_DEPTH } from '../items/item-schemas.js';
import type { Item } from '../items/item-types.js';
import type { RunOptions } from '../loop/run-options.js';
import { readSessionHistory } from '../loop/session-io.js';
import { MemorySession } from './memory-session.js';

const bad = { type: 'message', role: 'user' } as unknown as Item;

/** Runs to the end in either mode. */
const user = (content: string): Item => ({ type: 'message', role: 'user', content });

for (const stream of [false, true]) {
  describe(`reading a session with a malformed row (stream: ${stream})`, () => {
    it('is a SessionError naming the session, the index and the problem, before any model call', async () => {
      const session = new MemorySession({ sessionId: 'conv_7', initialItems: [user('a'), bad] });
      const model = new ScriptedModel([[msg('ok')]]);
      const agent = new Agent({ name: 'A', model });
      const error = await runIn(agent, 'next', { session }, stream).catch((e) => e);
      expect(error).toBeInstanceOf(SessionError);
      expect(error).toMatchObject({ operation: 'getItems', key: 'conv_7' });
      expect(error.message).toMatch(/Session "conv_7" returned a malformed item at index 1 of 2/);
      expect(error.message).toMatch(/content: Invalid input: expected string, received undefined/);
      expect(error.message).toMatch(/onInvalidItem: 'skip'/);
      expect(model.requests).toHaveLength(0);
      // The session stays usable: remove the row and go on.
      expect(await session.popItem()).toEqual(bad);
      await runIn(agent, 'next', { session }, stream);
      expect(model.requests[0].input).toEqual([user('a'), user('next')]);
    });

    it("onInvalidItem: 'skip' leaves bad rows (and calls they unpair) out and keeps them stored", async () => {
      const stored: Item[] = [
        user('a'),
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 42 } as unknown as Item,
        bad,
        { type: 'message', role: 'robot', content: 'x' } as unknown as Item,
        user('b'),
      ];
      const session = new MemorySession({ initialItems: stored });
      const model = new ScriptedModel([[msg('ok')]]);
      const options = { session, sessionSettings: { onInvalidItem: 'skip' } } as const;
      await runIn(new Agent({ name: 'A', model }), 'next', options, stream);
      expect(model.requests[0].input).toEqual([user('a'), user('b'), user('next')]);
      expect((await session.getItems()).slice(0, stored.length)).toEqual(stored);
    });
  });
}

describe('readSessionHistory', () => {
  it('names what is wrong for each kind of bad row', async () => {
    const cases: [unknown, RegExp][] = [
      [null, /index 0 of 1 \(not an object\)/],
      [[1], /not an object/],
      [{ role: 'user' }, /no string "type"/],
      [{ type: 'function_call', call_id: 'c', name: 'f' }, /arguments: Invalid input/],
      [{ type: 'message', role: 'user', content: [{}] }, /content\.0\.type: Invalid input/],
      [{ type: 'reasoning', summary: 'x' }, /summary: Invalid input/],
    ];
    for (const [row, pattern] of cases) {
      const session = new MemorySession({ initialItems: [row as Item] });
      await expect(readSessionHistory(session)).rejects.toThrow(pattern);
    }
    // Unknown item types pass with a string type (hosted tool items, future items).
    const hosted = { type: 'web_search_call', id: 'ws', status: 'completed' } as unknown as Item;
    expect(await readSessionHistory(new MemorySession({ initialItems: [hosted] }))).toEqual([
      hosted,
    ]);
  });

  it('refuses a row nested deeper than MAX_ITEM_DEPTH (its state could not be serialized), both modes', async () => {
    const nest = (levels: number) => {
      // `levels` counts the item itself: the item + (levels - 1) arrays in provider_data.x.
      let value: unknown = 0;
      for (let i = 0; i < levels - 2; i++) value = [value];
      return { ...user('deep'), provider_data: { x: value } } as Item;
    };
    const limit = nest(MAX_ITEM_DEPTH);
    expect(await readSessionHistory(new MemorySession({ initialItems: [limit] }))).toEqual([limit]);
    for (const levels of [MAX_ITEM_DEPTH + 1, 6_000, 100_000]) {
      for (const stream of [false, true]) {
        const stored = [user('a'), nest(levels)];
        const session = new MemorySession({ sessionId: 'deep', initialItems: stored });
        await expect(readSessionHistory(session)).rejects.toThrow(
          /Session "deep" returned a malformed item at index 1 of 2 \(nested deeper than 100 levels\)/,
        );
        const model = new ScriptedModel([[msg('ok')]]);
        const agent = new Agent({ name: 'A', model });
        await expect(runIn(agent, 'next', { session }, stream)).rejects.toBeInstanceOf(
          SessionError,
        );
        expect(model.requests).toHaveLength(0);
        const skipping = { session, sessionSettings: { onInvalidItem: 'skip' } } as const;
        const result = await runIn(agent, 'next', skipping, stream);
        expect(model.requests[0].input).toEqual([user('a'), user('next')]);
        expect(() => result.state.toString()).not.toThrow();
      }
    }
  });

  it('applies the limit before checking (only the rows read are checked)', async () => {
    const session = new MemorySession({ initialItems: [bad, user('a'), user('b')] });
    expect(await readSessionHistory(session, { limit: 2 })).toEqual([user('a'), user('b')]);
  });
});

describe('how a run combines history and new input', () => {
  it('a getItems that returns no list names what it returned', async () => {
    const bad = new MemorySession({ sessionId: 'odd' });
    bad.getItems = async () => 'nope' as unknown as Item[];
    const error = await readSessionHistory(bad).catch((e) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect(error.message).toBe(
      'Session "odd" returned string from getItems(); a Session must return an item list.',
    );
  });

  for (const stream of [false, true]) {
    it(`sessionInputCallback gets its own copy of the new input; the session stores the input as given (stream: ${stream})`, async () => {
      const session = new MemorySession({ initialItems: [user('earlier')] });
      const model = new ScriptedModel([[msg('ok')]]);
      const options: RunOptions = {
        session,
        sessionInputCallback: (history, newInput) => {
          newInput.push(user('added by the callback'));
          return [...history.slice(-1), ...newInput];
        },
      };
      await runIn(new Agent({ name: 'A', model }), 'now', options, stream);
      expect(model.requests[0].input).toEqual([
        user('earlier'),
        user('now'),
        user('added by the callback'),
      ]);
      expect((await session.getItems()).slice(0, 2)).toEqual([user('earlier'), user('now')]);
      expect(await session.getItems()).toHaveLength(3);
    });
  }
});
