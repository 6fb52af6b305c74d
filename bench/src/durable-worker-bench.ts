/**
 * W1: durable runs on BullMQ (`@baton/worker-bullmq`, issue 13). Calls the package's own
 * `benchTurnJobs()` (packages/worker-bullmq/bench/turn-jobs.ts): it starts a redis-server on a
 * free 127.0.0.1 port, spawns `workers` worker processes (`node --import tsx`), starts `runs`
 * durable runs of a scripted agent that calls an idempotent tool `toolTurns` times and then
 * answers, and waits until the queue is empty. Reported: turn jobs per second from the first
 * `start()` to the last finished job; checked: every run completed and holds each tool call's
 * result exactly once.
 */
import { benchTurnJobs } from '../../packages/worker-bullmq/bench/turn-jobs.js';
import { fmt } from './format.js';
import type { ServiceResult, ServiceRow } from './services.js';

/** How big W1 is. */
export interface W1Options {
  runs: number;
  workers: number;
}

/** Issue 13's target: 4 worker processes × 1,000 runs × 3 tool turns on the 2-core machine. */
export const W1_TARGET = { runs: 1000, workers: 4, toolTurns: 3, turnJobsPerSecond: 1000 };

/** Runs W1. Throws when redis-server is missing, a worker fails to start, or the runs time out. */
export async function w1(
  o: W1Options,
  log: (m: string) => void,
): Promise<Omit<ServiceResult, 'scenario' | 'loadAverage'>> {
  const toolTurns = W1_TARGET.toolTurns;
  const r = await benchTurnJobs({ runs: o.runs, workers: o.workers, toolTurns });
  const jobsPerRun = toolTurns + 1;
  const judged = o.runs === W1_TARGET.runs && o.workers === W1_TARGET.workers;
  const rows: ServiceRow[] = [
    {
      id: 'w1.jobs',
      scenario: 'W1',
      label: `${o.workers} worker processes × ${fmt(o.runs)} runs × ${jobsPerRun} turn jobs (${toolTurns} tool turns + answer), scripted model`,
      unit: 'turn jobs/s',
      value: r.turnJobsPerSecond,
      detail: `${fmt(r.turnJobs)} turn jobs in ${(r.elapsedMs / 1000).toFixed(2)} s; CPU per job: workers ${r.workerCpuMsPerJob} ms, redis-server ${r.redisCpuMsPerJob} ms`,
      ...(judged
        ? {
            target: {
              text: `≥ ${fmt(W1_TARGET.turnJobsPerSecond)} turn jobs/s (issue 13)`,
              limit: W1_TARGET.turnJobsPerSecond,
              pass: r.turnJobsPerSecond >= W1_TARGET.turnJobsPerSecond,
            },
          }
        : {}),
    },
    {
      id: 'w1.completed',
      scenario: 'W1',
      label: 'runs completed',
      unit: 'runs',
      value: r.completedRuns,
      detail: `status \`completed\` in the run's meta hash, of ${fmt(r.runs)}`,
      check: { text: `all ${fmt(r.runs)}`, pass: r.completedRuns === r.runs },
    },
    {
      id: 'w1.once',
      scenario: 'W1',
      label: "runs holding each tool call's result exactly once",
      unit: 'runs',
      value: r.runsWithEachResultOnce,
      detail: `RunState outputs = call ids t1…t${toolTurns}, once each and in order, of ${fmt(r.runs)}`,
      check: { text: `all ${fmt(r.runs)}`, pass: r.runsWithEachResultOnce === r.runs },
    },
  ];
  log(
    `  W1: ${fmt(r.turnJobsPerSecond)} turn jobs/s; completed ${r.completedRuns}/${r.runs}; each result once ${r.runsWithEachResultOnce}/${r.runs}`,
  );
  return {
    rows,
    notes: [
      `W1: \`benchTurnJobs()\` of @baton/worker-bullmq (packages/worker-bullmq/bench/turn-jobs.ts): ${o.workers} worker processes (concurrency 32 each, no delta streaming) on a fresh local redis-server; ${fmt(o.runs)} runs started 100 at a time; turn jobs/s = ${fmt(o.runs * jobsPerRun)} jobs ÷ time from the first start() until no job is waiting or active. ${judged ? 'The ≥ 1,000 turn jobs/s target of issue 13 applies to this size.' : `The ≥ 1,000 turn jobs/s target of issue 13 is for ${W1_TARGET.workers} workers × ${fmt(W1_TARGET.runs)} runs and is not judged at this size.`} A missed target does not fail the bench; a failed check does.`,
    ],
  };
}
