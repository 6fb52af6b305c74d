import type { Item } from '@baton/kernel';
import { RedisSession } from '@baton/session-redis';
import { clusterReady, startTestRedis, type TestRedis } from '@baton/testing';
import { describeSessionConformance } from '@baton/testing/vitest';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let redis: TestRedis;
let cluster: Cluster;
beforeAll(async () => {
  redis = await startTestRedis({ cluster: true });
  cluster = new Cluster([{ host: '127.0.0.1', port: redis.port }], { keyPrefix: 'c:' });
  await clusterReady(cluster);
});
afterAll(async () => {
  cluster?.disconnect();
  await redis?.dispose();
});

const user = (content: string): Item => ({ type: 'message', role: 'user', content });

describeSessionConformance(
  'RedisSession (Redis Cluster client)',
  (sessionId) => new RedisSession({ sessionId, client: cluster, ttlSeconds: 600 }),
  { version: 'v2' },
);

describe('RedisSession on Redis Cluster', () => {
  it('puts the keys of a session in one slot, so scripts and DEL across them are allowed', async () => {
    const session = new RedisSession({ sessionId: 'user:42', client: cluster });
    const slot = (key: string) => cluster.cluster('KEYSLOT', `c:${key}`) as Promise<number>;
    expect(await slot(session.itemsKey)).toBe(await slot(session.metaKey));
    expect(await slot(session.appendsKey)).toBe(await slot(session.metaKey));
    expect(await slot(session.itemsKey)).toBe(await slot('{user:42}'));
    // Without the hash tag the two keys would land in different slots, which Redis Cluster refuses.
    expect(await slot('baton:session:user:42:items')).not.toBe(
      await slot('baton:session:user:42:meta'),
    );
    const crossSlot = await cluster
      .del('baton:session:user:42:items', 'baton:session:user:42:meta')
      .catch((e) => e);
    expect(String(crossSlot)).toMatch(/CROSSSLOT|same slot/i);

    await session.addItems([user('a'), user('b')], { appendId: 'k' });
    await session.addItems([user('a'), user('b')], { appendId: 'k' });
    expect(await session.popItem()).toEqual(user('b'));
    expect((await session.getMetadata())!.itemCount).toBe(1);
    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
  });
});
