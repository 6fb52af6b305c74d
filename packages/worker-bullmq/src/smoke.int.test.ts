import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureAgents, sink } from './__tests__/fixtures.js';
import { startRedisServer, type TestRedis } from './__tests__/redis-server.js';
import { createDurableRunner, createDurableWorker, transcriptFromEvents } from './index.js';

let redis: TestRedis;
let sinkRedis: Redis;
beforeAll(async () => {
  redis = await startRedisServer();
  sinkRedis = new Redis(redis.connection);
});
afterAll(async () => {
  sinkRedis?.disconnect();
  await redis?.dispose();
});

describe('smoke', () => {
  it('runs three tool turns and a final answer through a worker', async () => {
    const agents = buildFixtureAgents(sinkRedis, { toolDelayMs: 5 });
    const runner = createDurableRunner({ connection: redis.connection, agents, queue: { name: 'smoke' } });
    const worker = createDurableWorker({ connection: redis.connection, agents, queue: { name: 'smoke' }, concurrency: 2 });
    try {
      const runId = await runner.start('credits', 'alice');
      const info = await runner.waitFor(runId, { timeoutMs: 10_000 });
      expect(info.status).toBe('completed');
      expect(info.finalOutput).toBe('apply_credit done 3 times for alice');
      const events = [];
      for await (const e of runner.stream(runId)) events.push(e);
      console.log(events.map((e) => e.type).join(','));
      expect(transcriptFromEvents(events).at(-1)).toBe('apply_credit done 3 times for alice');
      console.log(worker.stats, await sinkRedis.hgetall(sink.applied));
    } finally {
      await worker.close();
      await runner.close();
    }
  });
});
