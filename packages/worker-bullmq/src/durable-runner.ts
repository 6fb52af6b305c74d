/**
 * `createDurableRunner`: starts durable runs and talks to them — approvals (compare-and-set,
 * exactly one resume job), cancel, status, resumable event streams, and `RunState` export/import
 * to and from in-process `run()`. Workers (`createDurableWorker`) do the turns.
 */
import { type AgentInput, RunState, UserError } from '@baton/kernel';
import { Queue } from 'bullmq';
import { registeredAgent } from './agent-lookup.js';
import type { DurableRunEvent } from './durable-events.js';
import {
  DEFAULT_FINISHED_TTL_SECONDS,
  type DurableBaseOptions,
  queueSettings,
} from './durable-options.js';
import { BackpressureError, DurableRunTimeoutError } from './errors.js';
import { readRunEvents, type StreamOptions } from './event-stream.js';
import { applyDecisions, ensureScheduled } from './process-turn-job.js';
import { bullConnection, closeRedisClient, createRedisClient } from './redis-clients.js';
import {
  type ImportOptions,
  type NewRun,
  newRunFromInput,
  newRunFromState,
  type StartOptions,
} from './run-creation.js';
import { type DurableRunInfo, toRunInfo } from './run-info.js';
import { deadlineJobId } from './run-keys.js';
import { type RunStatus, RunStore, type StoredDecision } from './run-store.js';
import { bullStepQueue } from './step-queue.js';

/** Options of `createDurableRunner`. */
export interface DurableRunnerOptions extends DurableBaseOptions {
  /** The workers' job lock; `get()` reports a running step older than this as `stale`. Default 30,000 ms. */
  lock?: { durationMs?: number };
}

/** What an `approve`/`reject` call did. */
export interface DecisionResult {
  /** This call recorded the decision (false: someone decided first, or the run is not paused). */
  recorded: boolean;
  /** This call completed the pause and enqueued the (single) resume job. */
  resumed: boolean;
  /** Why nothing was recorded. */
  reason?: 'already_decided' | 'not_paused';
  /** The decision already recorded for the call (with `already_decided`). */
  existing?: StoredDecision;
  /** The run's status (with `not_paused`). */
  status?: string;
}

/** Talks to durable runs. */
export interface DurableRunner {
  /**
   * Starts a run of registered agent `agentName`; resolves with its run id once its first turn
   * job is queued. @throws BackpressureError past `queue.maxDepth`; UserError for an unknown
   * agent, a bad `traceparent` or run id, or a run id in use.
   */
  start(agentName: string, input: AgentInput, options?: StartOptions): Promise<string>;
  /** Approves paused call `callId` (an approval or an `in_doubt` call: approving re-runs it). @throws UserError for an unknown run or call. */
  approve(runId: string, callId: string, options?: { by?: string }): Promise<DecisionResult>;
  /** Rejects paused call `callId`; the model sees `message` (or the kernel's default text). @throws UserError for an unknown run or call. */
  reject(
    runId: string,
    callId: string,
    options?: { message?: string; by?: string },
  ): Promise<DecisionResult>;
  /** Cancels a run that has not finished (a worker in the middle of its step is fenced out). True when this call cancelled it. */
  cancel(runId: string, options?: { by?: string }): Promise<boolean>;
  /** The run's status, or undefined when it does not exist (or expired). */
  get(runId: string): Promise<DurableRunInfo | undefined>;
  /**
   * Waits (polling every 25 ms) until the run has one of `statuses` (default: paused or
   * finished). A `completed` or `paused` run of a session counts once its items are stored in
   * the session (`sessionPending` false), so a next `start()` on that session reads them.
   * Default `timeoutMs` 30,000. @throws DurableRunTimeoutError
   */
  waitFor(
    runId: string,
    options?: { statuses?: RunStatus[]; timeoutMs?: number },
  ): Promise<DurableRunInfo>;
  /**
   * The run's events after `lastEventId`, in order, each once; ends after the final event. The
   * events are written with the step's commit, its session append just after: wait with
   * `waitFor()` before reading the session.
   */
  stream(runId: string, options?: StreamOptions): AsyncIterable<DurableRunEvent>;
  /** The run's `RunState` JSON (with pending decisions applied), resumable by `run()` in process. @throws UserError for an unknown run. */
  exportState(runId: string): Promise<string>;
  /** Creates a durable run from a `RunState` JSON; paused if it waits on undecided calls. @throws UserError for a bad state or a run id in use. */
  importState(json: string | object, options?: ImportOptions): Promise<string>;
  /** Enqueues the run's next job if it is `queued` (after a crash between a decision and its enqueue). Idempotent. */
  reschedule(runId: string): Promise<boolean>;
  /** The BullMQ queue of turn jobs (counts, metrics). */
  readonly queue: Queue;
  close(): Promise<void>;
}

