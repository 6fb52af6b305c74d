/**
 * Redis keys and BullMQ job ids of a durable run. Every key of a run shares the hash tag
 * `{<prefix>:run:<runId>}`, so all of them live in one Redis Cluster slot and one Lua script can
 * touch them atomically.
 */
import { UserError } from '@baton/kernel';

/** The keys of one run. */
export interface RunKeys {
  /** Hash: status, epoch, step, owner, job id, agent name, traceparent, timestamps, counters. */
  meta: string;
  /** String: the `RunState` JSON (kernel format) as of the last committed step. */
  state: string;
  /** Hash: journaled model responses and tool results of the step in progress. */
  journal: string;
  /** Stream: the run's events (`XADD`), read with `XREAD` from a last event id. */
  events: string;
  /** Set: call ids the paused run waits on. */
  pending: string;
  /** Hash: decisions (call id → JSON) recorded for the current pause. */
  decisions: string;
  /** Hash: session appends of committed steps not yet written to the session. */
  outbox: string;
}

const RUN_ID = /^[A-Za-z0-9_.-]{1,128}$/;

/** Throws a `UserError` for a run id that cannot be used in keys and job ids. */
export function assertRunId(runId: string): void {
  if (typeof runId !== 'string' || !RUN_ID.test(runId)) {
    throw new UserError(
      `Invalid run id ${JSON.stringify(runId)}: use 1-128 letters, digits, "_", "." or "-" (no ":").`,
    );
  }
}

/** Keys of run `runId` under `prefix` (default `'baton'`): `{baton:run:<runId>}:meta`, … */
export function runKeys(runId: string, prefix = 'baton'): RunKeys {
  const tag = `{${prefix}:run:${runId}}`;
  return {
    meta: `${tag}:meta`,
    state: `${tag}:state`,
    journal: `${tag}:journal`,
    events: `${tag}:events`,
    pending: `${tag}:pending`,
    decisions: `${tag}:decisions`,
    outbox: `${tag}:outbox`,
  };
}

/** Job id of the step that makes model call `turn` of the run: `<runId>:turn:<turn>`. */
export function turnJobId(runId: string, turn: number): string {
  return `${runId}:turn:${turn}`;
}

/** Job id of the step that resumes a paused turn (step number `step`): `<runId>:resume:<step>`. */
export function resumeJobId(runId: string, step: number): string {
  return `${runId}:resume:${step}`;
}

/** Job id of the approval deadline of the pause that waits for step `step`. */
export function deadlineJobId(runId: string, step: number): string {
  return `${runId}:deadline:${step}`;
}
