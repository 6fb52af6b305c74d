/**
 * The run store's commit script on a real redis-server: journal entries handed to the commit
 * (those a step had not sent yet) are written after the pruning, and only while the epoch owns
 * the run. Claims and commits made in the same tick go as one batched script call, each fenced
 * and answered on its own.
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

/** Script calls (EVALSHA + EVAL) the server has run so far. */
async function scriptCalls(): Promise<number> {
  const info = await client.info('commandstats');
  let n = 0;
  for (const m of info.matchAll(/cmdstat_(evalsha|eval):calls=(\d+)/g)) n += Number(m[2]);
  return n;
}

const baseMeta = { status: 'queued', step: '1', epoch: '0', agentName: 'a', context: '' };

describe('RunStore batching', () => {
  it('sends the claims and the commits of one tick as one script call each; a stale epoch is fenced alone', async () => {
    const store = new RunStore(client, 'batch-test');
    const ids = ['b1', 'b2', 'b3'];
    for (const id of ids)
      expect(await store.create(id, { stateJson: '{}', meta: baseMeta, events: [] })).toBe(true);
    // b2 was claimed before: its claim below bumps the epoch again.
    const first = await store.claim('b2', 1, 'w0', 1);
    if (first.kind !== 'ok') throw new Error(first.kind);

    let before = await scriptCalls();
    const claims = await Promise.all(ids.map((id) => store.claim(id, 1, 'w1', 2)));
    // INFO itself is no script call: the three claims were one.
    expect((await scriptCalls()) - before).toBe(1);
    expect(claims.map((c) => c.kind)).toEqual(['ok', 'ok', 'ok']);
    const epochs = claims.map((c) => (c.kind === 'ok' ? c.epoch : -1));
    expect(epochs).toEqual([1, 2, 1]);
    expect(claims.map((c) => c.kind === 'ok' && c.takeover)).toEqual([false, true, false]);

    const input = (n: number) => ({
      stateJson: `{"s":${n}}`,
      meta: { status: 'queued', step: '2' },
      events: [{ type: 'run_item', n }],
      prune: [],
      pending: [],
      ttlSeconds: 0,
    });
    before = await scriptCalls();
    // b2 commits with the epoch the earlier claim had: fenced, and only b2.
    const commits = await Promise.all([
      store.commit('b1', epochs[0], input(1)),
      store.commit('b2', first.epoch, input(2)),
      store.commit('b3', epochs[2], input(3)),
    ]);
    expect((await scriptCalls()) - before).toBe(1);
    expect(commits).toEqual([true, false, true]);
    for (const [i, id] of ids.entries()) {
      const k = store.keys(id);
      expect(await client.get(k.state)).toBe(i === 1 ? '{}' : `{"s":${i + 1}}`);
      const events = await client.xrange(k.events, '-', '+');
      expect(events.map(([, f]) => f[1])).toEqual(
        i === 1 ? [] : [`{"type":"run_item","n":${i + 1}}`],
      );
      expect(await client.hget(k.meta, 'step')).toBe(i === 1 ? '1' : '2');
    }
    expect(await client.hget(store.keys('b2').meta, 'rejectedWrites')).toBe('1');
  });

  it('a call that fails in a batch fails alone', async () => {
    const store = new RunStore(client, 'batch-error');
    for (const id of ['e1', 'e2'])
      expect(await store.create(id, { stateJson: '{}', meta: baseMeta, events: [] })).toBe(true);
    // e2's journal is not a hash: its claim's HGETALL fails with WRONGTYPE.
    await client.set(store.keys('e2').journal, 'not a hash');
    const [ok, failed] = await Promise.allSettled([
      store.claim('e1', 1, 'w1', 1),
      store.claim('e2', 1, 'w1', 1),
    ]);
    expect(ok.status === 'fulfilled' && ok.value.kind).toBe('ok');
    expect(failed.status).toBe('rejected');
    expect(String((failed as PromiseRejectedResult).reason)).toMatch(/WRONGTYPE/);
  });
});
