/**
 * `createDurableWorker`: a BullMQ worker that processes turn jobs of durable runs. Any number of
 * worker processes can share a queue; each must register the same agents as the runner.
 */
import { RunContext } from '@baton/kernel';
import { Queue, Worker } from 'bullmq';
import type { DurableBaseOptions, StepRunOptions } from './durable-options.js';
import { queueSettings } from './durable-options.js';
import type { DeltaStreamingOptions } from './model-streaming.js';
import {
  processTurnJob,
  type StepContext,
  type TurnJobData,
  type WorkerStats,
} from './process-turn-job.js';
import { bullConnection, closeRedisClient, createRedisClient } from './redis-clients.js';
import { RunStore } from './run-store.js';
import { bullStepQueue } from './step-queue.js';

/** Options of `createDurableWorker`. */
export interface DurableWorkerOptions extends DurableBaseOptions {
  /** Turn jobs this worker runs at once. Default 8. */
  concurrency?: number;
  /** BullMQ job lock, in ms: a worker silent this long loses its job to another. Default 30,000. */
  lockDurationMs?: number;
  /** How often this worker checks for stalled jobs (whose lock expired), in ms. Default 30,000. */
  stalledIntervalMs?: number;
  /** Times a job may stall (its worker died) before BullMQ fails it. Default 10 (steps are crash-safe). */
  maxStalledCount?: number;
  /** This worker's local rate cap (BullMQ `limiter`): at most `max` jobs per `durationMs`. */
  limiter?: { max: number; durationMs: number };
  /** Run options of every step (model provider, model override, tool concurrency, hooks, …). */
  runOptions?: StepRunOptions;
  /** Stream model text deltas to the run's event stream (coalesced). Default true. */
  streamDeltas?: boolean;
  /** Coalescing of streamed text. Default: a chunk per 50 ms or 512 characters. */
  coalescing?: DeltaStreamingOptions;
  /** Called with errors BullMQ reports outside a job (connection loss, …). Default: ignored. */
  onError?: (error: Error) => void;
}

/** A running durable worker. */
export interface DurableWorker {
  /** This worker's id (recorded as a step's `owner`). */
  readonly id: string;
  /** Counters since start. */
  readonly stats: Readonly<WorkerStats>;
  /** The underlying BullMQ worker. */
  readonly bullWorker: Worker;
  /** Resolves once the worker is connected and taking jobs. */
  waitUntilReady(): Promise<void>;
  /** Stops taking jobs, waits for the jobs in progress (unless `force`), and closes connections. */
  close(options?: { force?: boolean }): Promise<void>;
}

/**
 * Starts a worker for the turn jobs of `queue.name`.
 * @throws UserError (from the first job) when a run names an agent missing from `agents`.
 */
export function createDurableWorker(options: DurableWorkerOptions): DurableWorker {
  const settings = queueSettings(options);
  // No auto-pipelining: the run store batches the claims and the commits of one tick itself
  // (one script call each), and ioredis' per-batch pipeline costs more CPU than it saves here.
  const client = createRedisClient(options.connection, { enableAutoPipelining: false });
  const store = new RunStore(client, settings.runPrefix);
  // Its own connection: BullMQ defines its ~60 scripts on the client it is given, and ioredis
  // copies every script of a client onto each pipeline (an `addBulk` of the turn jobs of one
  // tick is one), so the run store's client stays free of them.
  const queue = new Queue(settings.name, {
    connection: bullConnection(options.connection),
    prefix: settings.prefix,
  });
  queue.on('error', (e) => options.onError?.(e));
  const id = `${new RunContext(undefined).runId.replace(/^run_/, 'worker_')}_${process.pid}`;
  const stats: WorkerStats = {
    stepsCommitted: 0,
    takeovers: 0,
    fencedSteps: 0,
    rateLimited: 0,
    retried: 0,
    failedRuns: 0,
    staleJobs: 0,
    modelCallsStreamed: 0,
  };
  const ctx: StepContext = {
    store,
    queue: bullStepQueue(queue, options.policies),
    agents: options.agents,
    policies: options.policies ?? {},
    runOptions: options.runOptions ?? {},
    workerId: id,
    stats,
    streamDeltas: options.streamDeltas ?? true,
    coalescing: options.coalescing,
    session: options.session,
  };
  const worker = new Worker<TurnJobData, string>(
    settings.name,
    async (job, _token, signal) =>
      processTurnJob(
        ctx,
        job.data,
        { attemptsMade: job.attemptsMade, attempts: job.opts.attempts ?? 1 },
        signal,
      ),
    {
      connection: bullConnection(options.connection),
      prefix: settings.prefix,
      concurrency: options.concurrency ?? 8,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount: options.maxStalledCount ?? 10,
      limiter: options.limiter
        ? { max: options.limiter.max, duration: options.limiter.durationMs }
        : undefined,
    },
  );
  worker.on('error', (e) => options.onError?.(e));
  let closing: Promise<void> | undefined;
  return {
    id,
    stats,
    bullWorker: worker,
    waitUntilReady: () => worker.waitUntilReady().then(() => undefined),
    close(closeOptions = {}) {
      closing ??= (async () => {
        await worker.close(closeOptions.force ?? false);
        await queue.close();
        await closeRedisClient(client);
      })();
      return closing;
    },
  };
}
