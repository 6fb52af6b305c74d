/**
 * Options shared by `createDurableRunner` and `createDurableWorker`, with their defaults.
 */
import type { Agent, NonStreamRunOptions, Session } from '@baton/kernel';
import type { DurableConnection } from './redis-clients.js';

/** Agents by the name `start()` uses. Every worker process must register the same agents. */
export type AgentRegistry = Record<string, Agent<any, any>>;

/** The BullMQ queue of turn jobs. */
export interface DurableQueueOptions {
  /** Queue name (no ":"). Default `'baton-turns'`. */
  name?: string;
  /** BullMQ key prefix. Default `'bull'`; use a hash tag such as `'{baton}'` on Redis Cluster. */
  prefix?: string;
  /** Prefix of run keys (`{<prefix>:run:<runId>}:…`). Default `'baton'`. */
  runPrefix?: string;
  /** `start()` throws `BackpressureError` when this many jobs wait (waiting + prioritized). Default: no limit. */
  maxDepth?: number;
  /** Turn jobs processed at once across all workers (BullMQ global concurrency). Default: no cap. */
  globalConcurrency?: number;
  /** At most `max` turn jobs started per `durationMs` across all workers (BullMQ global rate limit). */
  rateLimit?: { max: number; durationMs: number };
}

/** Run policies. */
export interface DurablePolicies {
  /** Undecided approvals of a paused run are rejected this long after the pause (a delayed job). Default: wait forever. */
  approvalTimeoutMs?: number;
  /** The rejection text of a timed-out approval. */
  approvalTimeoutMessage?: string;
  /** Finished (completed, failed, cancelled) runs are deleted this long after they end. Default 7 days. */
  finishedRunTtlSeconds?: number;
  /** Attempts of a turn job for retryable failures (5xx, network); 429s do not use attempts. Default 5. */
  attempts?: number;
  /** First retry delay (exponential backoff) in ms. Default 1,000. */
  backoffMs?: number;
  /** Queue-wide pause after a 429 without `retry-after`, in ms. Default 1,000. */
  rateLimitDelayMs?: number;
}

/** Options of both the runner and the workers. */
export interface DurableBaseOptions {
  /** Redis: ioredis options or an ioredis client (duplicated). */
  connection: DurableConnection;
  agents: AgentRegistry;
  queue?: DurableQueueOptions;
  policies?: DurablePolicies;
  /**
   * Conversation memory by session id (`start(…, { sessionId })`): history is read when a run
   * starts; each committed step's items are appended once, after the commit (`waitFor()`
   * reports a finished or paused run once they are stored; see `DurableRunInfo.sessionPending`).
   */
  session?: (sessionId: string) => Session;
}

/** Run options a worker passes to every step (`durability`, `signal`, `context`, `session` and `stream` are the driver's). */
export type StepRunOptions = Omit<
  NonStreamRunOptions,
  'durability' | 'signal' | 'context' | 'session' | 'stream' | 'maxTurns'
>;

export const DEFAULT_QUEUE_NAME = 'baton-turns';
export const DEFAULT_FINISHED_TTL_SECONDS = 7 * 24 * 3600;
export const DEFAULT_APPROVAL_TIMEOUT_MESSAGE =
  'No decision was made before the approval deadline; the call was rejected automatically and not executed.';

/** Resolved queue settings. */
export function queueSettings(options: DurableBaseOptions) {
  const q = options.queue ?? {};
  return {
    name: q.name ?? DEFAULT_QUEUE_NAME,
    prefix: q.prefix,
    runPrefix: q.runPrefix ?? 'baton',
  };
}

/** BullMQ options of a turn job. */
export function turnJobOptions(policies: DurablePolicies = {}, jobId: string) {
  return {
    jobId,
    attempts: policies.attempts ?? 5,
    backoff: { type: 'exponential' as const, delay: policies.backoffMs ?? 1000 },
    removeOnComplete: true,
    removeOnFail: 1000,
  };
}
