/**
 * Errors of `@baton/worker-bullmq`. They extend the kernel's `BatonError`, so
 * `BatonError.isInstance(e)` matches them across duplicated installs.
 */
import { BatonError } from '@baton/kernel';

/**
 * `start()` refused a new run because the queue already holds `depth` waiting turn jobs, at or
 * past the configured `queue.maxDepth`. Retry later (after `retryAfterMs`), add workers, or raise
 * `maxDepth`.
 */
export class BackpressureError extends BatonError {
  /** Waiting (not yet active) jobs counted when the run was refused. */
  readonly depth: number;
  readonly maxDepth: number;
  /** A hint for the caller's retry, in milliseconds. */
  readonly retryAfterMs: number;
  constructor(fields: { depth: number; maxDepth: number; retryAfterMs: number }) {
    super(
      `The durable run queue holds ${fields.depth} waiting turn jobs (maxDepth ${fields.maxDepth}); the run was not started. Retry in ~${fields.retryAfterMs} ms, add workers, or raise queue.maxDepth.`,
    );
    this.depth = fields.depth;
    this.maxDepth = fields.maxDepth;
    this.retryAfterMs = fields.retryAfterMs;
  }
}

/**
 * A write of a worker was refused because the run's epoch moved on: another worker took the
 * turn over (this one stalled past its lock) or the run was cancelled. The worker stops the turn
 * without writing anything. Internal: it never reaches a caller of the runner.
 */
export class FencedWriteError extends BatonError {
  readonly runId: string;
  readonly epoch: number;
  constructor(runId: string, epoch: number) {
    super(
      `Run ${runId}: epoch ${epoch} is no longer the run's owner; this worker's turn was taken over or cancelled, so its writes are refused.`,
    );
    this.runId = runId;
    this.epoch = epoch;
  }
}

/**
 * `runner.waitFor()` gave up: the run did not reach one of the awaited statuses in time, or it
 * did but its session appends were not stored yet (`sessionPending`).
 */
export class DurableRunTimeoutError extends BatonError {
  readonly runId: string;
  /** The run's status when waiting stopped (`undefined` when the run does not exist). */
  readonly status?: string;
  constructor(
    runId: string,
    timeoutMs: number,
    awaited: readonly string[],
    status: string | undefined,
    sessionPending = false,
  ) {
    super(
      sessionPending
        ? `Run ${runId} is ${status}, but after ${timeoutMs} ms its session appends are still not stored. Check that the workers have the \`session\` option and that the session store accepts writes (a failed append is re-sent by the job's retry), or wait longer.`
        : `Run ${runId} did not reach ${awaited.join('/')} within ${timeoutMs} ms (status: ${status ?? 'missing'}). Check that workers are running for its queue, or wait longer.`,
    );
    this.runId = runId;
    this.status = status;
  }
}
