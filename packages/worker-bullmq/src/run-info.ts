/**
 * `DurableRunInfo`: what `runner.get(runId)` reports, read from the run's meta hash.
 */
import type { SerializedApprovalItem } from './durable-events.js';
import type { RunStatus } from './run-store.js';

/** A durable run as stored. Times are epoch milliseconds. */
export interface DurableRunInfo {
  runId: string;
  /** The registry name the run started with. */
  agentName: string;
  /** The agent that runs the next turn (or produced the final output). */
  currentAgent: string;
  status: RunStatus;
  /** Steps committed so far + 1 (the step the next job runs). */
  step: number;
  /** Model calls made so far. */
  turn: number;
  /** The epoch of the last claim (each claim by a worker increments it). */
  epoch: number;
  /** Calls the paused run waits on (`kind: 'in_doubt'` after a crash mid-call). */
  interruptions: SerializedApprovalItem[];
  finalOutput?: unknown;
  error?: { kind: string; message: string };
  /** W3C `traceparent` of the run. */
  traceparent: string;
  sessionId?: string;
  /**
   * True while session appends of committed steps are not stored in the session yet: a worker
   * sends a step's items right after the step's commit (and the job's retry re-sends them if
   * that worker died), so a `completed` or `paused` run can briefly be `sessionPending`.
   * `waitFor()` waits for it to clear.
   */
  sessionPending: boolean;
  /** The worker that claimed the current step (while running). */
  owner?: string;
  createdAt: number;
  updatedAt: number;
  finishedAt?: number;
  /** Steps taken over from a worker that stopped answering, and when the last one was. */
  takeovers: number;
  takeoverAt?: number;
  /** Writes refused because their epoch was stale (zombie workers, cancelled runs). */
  rejectedWrites: number;
  /** True when the run is `running` but its claim is older than the runner's `lock.durationMs`. */
  stale: boolean;
}

function num(v: string | undefined): number | undefined {
  return v === undefined || v === '' ? undefined : Number(v);
}

/** Converts a meta hash to `DurableRunInfo`. */
export function toRunInfo(
  runId: string,
  m: Record<string, string>,
  lockDurationMs: number,
  nowMs: number,
  outboxEntries = 0,
): DurableRunInfo {
  const status = m.status as RunStatus;
  return {
    runId,
    agentName: m.agentName,
    currentAgent: m.currentAgent ?? m.agentName,
    status,
    step: Number(m.step ?? 0),
    turn: Number(m.turn ?? 0),
    epoch: Number(m.epoch ?? 0),
    interruptions: m.interruptions ? JSON.parse(m.interruptions) : [],
    finalOutput: m.finalOutput ? JSON.parse(m.finalOutput) : undefined,
    error: m.error ? JSON.parse(m.error) : undefined,
    traceparent: m.traceparent,
    sessionId: m.sessionId || undefined,
    sessionPending: outboxEntries > 0,
    owner: status === 'running' ? m.owner : undefined,
    createdAt: Number(m.createdAt),
    updatedAt: Number(m.updatedAt),
    finishedAt: num(m.finishedAt),
    takeovers: Number(m.takeovers ?? 0),
    takeoverAt: num(m.takeoverAt),
    rejectedWrites: Number(m.rejectedWrites ?? 0),
    stale: status === 'running' && nowMs - Number(m.claimedAt ?? 0) > lockDurationMs,
  };
}
