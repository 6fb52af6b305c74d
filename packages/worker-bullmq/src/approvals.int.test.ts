/**
 * Approvals of paused runs: concurrent decisions on one call (compare-and-set, exactly one resume
 * and one tool execution), approve/reject races, and the approval deadline (a delayed job).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureAgents, sink } from './__tests__/fixtures.js';
import { settledJobCounts, startRedisServer, type TestRedis } from './__tests__/redis-server.js';
import {
  createDurableRunner,
  createDurableWorker,
  type DurableRunEvent,
  type DurableRunner,
} from './index.js';

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

async function fleet(queue: string, policies = {}) {
  const agents = buildFixtureAgents(sinkRedis);
  const runners = [0, 1].map(() =>
    createDurableRunner({ connection: redis.connection, agents, queue: { name: queue }, policies }),
  );
  const worker = createDurableWorker({
    connection: redis.connection,
    agents,
    queue: { name: queue },
    policies,
    concurrency: 8,
  });
  const close = async () => {
    await worker.close();
    for (const r of runners) await r.close();
  };
  return { runners, worker, close };
}

async function events(runner: DurableRunner, runId: string): Promise<DurableRunEvent[]> {
  const out: DurableRunEvent[] = [];
  for await (const e of runner.stream(runId)) out.push(e);
  return out;
}

async function pausedRuns(runner: DurableRunner, n: number, prefix: string) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await runner.start('refunds', `${prefix}-${i}`));
  for (const id of ids) await runner.waitFor(id, { statuses: ['paused'], timeoutMs: 10_000 });
  return ids;
}

describe('approvals', () => {
  it('two concurrent approvals of one call: exactly one resume, the tool runs once', async () => {
    const { runners, worker, close } = await fleet('approve-race');
    try {
      const ids = await pausedRuns(runners[0], 10, 'race');
      const stepsBefore = worker.stats.stepsCommitted;
      for (const id of ids) {
        const results = await Promise.all([
          runners[0].approve(id, 'refund-1', { by: 'alice' }),
          runners[1].approve(id, 'refund-1', { by: 'bob' }),
        ]);
        expect(results.filter((r) => r.resumed)).toHaveLength(1);
        expect(results.filter((r) => r.reason === 'already_decided')).toHaveLength(1);
      }
      for (const id of ids)
        expect((await runners[0].waitFor(id, { statuses: ['completed'] })).finalOutput).toMatch(
          /^Refund step finished: refunded race-/,
        );
      for (const id of ids) {
        expect(await sinkRedis.hget(sink.exec, `${id}/refund`)).toBe('1');
        const ev = await events(runners[0], id);
        expect(ev.filter((e) => e.type === 'resumed')).toHaveLength(1);
        expect(ev.filter((e) => e.type === 'approval_decided')).toHaveLength(1);
      }
      // One resume step + one final turn per run, nothing more.
      expect(worker.stats.stepsCommitted - stepsBefore).toBe(ids.length * 2);
      expect(worker.stats.staleJobs).toBe(0);
    } finally {
      await close();
    }
  });

  it('an approve racing a reject: the first decision wins and the loser learns it', async () => {
    const { runners, close } = await fleet('approve-reject');
    try {
      const [id] = await pausedRuns(runners[0], 1, 'mixed');
      const [a, b] = await Promise.all([
        runners[0].reject(id, 'refund-1', { message: 'Not eligible.', by: 'carol' }),
        runners[1].approve(id, 'refund-1', { by: 'dave' }),
      ]);
      expect([a.resumed, b.resumed].filter(Boolean)).toHaveLength(1);
      const loser = a.resumed ? b : a;
      expect(loser.reason).toBe('already_decided');
      const done = await runners[0].waitFor(id, { statuses: ['completed'] });
      if (a.resumed) {
        expect(done.finalOutput).toBe('Refund step finished: Not eligible.');
        expect(await sinkRedis.hget(sink.exec, `${id}/refund`)).toBeNull();
      } else expect(await sinkRedis.hget(sink.exec, `${id}/refund`)).toBe('1');
      expect((await runners[0].approve(id, 'refund-1')).reason).toBe('not_paused');
      await expect(runners[0].approve('run_missing', 'refund-1')).rejects.toThrow(/No durable run/);
    } finally {
      await close();
    }
  });

  it('rejects an unknown call id with a UserError that lists the pending calls', async () => {
    const { runners, close } = await fleet('approve-unknown');
    try {
      const [id] = await pausedRuns(runners[0], 1, 'unknown');
      await expect(runners[0].approve(id, 'nope')).rejects.toThrow(/waits on: refund-1/);
      expect((await runners[0].get(id))!.status).toBe('paused');
    } finally {
      await close();
    }
  });

  it('approval deadline: undecided calls are rejected by a delayed job; an early approval wins', async () => {
    const { runners, close } = await fleet('deadline', {
      approvalTimeoutMs: 400,
      approvalTimeoutMessage: 'Timed out waiting for a supervisor.',
    });
    try {
      const [late, early] = await pausedRuns(runners[0], 2, 'deadline');
      expect(
        await settledJobCounts(() => runners[0].queue.getJobCounts('active', 'waiting', 'delayed')),
      ).toEqual({
        active: 0,
        waiting: 0,
        delayed: 2,
      });
      expect((await runners[0].approve(early, 'refund-1')).resumed).toBe(true);
      const timedOut = await runners[0].waitFor(late, { statuses: ['completed'], timeoutMs: 5000 });
      expect(timedOut.finalOutput).toBe(
        'Refund step finished: Timed out waiting for a supervisor.',
      );
      expect(await sinkRedis.hget(sink.exec, `${late}/refund`)).toBeNull();
      const decided = (await events(runners[0], late)).find((e) => e.type === 'approval_decided');
      expect(decided).toMatchObject({
        approved: false,
        by: 'policy:approvalTimeout',
        callId: 'refund-1',
      });
      expect((await runners[0].waitFor(early, { statuses: ['completed'] })).finalOutput).toBe(
        'Refund step finished: refunded deadline-1',
      );
      await new Promise((r) => setTimeout(r, 600));
      expect(await sinkRedis.hget(sink.exec, `${early}/refund`)).toBe('1');
      expect(
        await settledJobCounts(() => runners[0].queue.getJobCounts('active', 'waiting', 'delayed')),
      ).toEqual({
        active: 0,
        waiting: 0,
        delayed: 0,
      });
    } finally {
      await close();
    }
  });
});
