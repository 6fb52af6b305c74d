/**
 * The `Session` v2 cases of the conformance suite: idempotent appends (`addItems(items,
 * { appendId })`), also across two handles on one store, under concurrency, and when a reply
 * was lost and the call is replayed.
 */
import type { Item, SessionV2 } from '@baton/kernel';
import { expect, it } from 'vitest';
import { tagged } from './session-conformance-items.js';

/** Opens a session handle for `sessionId` (a fresh id when omitted), cleaned up after the test. */
export type OpenSession = (label: string, sessionId?: string) => Promise<SessionV2>;

/** Declares the v2 cases (inside the suite's `describe`). */
export function declareV2Cases(
  open: OpenSession,
  newId: (label: string) => string,
  options: { timeout: number; writers: number },
): void {
  const { timeout, writers } = options;

  it('v2: the same appendId twice stores once; other ids and no id append', {
    timeout,
  }, async () => {
    const session = await open('v2once');
    expect(session.specificationVersion).toBe('v2');
    await session.addItems(tagged('a', 2), { appendId: 'run1:t0:input' });
    await session.addItems(tagged('a', 2), { appendId: 'run1:t0:input' });
    // Same id, other items: still nothing (the id, not the content, identifies the append).
    await session.addItems(tagged('z', 1), { appendId: 'run1:t0:input' });
    await session.addItems(tagged('b', 1), { appendId: 'run1:t1:items:0-1' });
    await session.addItems(tagged('c', 1));
    await session.addItems(tagged('c', 1));
    expect(texts(await session.getItems())).toEqual(['a0', 'a1', 'b0', 'c0', 'c0']);
  });

  it('v2: an appendId applied through one handle is applied for another handle of the same store', {
    timeout,
  }, async () => {
    const id = newId('v2handles');
    const one = await open('v2handles', id);
    const two = await open('v2handles', id);
    await one.addItems(tagged('x', 3), { appendId: 'k1' });
    await two.addItems(tagged('x', 3), { appendId: 'k1' });
    await two.addItems(tagged('y', 1), { appendId: 'k2' });
    await one.addItems(tagged('y', 1), { appendId: 'k2' });
    expect(texts(await one.getItems())).toEqual(['x0', 'x1', 'x2', 'y0']);
    expect(texts(await two.getItems())).toEqual(['x0', 'x1', 'x2', 'y0']);
  });

  it('v2: a bad appendId or non-array items is a UserError and writes nothing', {
    timeout,
  }, async () => {
    const session = await open('v2bad');
    for (const appendId of ['', 5, null])
      await expect(
        session.addItems(tagged('x', 1), { appendId: appendId as string }),
      ).rejects.toMatchObject({ name: 'UserError' });
    await expect(session.addItems('nope' as unknown as Item[])).rejects.toMatchObject({
      name: 'UserError',
    });
    expect(await session.getItems()).toEqual([]);
  });

  it('v2: appendIds are per session id', { timeout }, async () => {
    const one = await open('v2iso1');
    const two = await open('v2iso2');
    await one.addItems(tagged('p', 1), { appendId: 'same' });
    await two.addItems(tagged('q', 1), { appendId: 'same' });
    expect(texts(await one.getItems())).toEqual(['p0']);
    expect(texts(await two.getItems())).toEqual(['q0']);
  });

  it('v2: concurrent appends with distinct ids all land, never interleaved; one id lands once', {
    timeout,
  }, async () => {
    const id = newId('v2concurrent');
    const handles = [await open('v2concurrent', id), await open('v2concurrent', id)];
    const perCall = 3;
    const callsPerWriter = 4;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let c = 0; c < callsPerWriter; c++) {
          const items = tagged(`w${w}c${c}_`, perCall);
          await handles[w % 2].addItems(items, { appendId: `w${w}c${c}` });
        }
      }),
    );
    // Every writer also races to apply one shared id: exactly one wins.
    await Promise.all(
      Array.from({ length: writers }, (_, w) =>
        handles[w % 2].addItems(tagged(`race${w}_`, perCall), { appendId: 'race' }),
      ),
    );
    const all = texts(await handles[0].getItems());
    expect(all).toHaveLength((writers * callsPerWriter + 1) * perCall);
    const batches = new Set<string>();
    for (let i = 0; i < all.length; i += perCall) {
      const prefix = all[i]!.slice(0, -1);
      expect(all.slice(i, i + perCall)).toEqual(
        Array.from({ length: perCall }, (_, k) => `${prefix}${k}`),
      );
      batches.add(prefix);
    }
    expect(batches.size).toBe(writers * callsPerWriter + 1);
    expect([...batches].filter((b) => b.startsWith('race'))).toHaveLength(1);
  });

  it('v2: replaying a call whose reply was lost (from a new handle) stores nothing twice', {
    timeout,
  }, async () => {
    const id = newId('v2replay');
    const first = await open('v2replay', id);
    await first.addItems(tagged('in', 1), { appendId: 'r:t0:input' });
    // The reply of this call is "lost": the caller only knows the outcome is unknown.
    await first.addItems(tagged('turn', 2), { appendId: 'r:t1:items:0-2' });
    // A new process replays the unconfirmed call, then goes on.
    const second = await open('v2replay', id);
    await second.addItems(tagged('turn', 2), { appendId: 'r:t1:items:0-2' });
    await second.addItems(tagged('final', 1), { appendId: 'r:t2:items:2-3' });
    expect(texts(await second.getItems())).toEqual(['in0', 'turn0', 'turn1', 'final0']);
  });

  it('v2: popItem keeps applied ids; clearSession forgets them with the items', {
    timeout,
  }, async () => {
    const session = await open('v2clear');
    await session.addItems(tagged('a', 2), { appendId: 'k' });
    expect(textOf(await session.popItem())).toBe('a1');
    await session.addItems(tagged('a', 2), { appendId: 'k' });
    expect(texts(await session.getItems())).toEqual(['a0']);
    await session.clearSession();
    await session.addItems(tagged('b', 1), { appendId: 'k' });
    expect(texts(await session.getItems())).toEqual(['b0']);
  });
}

function textOf(item: Item | undefined): string | undefined {
  if (item === undefined) return undefined;
  return item.type === 'message' && typeof item.content === 'string' ? item.content : item.type;
}

function texts(items: Item[]): (string | undefined)[] {
  return items.map(textOf);
}
