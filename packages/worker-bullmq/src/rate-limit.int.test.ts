/**
 * Provider 429s and queue caps: a storm of 429s with retry-after pauses the whole queue through
 * BullMQ's rate limiting (no attempt used, no failed job); the global concurrency cap and the
 * global rate cap hold across two workers. Scale: 20 runs × 2 model turns, 2 in-process workers.
 */
import { Agent, ModelCallError, type ModelRequest, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startRedisServer, type TestRedis } from './__tests__/redis-server.js';
import { createDurableRunner, createDurableWorker, type DurableQueueOptions } from './index.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.dispose();
});

/** An agent whose model answers 429 (retry-after 150 ms) to its first `storm` calls and tracks concurrency. */
function limitedAgent(storm: number, workMs: number) {
  const probe = { calls: 0, rejected: 0, inFlight: 0, maxInFlight: 0, starts: [] as number[] };
  const inner = new ScriptedModel(
    [
      (request: ModelRequest) =>
        request.input.some((i) => i.type === 'function_call_output')
          ? [msg('all set')]
          : [fc('note', { text: 'hi' }, 'n1')],
    ],
    { whenExhausted: 'repeat_last' },
  );
  const model = {
    specificationVersion: 'v1' as const,
    provider: 'limited',
    modelId: 'limited',
    getResponse: (r: ModelRequest) => inner.getResponse(r),
    async *getStreamedResponse(request: ModelRequest) {
      probe.calls++;
      probe.starts.push(Date.now());
      probe.inFlight++;
      probe.maxInFlight = Math.max(probe.maxInFlight, probe.inFlight);
      try {
        await new Promise((r) => setTimeout(r, workMs));
        if (probe.rejected < storm) {
          probe.rejected++;
          throw new ModelCallError('429 Too Many Requests', {
            statusCode: 429,
            retryable: true,
            retryAfterMs: 150,
          });
        }
        yield* inner.getStreamedResponse(request);
      } finally {
        probe.inFlight--;
      }
    },
  };
  const note = tool({
    name: 'note',
    description: 'Take a note.',
    parameters: z.object({ text: z.string() }),
    effect: 'pure',
    execute: ({ text }) => `noted ${text}`,
  });
  return {
    agent: new Agent({ name: 'Limited', instructions: 'Take a note.', tools: [note], model }),
    probe,
  };
}

async function runFleet(name: string, queue: DurableQueueOptions, storm: number, runs: number) {
  const { agent, probe } = limitedAgent(storm, 40);
  const agents = { limited: agent };
  const runner = createDurableRunner({
    connection: redis.connection,
    agents,
    queue: { ...queue, name },
    policies: { attempts: 1 },
  });
  const workers = [0, 1].map(() =>
    createDurableWorker({
      connection: redis.connection,
      agents,
      queue: { name },
      policies: { attempts: 1 },
      concurrency: 4,
    }),
  );
  let failedEvents = 0;
  for (const w of workers) w.bullWorker.on('failed', () => failedEvents++);
  try {
    const started = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < runs; i++) ids.push(await runner.start('limited', `run ${i}`));
    const done = await Promise.all(ids.map((id) => runner.waitFor(id, { timeoutMs: 30_000 })));
    const elapsedMs = Date.now() - started;
    const counts = await runner.queue.getJobCounts('failed', 'waiting', 'active', 'delayed');
    return { done, probe, failedEvents, counts, elapsedMs, stats: workers.map((w) => w.stats) };
  } finally {
    for (const w of workers) await w.close();
    await runner.close();
  }
}

describe('rate limits and caps', () => {
  it('a 429 storm with retry-after: all runs finish, no job fails or uses an attempt, global concurrency cap respected', async () => {
    const r = await runFleet('storm', { globalConcurrency: 2 }, 15, 20);
    expect(r.done.map((d) => d.status)).toEqual(r.done.map(() => 'completed'));
    expect(r.done.every((d) => d.finalOutput === 'all set')).toBe(true);
    expect(r.probe.rejected).toBe(15);
    expect(r.stats.reduce((a, s) => a + s.rateLimited, 0)).toBe(15);
    expect(r.stats.reduce((a, s) => a + s.retried + s.failedRuns, 0)).toBe(0);
    expect(r.failedEvents).toBe(0);
    expect(r.counts).toEqual({ failed: 0, waiting: 0, active: 0, delayed: 0 });
    expect(r.probe.maxInFlight).toBeLessThanOrEqual(2);
    expect(r.probe.calls).toBe(20 * 2 + 15);
  });

  it('a global rate cap spaces job starts across workers', async () => {
    const r = await runFleet('rate-cap', { rateLimit: { max: 5, durationMs: 500 } }, 0, 10);
    expect(r.done.every((d) => d.status === 'completed')).toBe(true);
    // 20 turn jobs at ≤ 5 per 500 ms need at least three full windows.
    expect(r.elapsedMs).toBeGreaterThanOrEqual(1400);
    const starts = r.probe.starts.sort((a, b) => a - b);
    for (let i = 0; i + 10 < starts.length; i++)
      expect(starts[i + 10] - starts[i]).toBeGreaterThan(450);
  });
});
