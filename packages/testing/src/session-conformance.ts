/**
 * `describeSessionConformance`: the vitest suite every `Session` (v1 or v2) implementation runs,
 * so a third-party session store can prove itself the same way Baton's own do.
 */
import type { Item, Session, SessionV2 } from '@baton/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { conformanceItems, largeText, tagged, unicodeItems } from './session-conformance-items.js';
import { declareRunCase } from './session-conformance-run.js';
import { declareV2Cases } from './session-conformance-v2.js';

/** What a session factory returns: a session, or a session with a cleanup to run after the test. */
export type SessionFixture = Session | { session: Session; cleanup?: () => void | Promise<void> };

/**
 * Builds a fresh session for `sessionId`. Each test asks for new, unique session ids; calling the
 * factory twice with the same id must give two handles on the same stored conversation where the
 * store is shared (e.g. Redis, a SQLite file), or may give separate ones for in-process stores —
 * except for the v2 cases, which always need the same stored conversation (an in-process store
 * can return the same object for the same id).
 */
export type SessionFactory = (sessionId: string) => SessionFixture | Promise<SessionFixture>;

/** Options of {@link describeSessionConformance}. */
export interface SessionConformanceOptions {
  /** Per-test timeout in ms (default 30 000); the 1 MB and concurrency tests do real I/O. */
  timeoutMs?: number;
  /** How many concurrent `addItems` callers the concurrency test starts (default 8). */
  concurrentWriters?: number;
  /**
   * The contract version the sessions implement (default `'v1'`). `'v2'` adds the idempotent
   * append cases (`addItems(items, { appendId })`). The suite checks the sessions'
   * `specificationVersion` matches, so a v2 session cannot pass as v1 unnoticed.
   */
  version?: 'v1' | 'v2';
  /**
   * For stores that keep items in a server's canonical form rather than byte for byte (the OpenAI
   * Conversations API adds ids and `status`, turns string content into parts and refuses
   * `provider_data`): every deep-equal check compares items after this function, on both sides.
   * It must say exactly what the store changes — anything else must still round-trip. Default:
   * none (exact round trips).
   */
  normalizeItem?: (item: Item) => unknown;
}

let suiteSeq = 0;

/**
 * Declares a vitest `describe` block named `Session conformance: <name>` that checks the
 * `Session` v1 contract (packages/kernel/src/session/session.ts) against sessions made by
 * `factory`: ordering across several `addItems`, `getItems(limit)` semantics (the newest `limit`
 * items, oldest first; limit 0, 1, larger than the count, undefined), `popItem`, `clearSession`,
 * 1 MB items, unicode, concurrent `addItems` that never interleave one call's items, a deep-equal
 * round trip of every item type of the item vocabulary, isolation between session ids (also ids
 * that share a prefix or hold `:`, `*`, spaces, quotes, `{}` and unicode), 2,000 items in order,
 * and the session under real runs of the kernel (history read once, a paused run resumed, no
 * item lost or stored twice). With `version: 'v2'`, also the `Session` v2 cases (see
 * `session-conformance-v2.ts`).
 *
 * Call it at the top level of a test file. Cleanups returned by the factory run after each test.
 */
