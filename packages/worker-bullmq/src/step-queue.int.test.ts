/**
 * The BullMQ side of turn jobs on a real redis-server: the turn jobs enqueued in one tick go as
 * one `addBulk` round trip, each added once (an existing job id is not added twice), and a
 * failed batch fails every enqueue of it.
 */
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedis } from './__tests__/redis-server.js';
import { bullStepQueue } from './step-queue.js';

let redis: TestRedis;
let queue: Queue;

beforeAll(async () => {
  redis = await startRedisServer();
  queue = new Queue('step-queue-test', { connection: redis.connection });
  await queue.waitUntilReady();
});
afterAll(async () => {
  await queue?.close();
  await redis?.dispose();
});

describe('bullStepQueue.enqueue', () => {
  it('adds the jobs of one tick in one addBulk, each job id once', async () => {
    const steps = bullStepQueue(queue);
    const bulk: number[] = [];
    const add: number[] = [];
    const realBulk = queue.addBulk.bind(queue);
    const realAdd = queue.add.bind(queue);
    queue.addBulk = (jobs) => {
      bulk.push(jobs.length);
      return realBulk(jobs);
    };
    queue.add = (name, data, opts) => {
      add.push(1);
      return realAdd(name, data, opts);
    };
    try {
      await Promise.all([
        steps.enqueue('r1:turn:2', { runId: 'r1', step: 2 }),
        steps.enqueue('r2:turn:2', { runId: 'r2', step: 2 }),
        steps.enqueue('r1:turn:2', { runId: 'r1', step: 2 }),
      ]);
      await steps.enqueue('r3:turn:2', { runId: 'r3', step: 2 });
    } finally {
      queue.addBulk = realBulk;
      queue.add = realAdd;
    }
    expect(bulk).toEqual([3]);
    expect(add).toEqual([1]);
    const waiting = await queue.getWaiting();
    expect(waiting.map((j) => j.id).sort()).toEqual(['r1:turn:2', 'r2:turn:2', 'r3:turn:2']);
    expect(waiting.find((j) => j.id === 'r2:turn:2')?.data).toEqual({ runId: 'r2', step: 2 });
  });

  it('a failed batch rejects every enqueue in it', async () => {
    const steps = bullStepQueue(queue);
    const realBulk = queue.addBulk.bind(queue);
    queue.addBulk = async () => {
      throw new Error('connection lost');
    };
    try {
      const results = await Promise.allSettled([
        steps.enqueue('f1:turn:2', { runId: 'f1', step: 2 }),
        steps.enqueue('f2:turn:2', { runId: 'f2', step: 2 }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    } finally {
      queue.addBulk = realBulk;
    }
  });
});
