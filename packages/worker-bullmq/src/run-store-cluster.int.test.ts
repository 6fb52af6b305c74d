/**
 * The run store on a Redis Cluster client: the claims and commits of different runs made in the
 * same tick are not batched (their keys live in different slots, so one script call over them
 * would be refused with CROSSSLOT); each goes alone and each is fenced on its own.
 */
import { clusterReady, startTestRedis, type TestRedis } from '@baton/testing';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from './run-store.js';

let redis: TestRedis;
let cluster: Cluster;
beforeAll(async () => {
  redis = await startTestRedis({ cluster: true });
  cluster = new Cluster([{ host: '127.0.0.1', port: redis.port }]);
  await clusterReady(cluster);
});
afterAll(async () => {
  cluster?.disconnect();
  await redis?.dispose();
});

describe('RunStore on Redis Cluster', () => {
  it('claims and commits runs of different slots in the same tick, each on its own', async () => {
    const store = new RunStore(cluster as never, 'cluster-test');
    const ids = ['c1', 'c2', 'c3'];
    const slots = await Promise.all(
      ids.map((id) => cluster.cluster('KEYSLOT', store.keys(id).meta) as Promise<number>),
    );
    expect(new Set(slots).size).toBeGreaterThan(1);
    const meta = { status: 'queued', step: '1', epoch: '0', agentName: 'a', context: '' };
    for (const id of ids)
      expect(await store.create(id, { stateJson: '{}', meta, events: [] })).toBe(true);
    const claims = await Promise.all(ids.map((id) => store.claim(id, 1, 'w1', 1)));
    expect(claims.map((c) => c.kind)).toEqual(['ok', 'ok', 'ok']);
    const input = {
      stateJson: '{"s":1}',
      meta: { status: 'queued', step: '2' },
      events: [{ type: 'run_item' }],
      prune: [],
      pending: [],
      ttlSeconds: 0,
    };
    const epochs = claims.map((c) => (c.kind === 'ok' ? c.epoch : -1));
    const commits = await Promise.all([
      store.commit('c1', epochs[0], input),
      store.commit('c2', epochs[1] - 1, input),
      store.commit('c3', epochs[2], input),
    ]);
    expect(commits).toEqual([true, false, true]);
    expect(await cluster.get(store.keys('c2').state)).toBe('{}');
    expect(await cluster.get(store.keys('c3').state)).toBe('{"s":1}');
  });
});
