/**
 * kill -9 of a worker process while model text is streaming. Scale: 8 runs, 2 workers ×
 * concurrency 4, a ~1 s stream per run (~45 deltas, 25 ms apart, coalesced per 100 ms), lock 2 s,
 * stalled check 1 s.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, spawnWorker, type WorkerChild } from './__tests__/children.js';
import { buildFixtureAgents, sink, writerText } from './__tests__/fixtures.js';
import { startRedisServer, type TestRedis, waitFor } from './__tests__/redis-server.js';
import { createDurableRunner, type DurableRunEvent, transcriptFromEvents } from './index.js';

const RUNS = 8;
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

describe('kill -9 mid-model-stream', () => {
  it('makes at most one extra model call per interrupted stream and the client transcript has no duplicated text', async () => {
    const runner = createDurableRunner({
      connection: redis.connection,
      agents: buildFixtureAgents(sinkRedis),
      queue: { name: 'crash-stream' },
    });
    try {
      const env = {
        REDIS_PORT: redis.port,
        QUEUE: 'crash-stream',
        CONCURRENCY: 4,
        LOCK_MS: 2000,
        STALLED_MS: 1000,
        DELTA_DELAY_MS: 25,
      };
      children = await Promise.all([spawnWorker(env), spawnWorker(env)]);
      const [victim] = children;
      const victimId = await victim.id;
      const runIds: string[] = [];
      for (let i = 0; i < RUNS; i++) runIds.push(await runner.start('writer', `writer-${i}`));
      // Wait until the victim has streamed part of a story.
      let interrupted: string[] = [];
      await waitFor(
        async () => {
          const infos = await Promise.all(runIds.map((id) => runner.get(id)));
          interrupted = infos
            .filter((i) => i?.status === 'running' && i.owner === victimId)
            .map((i) => i!.runId);
          if (interrupted.length === 0) return false;
          const lens = await Promise.all(
            interrupted.map((id) => sinkRedis.xlen(`{baton:run:${id}}:events`)),
          );
          return lens.some((n) => n >= 5);
        },
        20_000,
        'a story streaming on the victim',
      );
      victim.signal('SIGKILL');
      await victim.exited;
      const infos = await Promise.all(runIds.map((id) => runner.get(id)));
      interrupted = infos
        .filter((i) => i?.status === 'running' && i.owner === victimId)
        .map((i) => i!.runId);
      const finals = await Promise.all(
        runIds.map((id) => runner.waitFor(id, { timeoutMs: 30_000 })),
      );
      expect(finals.map((f) => f.status)).toEqual(runIds.map(() => 'completed'));
      const modelCalls = Number(await sinkRedis.get(sink.modelCalls));
      expect(modelCalls).toBeGreaterThan(RUNS);
      expect(modelCalls).toBeLessThanOrEqual(RUNS + interrupted.length);
      let resets = 0;
      for (let i = 0; i < RUNS; i++) {
        const events: DurableRunEvent[] = [];
        for await (const e of runner.stream(runIds[i])) events.push(e);
        resets += events.filter((e) => e.type === 'attempt_reset').length;
        expect(transcriptFromEvents(events)).toEqual([writerText(`writer-${i}`)]);
        expect(finals[i].finalOutput).toBe(writerText(`writer-${i}`));
        const deltas = events.filter((e) => e.type === 'text_delta').length;
        const modelDeltas = Math.ceil(writerText(`writer-${i}`).length / 6);
        expect(deltas).toBeLessThan(modelDeltas / 2); // coalesced: far fewer events than model deltas
      }
      expect(resets).toBeGreaterThan(0);
      expect(resets).toBeLessThanOrEqual(interrupted.length);
      console.info(
        `[crash-stream] runs=${RUNS} interrupted=${interrupted.length} model calls=${modelCalls} resets=${resets}`,
      );
    } finally {
      await runner.close();
    }
  });
});
