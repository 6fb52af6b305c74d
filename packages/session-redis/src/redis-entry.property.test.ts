/**
 * Property tests of RedisSession entry decoding: the `session.redis.entries` fuzz target, and the
 * same damaged lists stored in a real redis-server, read with getItems and popped until empty.
 */
import { findItemIssue, loadItemSchemas, SessionError } from '@baton/kernel';
import { RedisSession } from '@baton/session-redis';
import { startTestRedis, type TestRedis } from '@baton/testing';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFuzzTarget } from '../../../fuzz/local-assert.js';
import target, {
  hasNewerEntry,
  rawEntry,
} from '../../../fuzz/targets/session-redis-entries.fuzz.js';

let redis: TestRedis;
let raw: Redis;
beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.connection);
});
afterAll(async () => {
  raw?.disconnect();
  await redis?.dispose();
});

describe('RedisSession on damaged list entries', () => {
  it('valid items or a SessionError from getItems and readSessionHistory (3,000 inputs, fixed seed)', async () => {
    await assertFuzzTarget(target, { numRuns: 3_000, seed: 1818 });
  }, 120_000);

  it('in a real Redis: getItems gives valid items or a SessionError, popItem empties the list (300 lists)', async () => {
    const schemas = await loadItemSchemas();
    let n = 0;
    const seen = { items: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(rawEntry, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (raws, skip) => {
          const session = new RedisSession({
            sessionId: `p${n++}`,
            client: raw,
            onInvalidItem: skip ? 'skip' : 'throw',
          });
          await raw.rpush(session.itemsKey, ...raws);
          try {
            const items = await session.getItems().catch((error) => {
              expect(error).toBeInstanceOf(SessionError);
              if (skip) expect(hasNewerEntry(raws)).toBe(true);
              seen.refused++;
              return [];
            });
            for (const item of items) expect(findItemIssue(schemas, item)).toBeUndefined();
            seen.items += items.length;
            // Pops end: each returns a valid item, undefined (empty) or a SessionError.
            for (let i = 0; i <= raws.length; i++) {
              const popped = await session.popItem().catch((error) => {
                expect(error).toBeInstanceOf(SessionError);
                return 'refused' as const;
              });
              if (popped === undefined) break;
              if (popped !== 'refused') expect(findItemIssue(schemas, popped)).toBeUndefined();
            }
            expect(await raw.llen(session.itemsKey)).toBe(0);
          } finally {
            await session.clearSession();
          }
        },
      ),
      { numRuns: 300, seed: 1818 },
    );
    // Both outcomes occur (the generator reaches valid and refused lists).
    expect(seen.items).toBeGreaterThan(50);
    expect(seen.refused).toBeGreaterThan(50);
  }, 120_000);
});