export function describeSessionConformance(
  name: string,
  factory: SessionFactory,
  options: SessionConformanceOptions = {},
): void {
  const timeout = options.timeoutMs ?? 30_000;
  const writers = options.concurrentWriters ?? 8;
  const version = options.version ?? 'v1';
  const norm = options.normalizeItem ?? ((item: Item) => item);
  const same = (actual: (Item | undefined)[], expected: Item[]) =>
    expect(actual.map((i) => (i === undefined ? i : norm(i)))).toEqual(expected.map(norm));
  const run = `${Date.now().toString(36)}_${(suiteSeq++).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  let idSeq = 0;
  const cleanups: (() => void | Promise<void>)[] = [];

  const newId = (label: string) => `conf_${run}_${label}_${idSeq++}`;
  const open = async (label: string, sessionId = newId(label)): Promise<Session> => {
    const fixture = await factory(sessionId);
    const session = isSession(fixture) ? fixture : fixture.session;
    if (!isSession(fixture) && fixture.cleanup) cleanups.push(fixture.cleanup);
    // Leave nothing behind in shared stores, even when an assertion failed.
    cleanups.unshift(() => session.clearSession());
    return session;
  };

  describe(`Session conformance: ${name}`, () => {
    afterEach(async () => {
      const pending = cleanups.splice(0);
      for (const cleanup of pending) await cleanup();
    });

    it(`declares specificationVersion ${version === 'v1' ? 'v1 (or none)' : 'v2'}`, async () => {
      const declared = (await open('version')) as Partial<SessionV2>;
      expect(declared.specificationVersion ?? 'v1').toBe(version);
    });

    it('keeps its sessionId and starts empty', { timeout }, async () => {
      const id = newId('empty');
      const session = await open('empty', id);
      expect(session.sessionId).toBe(id);
      expect(await session.getItems()).toEqual([]);
      expect(await session.getItems(5)).toEqual([]);
      expect(await session.popItem()).toBeUndefined();
    });

    it('keeps the order of items across several addItems calls', { timeout }, async () => {
      const session = await open('order');
      await session.addItems(tagged('a', 3));
      await session.addItems([]);
      await session.addItems(tagged('b', 1));
      await session.addItems(tagged('c', 2));
      expect(texts(await session.getItems())).toEqual(['a0', 'a1', 'a2', 'b0', 'c0', 'c1']);
    });

    it('getItems(limit) returns the newest `limit` items, oldest first', { timeout }, async () => {
      const session = await open('limit');
      await session.addItems(tagged('i', 5));
      expect(await session.getItems(0)).toEqual([]);
      expect(texts(await session.getItems(1))).toEqual(['i4']);
      expect(texts(await session.getItems(3))).toEqual(['i2', 'i3', 'i4']);
      expect(texts(await session.getItems(5))).toEqual(['i0', 'i1', 'i2', 'i3', 'i4']);
      expect(texts(await session.getItems(50))).toEqual(['i0', 'i1', 'i2', 'i3', 'i4']);
      expect(texts(await session.getItems(undefined))).toEqual(['i0', 'i1', 'i2', 'i3', 'i4']);
    });

    it('reads odd limits the one way (kernel readItemLimit): fractions round down, ≤ 0 is none, Infinity all, NaN a UserError', {
      timeout,
    }, async () => {
      const session = await open('oddlimit');
      await session.addItems(tagged('i', 3));
      expect(texts(await session.getItems(2.7))).toEqual(['i1', 'i2']);
      expect(await session.getItems(0.5)).toEqual([]);
      expect(await session.getItems(-2)).toEqual([]);
      expect(texts(await session.getItems(Number.POSITIVE_INFINITY))).toEqual(['i0', 'i1', 'i2']);
      for (const bad of [Number.NaN, '2', null])
        await expect(session.getItems(bad as number)).rejects.toMatchObject({ name: 'UserError' });
      expect(texts(await session.getItems())).toEqual(['i0', 'i1', 'i2']);
    });

    it('returns a list the caller may change without changing the session', {
      timeout,
    }, async () => {
      const session = await open('copy');
      await session.addItems(tagged('x', 2));
      const first = await session.getItems();
      first.push(tagged('y', 1)[0]);
      first.shift();
      expect(texts(await session.getItems())).toEqual(['x0', 'x1']);
    });

    it('popItem removes and returns the newest item, then undefined when empty', {
      timeout,
    }, async () => {
      const session = await open('pop');
      await session.addItems(tagged('p', 3));
      expect(textOf(await session.popItem())).toBe('p2');
      expect(texts(await session.getItems())).toEqual(['p0', 'p1']);
      expect(textOf(await session.popItem())).toBe('p1');
      expect(textOf(await session.popItem())).toBe('p0');
      expect(await session.popItem()).toBeUndefined();
      expect(await session.getItems()).toEqual([]);
      await session.addItems(tagged('q', 1));
      expect(texts(await session.getItems())).toEqual(['q0']);
    });

    it('clearSession deletes every item and the session stays usable', { timeout }, async () => {
      const session = await open('clear');
      await session.addItems(tagged('c', 4));
      await session.clearSession();
      expect(await session.getItems()).toEqual([]);
      expect(await session.popItem()).toBeUndefined();
      await session.clearSession();
      await session.addItems(tagged('d', 2));
      expect(texts(await session.getItems())).toEqual(['d0', 'd1']);
    });

    it('stores and returns 1 MB items unchanged', { timeout }, async () => {
      const session = await open('large');
      const text = largeText(1024 * 1024);
      const items: Item[] = [
        { type: 'message', role: 'user', content: text },
        { type: 'function_call_output', call_id: 'call_big', output: text },
        { type: 'message', role: 'user', content: 'after' },
      ];
      await session.addItems(items);
      const back = await session.getItems();
      expect(back).toHaveLength(3);
      expect((back[0] as { content: string }).content.length).toBe(text.length);
      same(back, items);
      expect(texts(await session.getItems(1))).toEqual(['after']);
    });

    it('stores unicode text exactly (emoji, CJK, RTL, combining marks, no normalization)', {
      timeout,
    }, async () => {
      const session = await open('unicode');
      const items = unicodeItems();
      await session.addItems(items);
      const back = await session.getItems();
      same(back, items);
      // 'e' + U+0301 must not become the precomposed U+00E9.
      expect((back[2] as { content: string }).content).toBe('cafe\u0301 / caf\u00e9');
      expect((back[2] as { content: string }).content.length).toBe(12);
    });

    it('never interleaves the items of one addItems call with concurrent callers', {
      timeout,
    }, async () => {
      const session = await open('concurrent');
      const perCall = 5;
      const callsPerWriter = 4;
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let c = 0; c < callsPerWriter; c++)
            await session.addItems(tagged(`w${w}c${c}_`, perCall));
        }),
      );
      const all = texts(await session.getItems());
      expect(all).toHaveLength(writers * callsPerWriter * perCall);
      const batchesSeen: string[] = [];
      for (let i = 0; i < all.length; i += perCall) {
        const prefix = all[i]!.slice(0, -1);
        expect(all.slice(i, i + perCall)).toEqual(
          Array.from({ length: perCall }, (_, k) => `${prefix}${k}`),
        );
        batchesSeen.push(prefix);
      }
      // Every call landed exactly once, and each writer's calls kept their order.
      expect(new Set(batchesSeen).size).toBe(writers * callsPerWriter);
      for (let w = 0; w < writers; w++) {
        const mine = batchesSeen.filter((b) => b.startsWith(`w${w}c`));
        expect(mine).toEqual(Array.from({ length: callsPerWriter }, (_, c) => `w${w}c${c}_`));
      }
    });

    it('round-trips every item type deep-equal', { timeout }, async () => {
      const session = await open('roundtrip');
      const items = conformanceItems();
      await session.addItems(items.slice(0, 4));
      await session.addItems(items.slice(4));
      const back = await session.getItems();
      same(back, items);
      same(JSON.parse(JSON.stringify(back)), items);
      same([await session.popItem()], [items[items.length - 1]]);
    });

    it('keeps two session ids isolated', { timeout }, async () => {
      const one = await open('iso1');
      const two = await open('iso2');
      expect(one.sessionId).not.toBe(two.sessionId);
      await one.addItems(tagged('one', 2));
      await two.addItems(tagged('two', 3));
      expect(texts(await one.getItems())).toEqual(['one0', 'one1']);
      expect(texts(await two.getItems())).toEqual(['two0', 'two1', 'two2']);
      expect(textOf(await one.popItem())).toBe('one1');
      await two.clearSession();
      expect(texts(await one.getItems())).toEqual(['one0']);
      expect(await two.getItems()).toEqual([]);
    });

    it('keeps session ids apart that share a prefix or hold separators, quotes and unicode', {
      timeout,
    }, async () => {
      const base = newId('ids');
      const ids = [
        base,
        `${base}:items`,
        `${base}:appends`,
        `${base}:meta`,
        `${base}*`,
        `${base} two words`,
        `${base}_two_words`,
        `${base}'"; --`,
        `${base}/ü/🚀`,
        `${base}{tag}`,
      ];
      const sessions = [];
      for (const id of ids) sessions.push(await open('ids', id));
      for (const [i, session] of sessions.entries()) await session.addItems(tagged(`s${i}_`, 2));
      for (const [i, session] of sessions.entries()) {
        expect(session.sessionId).toBe(ids[i]);
        expect(texts(await session.getItems()), ids[i]).toEqual([`s${i}_0`, `s${i}_1`]);
      }
      await sessions[0].clearSession();
      expect(texts(await sessions[1].getItems())).toEqual(['s1_0', 's1_1']);
    });

    it('keeps the order of 2,000 items over 40 appends; getItems(limit) at that size', {
      timeout,
    }, async () => {
      const session = await open('many');
      const all: string[] = [];
      for (let batch = 0; batch < 40; batch++) {
        const items = Array.from({ length: 50 }, (_, k) => `m${batch * 50 + k}`);
        all.push(...items);
        await session.addItems(
          items.map((content) => ({ type: 'message', role: 'user', content })),
        );
      }
      expect(texts(await session.getItems())).toEqual(all);
      expect(texts(await session.getItems(1))).toEqual(['m1999']);
      expect(texts(await session.getItems(1500))).toEqual(all.slice(500));
      expect(textOf(await session.popItem())).toBe('m1999');
      expect(texts(await session.getItems(2))).toEqual(['m1997', 'm1998']);
    });

    declareRunCase(open, { timeout });

    if (version === 'v2')
      declareV2Cases((label, id) => open(label, id) as Promise<SessionV2>, newId, {
        timeout,
        writers,
      });
  });
}

function isSession(value: SessionFixture): value is Session {
  return typeof (value as Session).getItems === 'function';
}

/** The text of a tagged user message (see `tagged`); another item maps to its type. */
function textOf(item: Item | undefined): string | undefined {
  if (item === undefined) return undefined;
  return item.type === 'message' && typeof item.content === 'string' ? item.content : item.type;
}

function texts(items: Item[]): (string | undefined)[] {
  return items.map(textOf);
}