/** Creates a runner. Queue-wide caps (`globalConcurrency`, `rateLimit`) are applied on first use. */
export function createDurableRunner(options: DurableRunnerOptions): DurableRunner {
  const settings = queueSettings(options);
  const policies = options.policies ?? {};
  const client = createRedisClient(options.connection);
  const store = new RunStore(client, settings.runPrefix);
  const queue = new Queue(settings.name, {
    connection: bullConnection(options.connection),
    prefix: settings.prefix,
  });
  queue.on('error', () => {});
  const steps = bullStepQueue(queue, policies);
  const ttl = policies.finishedRunTtlSeconds ?? DEFAULT_FINISHED_TTL_SECONDS;
  let ready: Promise<void> | undefined;
  const init = () =>
    (ready ??= (async () => {
      const q = options.queue ?? {};
      if (q.globalConcurrency !== undefined) await queue.setGlobalConcurrency(q.globalConcurrency);
      if (q.rateLimit) await queue.setGlobalRateLimit(q.rateLimit.max, q.rateLimit.durationMs);
    })());

  const create = async (run: NewRun) => {
    const created = await store.create(run.runId, {
      stateJson: run.stateJson,
      meta: run.meta,
      events: run.events,
      outboxJson: run.outboxJson,
      pending: run.pending,
    });
    if (!created)
      throw new UserError(
        `A durable run with id "${run.runId}" already exists; pass another runId (or cancel that run and wait for it to expire).`,
      );
    if (run.firstJobId) await steps.enqueue(run.firstJobId, { runId: run.runId, step: 1 });
    return run.runId;
  };

  const decide = async (
    runId: string,
    callId: string,
    decision: StoredDecision,
  ): Promise<DecisionResult> => {
    const r = await store.decide(runId, callId, decision, Date.now());
    switch (r.kind) {
      case 'missing':
        throw new UserError(`No durable run "${runId}" (it may have finished and expired).`);
      case 'unknown_call':
        throw new UserError(
          `Run "${runId}" does not wait on call "${callId}" (it waits on: ${r.pending.join(', ') || 'nothing'}). Use a call_id from get(runId).interruptions.`,
        );
      case 'resume':
        await steps.enqueue(r.jobId, { runId, step: r.step });
        await queue.remove(deadlineJobId(runId, r.step)).catch(() => 0);
        return { recorded: true, resumed: true };
      case 'recorded':
        return { recorded: true, resumed: false };
      case 'duplicate':
        // The first decider may have died before enqueueing: make sure the resume job exists.
        if (r.status === 'queued') await ensureScheduled({ store, queue: steps }, runId);
        return { recorded: false, resumed: false, reason: 'already_decided', existing: r.decision };
      default:
        return { recorded: false, resumed: false, reason: 'not_paused', status: r.status };
    }
  };

  const get = async (runId: string) => {
    const found = await store.metaWithOutbox(runId);
    return found
      ? toRunInfo(
          runId,
          found.meta,
          options.lock?.durationMs ?? 30_000,
          Date.now(),
          found.outboxEntries,
        )
      : undefined;
  };

  return {
    queue,
    async start(agentName, input, startOptions = {}) {
      await init();
      const maxDepth = options.queue?.maxDepth;
      if (maxDepth !== undefined) {
        const counts = await queue.getJobCounts('waiting', 'prioritized');
        const depth = (counts.waiting ?? 0) + (counts.prioritized ?? 0);
        if (depth >= maxDepth) throw new BackpressureError({ depth, maxDepth, retryAfterMs: 1000 });
      }
      return create(
        await newRunFromInput(options.agents, agentName, input, startOptions, options.session),
      );
    },
    approve: (runId, callId, o = {}) =>
      decide(runId, callId, { approved: true, by: o.by, at: Date.now() }),
    reject: (runId, callId, o = {}) =>
      decide(runId, callId, { approved: false, message: o.message, by: o.by, at: Date.now() }),
    async cancel(runId, o = {}) {
      const r = await store.cancel(runId, { type: 'cancelled', by: o.by }, Date.now(), ttl);
      if (r.jobId) await queue.remove(r.jobId).catch(() => 0);
      return r.cancelled;
    },
    get,
    async waitFor(runId, o = {}) {
      const statuses: RunStatus[] = o.statuses ?? ['paused', 'completed', 'failed', 'cancelled'];
      const timeoutMs = o.timeoutMs ?? 30_000;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const info = await get(runId);
        // A finished or paused run's last step reaches the session just after its commit.
        const sending =
          info?.sessionPending === true &&
          (info.status === 'completed' || info.status === 'paused');
        if (info && statuses.includes(info.status) && !sending) return info;
        if (Date.now() >= deadline)
          throw new DurableRunTimeoutError(runId, timeoutMs, statuses, info?.status, sending);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    stream: (runId, o) =>
      readRunEvents(() => createRedisClient(options.connection), store.keys(runId), o),
    async exportState(runId) {
      const [json, meta] = await Promise.all([store.state(runId), store.meta(runId)]);
      if (!json || !meta)
        throw new UserError(
          `No durable run "${runId}" to export (it may have finished and expired).`,
        );
      const state = await RunState.fromString(
        registeredAgent(options.agents, meta.agentName),
        json,
      );
      applyDecisions(state, await store.decisions(runId));
      return state.toString();
    },
    async importState(json, importOptions = {}) {
      await init();
      return create(await newRunFromState(options.agents, json, importOptions));
    },
    reschedule: (runId) => ensureScheduled({ store, queue: steps }, runId),
    async close() {
      await queue.close();
      await closeRedisClient(client);
    },
  };
}
