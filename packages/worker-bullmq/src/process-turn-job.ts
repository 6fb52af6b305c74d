/**
 * The processor of one turn job: claim the step (new epoch), load the `RunState`, apply the
 * decisions of a pause, run exactly one step through `runStep` with the journaling hooks, then
 * commit state + events + journal pruning in one fenced Lua script and enqueue the next job —
 * or stop (final output, interruption). Engine-specific parts (BullMQ) are behind `StepQueue`.
 */
import { BatonError, ModelCallError, RunState, runStep } from '@baton/kernel';
import { registeredAgent } from './agent-lookup.js';
import type { AgentRegistry, DurablePolicies, StepRunOptions } from './durable-options.js';
import {
  DEFAULT_APPROVAL_TIMEOUT_MESSAGE,
  DEFAULT_FINISHED_TTL_SECONDS,
} from './durable-options.js';
import { FencedWriteError } from './errors.js';
import { createJournalHooks, journalForCommit, type StepJournal } from './journal-hooks.js';
import { createDeltaSink, type DeltaStreamingOptions } from './model-streaming.js';
import type { RunStore, StoredDecision } from './run-store.js';
import { flushSessionOutbox } from './session-outbox.js';
import { buildStepCommit, type StepCommit } from './step-commit.js';

/** What a step needs from the job engine. */
export interface StepQueue {
  /** Enqueues the step job `jobId` (idempotent: an existing job id is not added twice). */
  enqueue(jobId: string, data: TurnJobData): Promise<void>;
  /** Enqueues the approval deadline of a pause. */
  enqueueDeadline(runId: string, step: number, delayMs: number): Promise<void>;
  /** Pauses the whole queue for `ms` (provider rate limit) and returns the error that hands the job back without using an attempt. */
  rateLimited(ms: number): Promise<Error>;
}

/** Data of a turn job. */
export interface TurnJobData {
  runId: string;
  step: number;
  kind?: 'step' | 'deadline';
}

/** Counters of a worker (for tests, benchmarks and metrics). */
export interface WorkerStats {
  stepsCommitted: number;
  takeovers: number;
  fencedSteps: number;
  rateLimited: number;
  retried: number;
  failedRuns: number;
  staleJobs: number;
  modelCallsStreamed: number;
}

export interface StepContext {
  store: RunStore;
  queue: StepQueue;
  agents: AgentRegistry;
  policies: DurablePolicies;
  runOptions: StepRunOptions;
  workerId: string;
  stats: WorkerStats;
  streamDeltas: boolean;
  coalescing?: DeltaStreamingOptions;
  session?: (sessionId: string) => import('@baton/kernel').Session;
}

/** Applies stored decisions to the interruptions they answer. */
export function applyDecisions(
  state: RunState<any, any>,
  decisions: Record<string, StoredDecision>,
): void {
  for (const item of state.getInterruptions()) {
    const d = decisions[item.call_id];
    if (!d) continue;
    if (d.approved) state.approve(item);
    else state.reject(item, { message: d.message });
  }
}

function isRateLimit(error: unknown): error is ModelCallError {
  return ModelCallError.isInstance(error) && (error as ModelCallError).statusCode === 429;
}

function isRetryable(error: unknown): boolean {
  if (ModelCallError.isInstance(error)) return (error as ModelCallError).retryable;
  return !BatonError.isInstance(error);
}

