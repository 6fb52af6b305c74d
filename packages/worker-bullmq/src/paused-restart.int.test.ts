/**
 * Paused runs survive everything: 20 runs pause for approval; both worker processes and Redis
 * (AOF on, fsync always) are killed with SIGKILL and Redis restarted; approving then finishes
 * every run on a new worker. While paused, the runs hold no job (0 active, 0 waiting).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, spawnWorker, type WorkerChild } from './__tests__/children.js';
import { buildFixtureAgents, sink } from './__tests__/fixtures.js';
import { settledJobCounts, startRedisServer, type TestRedis } from './__tests__/redis-server.js';
import { createDurableRunner, createDurableWorker, type DurableRunner } from './index.js';

const RUNS = 20;
let redis: TestRedis;
let sinkRedis: Redis;
let children: WorkerChild[] = [];

beforeAll(async () => {
  redis = await startRedisServer({ aof: true });
  sinkRedis = new Redis(redis.connection);
});
afterAll(async () => {
  await killAll(children);
  sinkRedis?.disconnect();
  await redis?.dispose();
});

async function jobCounts(runner: DurableRunner) {
  return settledJobCounts(() =>
    runner.queue.getJobCounts('active', 'waiting', 'prioritized', 'delayed'),
  );
}

describe('paused runs across a full restart', () => {
  it('keeps 20 paused runs through kill -9 of all workers and Redis; approvals finish them within 2 s', async () => {
    const queue = 'paused';
    const runner = createDurableRunner({
      connection: redis.connection,
      agents: buildFixtureAgents(sinkRedis),
      queue: { name: queue },
    });
    let worker: ReturnType<typeof createDurableWorker> | undefined;
    try {
      const env = {
        REDIS_PORT: redis.port,
        QUEUE: queue,
        CONCURRENCY: 8,
        LOCK_MS: 2000,
        STALLED_MS: 1000,
      };
      children = await Promise.all([spawnWorker(env), spawnWorker(env)]);
      const runIds: string[] = [];
      for (let i = 0; i < RUNS; i++) runIds.push(await runner.start('refunds', `order-${i}`));
      const paused = await Promise.all(
        runIds.map((id) => runner.waitFor(id, { statuses: ['paused'], timeoutMs: 20_000 })),
      );
      expect(
        paused.every(
          (p) => p.interruptions.length === 1 && p.interruptions[0].call_id === 'refund-1',
        ),
      ).toBe(true);
      expect(await jobCounts(runner)).toEqual({
        active: 0,
        waiting: 0,
        prioritized: 0,
        delayed: 0,
      });

      await killAll(children);
      children = [];
      await redis.stop('SIGKILL');
      await redis.start();
      const restored = await Promise.all(runIds.map((id) => runner.get(id)));
      expect(restored.map((r) => r?.status)).toEqual(runIds.map(() => 'paused'));
      expect(await jobCounts(runner)).toEqual({
        active: 0,
        waiting: 0,
        prioritized: 0,
        delayed: 0,
      });
      expect(await sinkRedis.hlen(sink.exec)).toBe(0);

      worker = createDurableWorker({
        connection: redis.connection,
        agents: buildFixtureAgents(sinkRedis),
        queue: { name: queue },
        concurrency: 8,
      });
      await worker.waitUntilReady();
      const approvedAt = Date.now();
      const results = await Promise.all(
        runIds.map((id) => runner.approve(id, 'refund-1', { by: 'supervisor' })),
      );
      expect(results.every((r) => r.resumed)).toBe(true);
      const done = await Promise.all(
        runIds.map((id) => runner.waitFor(id, { statuses: ['completed'], timeoutMs: 10_000 })),
      );
      const slowest = Math.max(...done.map((d) => d.finishedAt! - approvedAt));
      expect(slowest).toBeLessThanOrEqual(2000);
      expect(done.map((d) => d.finalOutput)).toEqual(
        runIds.map((_, i) => `Refund step finished: refunded order-${i}`),
      );
      const exec = await sinkRedis.hgetall(sink.exec);
      expect(Object.values(exec)).toEqual(runIds.map(() => '1'));
      console.info(`[paused-restart] runs=${RUNS} slowest finish after approval=${slowest} ms`);
    } finally {
      await worker?.close();
      await runner.close();
    }
  });
});
