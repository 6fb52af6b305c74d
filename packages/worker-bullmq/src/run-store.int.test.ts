/**
 * The run store's commit script on a real redis-server: journal entries handed to the commit
 * (those a step had not sent yet) are written after the pruning, and only while the epoch owns
 * the run.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedis } from './__tests__/redis-server.js';
import { RunStore } from './run-store.js';

let redis: TestRedis;
let client: Redis;

beforeAll(async () => {
  redis = await startRedisServer();
  client = new Redis(redis.connection);
});
afterAll(async () => {
  client?.disconnect();
  await redis?.dispose();
});

describe('RunStore.commit', () => {
  it('writes the journal entries it is given after pruning, and nothing when fenced', async () => {
    const store = new RunStore(client, 'commit-test');
    const meta = { status: 'queued', step: '1', epoch: '0', agentName: 'a', context: '' };
    expect(await store.create('r1', { stateJson: '{}', meta, events: [] })).toBe(true);
    const claim = await store.claim('r1', 1, 'w1', 1);
    if (claim.kind !== 'ok') throw new Error(claim.kind);
    expect(claim.meta).toEqual({ agentName: 'a', sessionId: '', context: '' });
    expect(
      await store.journalSet('r1', claim.epoch, 'model:r1:1', '{}', 'started:r1:c0', '1'),
    ).toBe(true);
    const input = {
      stateJson: '{"s":2}',
      meta: { status: 'paused', step: '2' },
      events: [{ type: 'interruption' }],
      prune: ['model:r1:1', 'started:r1:c0'],
      pending: ['c1'],
      journal: ['started:r1:c1', '1'],
      ttlSeconds: 0,
    };
    // A stale epoch writes nothing: neither the state nor the journal entries.
    expect(await store.commit('r1', claim.epoch - 1, input)).toBe(false);
    const k = store.keys('r1');
    expect(await client.hgetall(k.journal)).toEqual({ 'model:r1:1': '{}', 'started:r1:c0': '1' });
    expect(await client.get(k.state)).toBe('{}');
    expect(await store.commit('r1', claim.epoch, input)).toBe(true);
    expect(await client.hgetall(k.journal)).toEqual({ 'started:r1:c1': '1' });
    expect(await client.get(k.state)).toBe('{"s":2}');
    expect(await client.smembers(k.pending)).toEqual(['c1']);
  });
});