/** Processes one turn job; returns what happened (BullMQ stores it as the job's result). */
export async function processTurnJob(
  ctx: StepContext,
  data: TurnJobData,
  job: { attemptsMade: number; attempts: number },
  signal?: AbortSignal,
): Promise<string> {
  const { store, stats } = ctx;
  const { runId, step } = data;
  if (data.kind === 'deadline') return processDeadline(ctx, data);
  const claim = await store.claim(runId, step, ctx.workerId, Date.now());
  if (claim.kind === 'missing') return 'missing';
  if (claim.kind !== 'ok') {
    stats.staleJobs++;
    // A previous attempt committed this step but may have died before its follow-ups.
    if (claim.step > step) await finishCommittedStep(ctx, runId);
    return claim.kind;
  }
  if (claim.takeover) stats.takeovers++;
  const { epoch, meta } = claim;
  const sessionId = meta.sessionId || undefined;
  if (sessionId && ctx.session) await flushSessionOutbox(store, runId, ctx.session(sessionId));
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const loaded = claim.journal.size > 0 ? new Set(claim.journal.keys()) : undefined;
  const journal: StepJournal = {
    store,
    runId,
    epoch,
    signal: controller.signal,
    entries: claim.journal,
    pending: [],
    abort: (e) => controller.abort(e),
  };
  let committed: StepCommit;
  try {
    const agent = registeredAgent(ctx.agents, meta.agentName);
    const state = await RunState.fromString(agent, claim.stateJson);
    applyDecisions(state, claim.decisions);
    if (ctx.streamDeltas) {
      journal.streamDeltas = (key) => {
        stats.modelCallsStreamed++;
        return createDeltaSink(journal, key, ctx.coalescing);
      };
    }
    const itemsBefore = state.generatedItems.length;
    const agentBefore = state.currentAgent.name;
    const { nextStep } = await runStep(agent, state, {
      ...ctx.runOptions,
      context: meta.context ? JSON.parse(meta.context) : undefined,
      signal: controller.signal,
      retry: { maxRetries: 0 },
      durability: createJournalHooks(journal),
    });
    const unsentJournal = await journalForCommit(journal);
    const notStored = new Set<string>();
    for (let i = 0; i < unsentJournal.length; i += 2) {
      const f = unsentJournal[i];
      if (!loaded?.has(f) && !journal.sent?.has(f)) notStored.add(f);
    }
    const commit = buildStepCommit({
      runId,
      step,
      epoch,
      state,
      end: nextStep,
      itemsBefore,
      agentBefore,
      journal: journal.entries,
      unsentJournal,
      notStored,
      withSession: Boolean(sessionId && ctx.session),
      ttlSeconds: ctx.policies.finishedRunTtlSeconds ?? DEFAULT_FINISHED_TTL_SECONDS,
      nowMs: Date.now(),
    });
    if (!(await store.commit(runId, epoch, commit.input))) {
      stats.fencedSteps++;
      return 'fenced';
    }
    stats.stepsCommitted++;
    committed = commit;
  } catch (error) {
    // An aborted step failed for the abort's reason (a refused or failed journal write, a cancel).
    const cause =
      controller.signal.aborted && controller.signal.reason !== undefined
        ? controller.signal.reason
        : error;
    if (FencedWriteError.isInstance(cause) || FencedWriteError.isInstance(error)) {
      stats.fencedSteps++;
      return 'fenced';
    }
    return handleStepError(ctx, runId, epoch, cause, job);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  // After the commit, failures only retry the job: its retry finds the step committed and
  // enqueues the next job (see the stale path above); the next claim sends the session outbox.
  if (committed.status === 'queued')
    await ctx.queue.enqueue(committed.jobId, { runId, step: committed.nextStep });
  if (committed.status === 'paused' && ctx.policies.approvalTimeoutMs !== undefined)
    await ctx.queue.enqueueDeadline(runId, committed.nextStep, ctx.policies.approvalTimeoutMs);
  if (sessionId && ctx.session) await flushSessionOutbox(store, runId, ctx.session(sessionId));
  return committed.status;
}

async function handleStepError(
  ctx: StepContext,
  runId: string,
  epoch: number,
  error: unknown,
  job: { attemptsMade: number; attempts: number },
): Promise<string> {
  const { store, stats } = ctx;
  if (isRateLimit(error)) {
    stats.rateLimited++;
    await store.release(runId, epoch, Date.now());
    throw await ctx.queue.rateLimited(error.retryAfterMs ?? ctx.policies.rateLimitDelayMs ?? 1000);
  }
  if (isRetryable(error) && job.attemptsMade + 1 < job.attempts) {
    stats.retried++;
    await store.release(runId, epoch, Date.now());
    throw error instanceof Error ? error : new Error(String(error));
  }
  const e = error as { kind?: string; name?: string; message?: string };
  const failure = { kind: e?.kind ?? e?.name ?? 'Error', message: e?.message ?? String(error) };
  const now = Date.now();
  const ok = await store.commit(runId, epoch, {
    stateJson: (await store.state(runId)) ?? '',
    meta: {
      status: 'failed',
      error: JSON.stringify(failure),
      updatedAt: String(now),
      finishedAt: String(now),
      jobId: '',
    },
    events: [{ type: 'failed', error: failure }],
    prune: [],
    pending: [],
    ttlSeconds: ctx.policies.finishedRunTtlSeconds ?? DEFAULT_FINISHED_TTL_SECONDS,
  });
  if (!ok) {
    stats.fencedSteps++;
    return 'fenced';
  }
  stats.failedRuns++;
  return 'failed';
}

/** An approval deadline: rejects every undecided call of the pause it belongs to. */
async function processDeadline(ctx: StepContext, data: TurnJobData): Promise<string> {
  const decision: StoredDecision = {
    approved: false,
    message: ctx.policies.approvalTimeoutMessage ?? DEFAULT_APPROVAL_TIMEOUT_MESSAGE,
    by: 'policy:approvalTimeout',
    at: Date.now(),
  };
  const result = await ctx.store.decide(data.runId, '', decision, Date.now(), data.step);
  if (result.kind !== 'resume') return `deadline:${result.kind}`;
  await ctx.queue.enqueue(result.jobId, { runId: data.runId, step: result.step });
  return 'deadline:rejected';
}

/** The follow-ups of a committed step (all idempotent): next job, approval deadline, session outbox. */
async function finishCommittedStep(ctx: StepContext, runId: string): Promise<void> {
  const meta = await ctx.store.meta(runId);
  if (!meta) return;
  if (meta.status === 'queued' && meta.jobId)
    await ctx.queue.enqueue(meta.jobId, { runId, step: Number(meta.step) });
  if (meta.status === 'paused' && ctx.policies.approvalTimeoutMs !== undefined)
    await ctx.queue.enqueueDeadline(runId, Number(meta.step), ctx.policies.approvalTimeoutMs);
  if (meta.sessionId && ctx.session)
    await flushSessionOutbox(ctx.store, runId, ctx.session(meta.sessionId));
}

/** Enqueues the run's next job when it is queued (idempotent; stale duplicates are fenced by step). */
export async function ensureScheduled(
  ctx: { store: RunStore; queue: Pick<StepQueue, 'enqueue'> },
  runId: string,
): Promise<boolean> {
  const meta = await ctx.store.meta(runId);
  if (meta?.status !== 'queued' || !meta.jobId) return false;
  await ctx.queue.enqueue(meta.jobId, { runId, step: Number(meta.step) });
  return true;
}
