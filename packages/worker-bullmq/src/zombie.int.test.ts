/**
 * A zombie worker: SIGSTOP past its lock while a tool runs, another worker takes the step over,
 * then SIGCONT. Lock 2 s, stalled check 1 s; the zombie's tool works 2.5 s.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, spawnWorker, type WorkerChild } from './__tests__/children.js';
import { buildFixtureAgents, sink, TOOL_TURNS } from './__tests__/fixtures.js';
import { startRedisServer, type TestRedis, waitFor } from './__tests__/redis-server.js';
import { createDurableRunner, createDurableWorker, runKeys } from './index.js';

let redis: TestRedis;
let sinkRedis: Redis;
let children: WorkerChild[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  sinkRedis = new Redis(redis.connection);
});
afterAll(async () => {
  await killAll(children);
  sinkRedis?.disconnect();
  await redis?.dispose();
});

async function snapshot(runId: string) {
  const k = runKeys(runId);
  const [state, events, journal, meta] = await Promise.all([
    sinkRedis.get(k.state),
    sinkRedis.xrange(k.events, '-', '+'),
    sinkRedis.hgetall(k.journal),
    sinkRedis.hgetall(k.meta),
  ]);
  return { state, events, journal, meta };
}

describe('zombie worker', () => {
  it('accepts 0 writes from the stale epoch of a worker that was stopped past its lock', async () => {
    const queue = 'zombie';
    const runner = createDurableRunner({
      connection: redis.connection,
      agents: buildFixtureAgents(sinkRedis),
      queue: { name: queue },
    });
    const zombie = await spawnWorker({
      REDIS_PORT: redis.port,
      QUEUE: queue,
      CONCURRENCY: 1,
      LOCK_MS: 2000,
      STALLED_MS: 1000,
      TOOL_DELAY_MS: 2500,
    });
    children = [zombie];
    let survivor: ReturnType<typeof createDurableWorker> | undefined;
    try {
      const runId = await runner.start('credits', 'zed');
      await waitFor(
        async () => Number(await sinkRedis.hget(sink.exec, `${runId}/1`)) === 1,
        10_000,
        'the zombie to start its first tool call',
      );
      zombie.signal('SIGSTOP');
      const staleEpoch = Number((await runner.get(runId))!.epoch);
      survivor = createDurableWorker({
        connection: redis.connection,
        agents: buildFixtureAgents(sinkRedis, { toolDelayMs: 10 }),
        queue: { name: queue },
        concurrency: 2,
        lockDurationMs: 2000,
        stalledIntervalMs: 1000,
      });
      const done = await runner.waitFor(runId, { statuses: ['completed'], timeoutMs: 20_000 });
      expect(done.finalOutput).toBe(`apply_credit done ${TOOL_TURNS} times for zed`);
      expect(done.epoch).toBeGreaterThan(staleEpoch);
      expect(survivor.stats.takeovers).toBe(1);
      const before = await snapshot(runId);
      const rejectedBefore = Number(before.meta.rejectedWrites ?? 0);
      zombie.signal('SIGCONT');
      // The zombie finishes its tool, tries to journal the result, is refused, and stops its step.
      await waitFor(
        () => (zombie.stats().fencedSteps ?? 0) >= 1,
        10_000,
        'the zombie to be fenced out',
      );
      const after = await snapshot(runId);
      expect(Number(after.meta.rejectedWrites)).toBeGreaterThan(rejectedBefore);
      expect(after.state).toBe(before.state);
      expect(after.events).toEqual(before.events);
      expect(after.journal).toEqual(before.journal);
      expect({ ...after.meta, rejectedWrites: '' }).toEqual({ ...before.meta, rejectedWrites: '' });
      expect(
        after.events
          .filter(([, f]) => f[f.indexOf('ep') + 1] === String(staleEpoch))
          .map(([, f]) => JSON.parse(f[1]).type),
      ).toEqual([]);
      expect(zombie.stats().stepsCommitted ?? 0).toBe(0);
      // The tool call the zombie was in: re-run by the survivor with the same key, applied once.
      expect(await sinkRedis.hget(sink.exec, `${runId}/1`)).toBe('2');
      expect(await sinkRedis.hgetall(sink.applied)).toEqual({
        [`${runId}/1`]: '1',
        [`${runId}/2`]: '1',
        [`${runId}/3`]: '1',
      });
    } finally {
      await survivor?.close();
      await runner.close();
    }
  });
});
