/**
 * The floor of the turn-job benchmark: a bare BullMQ queue and `workers` worker processes with
 * the same concurrency processing empty jobs, on a fresh redis-server. Jobs are added the way
 * `benchTurnJobs` starts runs (100 at a time, `addBulk`), and jobs/s counts from the first add
 * until no job is waiting or active. BullMQ's default job options (completed jobs are kept).
 *
 * Run: `node --import tsx packages/worker-bullmq/bench/bare-jobs.ts [jobs] [workers] [warmupJobs]`.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startRedisServer } from '../src/__tests__/redis-server.js';
import {
  commandDelta,
  cpuMs,
  type RedisCommandCounts,
  redisCommandSnapshot,
  spawnBenchWorker,
} from './turn-jobs.js';

export interface BareJobsResult {
  workers: number;
  jobs: number;
  elapsedMs: number;
  jobsPerSecond: number;
  completed: number;
  /** Redis commands per job. */
  redis: RedisCommandCounts;
  /** CPU time (user + system) per job, in ms: all worker processes, and redis-server. */
  workerCpuMsPerJob: number;
  redisCpuMsPerJob: number;
}

const WORKER = fileURLToPath(new URL('./bare-worker.ts', import.meta.url));

/** Runs the floor: `jobs` empty jobs through `workers` processes (concurrency each). */
export async function benchBareJobs(options: {
  jobs: number;
  workers: number;
  concurrency?: number;
  timeoutMs?: number;
  /** Jobs done before the measured span (see `TurnJobsBenchOptions.warmupRuns`). Default 1,000. */
  warmupJobs?: number;
}): Promise<BareJobsResult> {
  const redis = await startRedisServer();
  const name = 'bare';
  const queue = new Queue(name, { connection: redis.connection });
  const procs: ChildProcess[] = [];
  try {
    const env = {
      REDIS_PORT: String(redis.port),
      QUEUE: name,
      CONCURRENCY: String(options.concurrency ?? 32),
    };
    procs.push(
      ...(await Promise.all(
        Array.from({ length: options.workers }, () => spawnBenchWorker(WORKER, env, 'bare worker')),
      )),
    );
    const addJobs = async (n: number) => {
      for (let i = 0; i < n; i += 100) {
        await queue.addBulk(
          Array.from({ length: Math.min(100, n - i) }, (_, j) => ({
            name: 'empty',
            data: { n: i + j },
          })),
        );
      }
    };
    const drained = async (deadline: number) => {
      for (;;) {
        const c = await queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed');
        if (c.waiting + c.active + c.prioritized + c.delayed === 0) return;
        if (Date.now() > deadline)
          throw new Error(`benchBareJobs: not done (${JSON.stringify(c)})`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const warmupJobs = options.warmupJobs ?? 1000;
    if (warmupJobs > 0) {
      await addJobs(warmupJobs);
      await drained(Date.now() + (options.timeoutMs ?? 120_000));
    }
    const completedBefore = (await queue.getJobCounts('completed')).completed;
    const stats = new Redis(redis.connection);
    const before = await redisCommandSnapshot(stats);
    const cpuBefore = procs.reduce((a, p) => a + cpuMs(p.pid!), 0);
    const redisBefore = cpuMs(redis.pid);
    const started = Date.now();
    await addJobs(options.jobs);
    await drained(started + (options.timeoutMs ?? 120_000));
    const elapsedMs = Date.now() - started;
    const workerCpu = procs.reduce((a, p) => a + cpuMs(p.pid!), 0) - cpuBefore;
    const redisCpu = cpuMs(redis.pid) - redisBefore;
    const after = await redisCommandSnapshot(stats);
    stats.disconnect();
    const completed = (await queue.getJobCounts('completed')).completed - completedBefore;
    return {
      workers: options.workers,
      jobs: options.jobs,
      elapsedMs,
      jobsPerSecond: Math.round((options.jobs / elapsedMs) * 1000),
      completed,
      redis: commandDelta(before, after, options.jobs),
      workerCpuMsPerJob: Math.round((workerCpu / options.jobs) * 1000) / 1000,
      redisCpuMsPerJob: Math.round((redisCpu / options.jobs) * 1000) / 1000,
    };
  } finally {
    if (process.env.W1_CPU_PROF)
      await Promise.all(
        procs.map(
          (p) =>
            new Promise((r) => {
              p.once('exit', r);
              p.kill('SIGTERM');
            }),
        ),
      );
    for (const p of procs) p.kill('SIGKILL');
    await queue.close();
    await redis.dispose();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await benchBareJobs({
    jobs: Number(process.argv[2] ?? 4000),
    workers: Number(process.argv[3] ?? 4),
    warmupJobs: process.argv[4] ? Number(process.argv[4]) : undefined,
  });
  console.log(
    `bare BullMQ: ${r.workers} workers, ${r.jobs} empty jobs in ${r.elapsedMs} ms → ${r.jobsPerSecond} jobs/s; completed ${r.completed}; CPU per job: workers ${r.workerCpuMsPerJob} ms, redis ${r.redisCpuMsPerJob} ms; Redis commands per job: ${r.redis.executed} executed (${r.redis.scripts} scripts) ${JSON.stringify(r.redis.byCommand)}`,
  );
  process.exit(r.completed === r.jobs ? 0 : 1);
}
