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

export function bullStepQueue(queue: Queue, policies: DurablePolicies = {}): StepQueue {
  return {
    async enqueue(jobId: string, data: TurnJobData) {
      await queue.add(
        TURN_JOB,
        { runId: data.runId, step: data.step },
        turnJobOptions(policies, jobId),
      );
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
