/**
 * `RedisSession` list entries as a damaged or foreign list may hold them (`{"v":…,"item":…}` with
 * a mutated item, a wrong version, another JSON value, no JSON), read through `getItems` and
 * `readSessionHistory` with 'throw' and 'skip' — the real `RedisSession` over a client that
 * returns the list (the real-Redis run is in packages/session-redis/src/redis-entry.property.test.ts).
 * Must hold: items the kernel's schema accepts, or a `SessionError`; with 'skip' only entries of
 * a newer version throw.
 */
import { findItemIssue, loadItemSchemas, readSessionHistory, SessionError } from '@baton/kernel';
import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { RedisSession } from '../../packages/session-redis/src/redis-session.js';
import { storedItemText } from '../arbitraries/transcripts.js';
import { checkHistory, checkRunOn } from './session-history.fuzz.js';

/** One raw entry: usually `{"v":1,"item":…}`, sometimes a wrong version or no envelope at all. */
export const rawEntry: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: storedItemText.map((item) => `{"v":1,"item":${item}}`) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        v: fc.constantFrom('0', '-1', '2', '1.5', '"1"', 'null', '1e400', '[]'),
        item: storedItemText,
      })
      .map(({ v, item }) => `{"v":${v},"item":${item}}`),
  },
  { weight: 1, arbitrary: storedItemText },
);

/** True when an entry of `raws` names a newer entry version (reads must refuse). */
export function hasNewerEntry(raws: string[]): boolean {
  return raws.some((raw) => {
    try {
      const v = JSON.parse(raw)?.v;
      return Number.isInteger(v) && v > 1;
    } catch {
      return false;
    }
  });
}

/** An ioredis stand-in that holds one list and answers LRANGE on it. */
function listClient(raws: string[]): Redis {
  return {
    options: {},
    status: 'ready',
    lrange: async () => raws.slice(),
  } as unknown as Redis;
}

type Input = { raws: string[]; skip: boolean };

export default {
  name: 'session.redis.entries',
  description:
    'RedisSession getItems/readSessionHistory on damaged list entries: valid items or a SessionError',
  arbitrary: () => fc.record({ raws: fc.array(rawEntry, { maxLength: 8 }), skip: fc.boolean() }),
  run: async ({ raws, skip }: Input) => {
    const session = new RedisSession({
      sessionId: 'fuzz',
      client: listClient(raws),
      onInvalidItem: skip ? 'skip' : 'throw',
    });
    const schemas = await loadItemSchemas();
    let items: Awaited<ReturnType<RedisSession['getItems']>>;
    try {
      items = await session.getItems();
    } catch (error) {
      if (skip && !hasNewerEntry(raws)) throw new Error(`'skip' threw: ${error}`);
      throw error;
    }
    for (const item of items)
      if (findItemIssue(schemas, item)) throw new Error('getItems returned an invalid item');
    const history = await readSessionHistory(session);
    await checkHistory(history, items);
    await checkRunOn(items, history, { onInvalidItem: 'throw' });
    return items;
  },
  expected: (error: unknown) => SessionError.isInstance(error),
};
