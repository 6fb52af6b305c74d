/**
 * The BullMQ side of turn jobs: enqueueing with deterministic job ids (an existing id is not
 * added twice), approval deadlines as delayed jobs, and provider rate limits as a queue-wide
 * `rateLimit` whose `RateLimitError` hands the job back without using an attempt.
 */
import { type Queue, Worker } from 'bullmq';
import type { DurablePolicies } from './durable-options.js';
import { turnJobOptions } from './durable-options.js';
import type { StepQueue, TurnJobData } from './process-turn-job.js';
import { deadlineJobId } from './run-keys.js';

/** Job name of step jobs and deadline jobs. */
export const TURN_JOB = 'turn';
export const DEADLINE_JOB = 'deadline';

type TurnJob = { name: string; data: TurnJobData; opts: ReturnType<typeof turnJobOptions> };

/**
 * The turn jobs enqueued in the same tick (by the jobs whose commits came back together) go to
 * BullMQ as one `addBulk`: one round trip for all of them. Each job is still added on its own
 * (an existing job id is not added twice); a failed batch fails each caller's enqueue.
 */
function batchedAdd(queue: Queue): (job: TurnJob) => Promise<void> {
  let queued: { job: TurnJob; resolve: () => void; reject: (e: unknown) => void }[] = [];
  const flush = () => {
    const calls = queued;
    queued = [];
    const done =
      calls.length === 1
        ? queue.add(calls[0].job.name, calls[0].job.data, calls[0].job.opts)
        : queue.addBulk(calls.map((c) => c.job));
    done.then(
      () => {
        for (const c of calls) c.resolve();
      },
      (error: unknown) => {
        for (const c of calls) c.reject(error);
      },
    );
  };
  return (job) =>
    new Promise((resolve, reject) => {
      if (queued.push({ job, resolve, reject }) === 1) process.nextTick(flush);
    });
}

export function bullStepQueue(queue: Queue, policies: DurablePolicies = {}): StepQueue {
  const add = batchedAdd(queue);
  return {
    async enqueue(jobId: string, data: TurnJobData) {
      await add({
        name: TURN_JOB,
        data: { runId: data.runId, step: data.step },
        opts: turnJobOptions(policies, jobId),
      });
    },
    async enqueueDeadline(runId: string, step: number, delayMs: number) {
      const data: TurnJobData = { runId, step, kind: 'deadline' };
      await queue.add(DEADLINE_JOB, data, {
        ...turnJobOptions(policies, deadlineJobId(runId, step)),
        delay: delayMs,
      });
    },
    async rateLimited(ms: number) {
      await queue.rateLimit(ms);
      return Worker.RateLimitError();
    },
  };
}
