// Runner and worker

// Events
export {
  type DurableRunEvent,
  type DurableRunEventData,
  type SerializedApprovalItem,
  type SerializedRunItem,
  TERMINAL_EVENT_TYPES,
  transcriptFromEvents,
} from './durable-events.js';
export type {
  AgentRegistry,
  DurableBaseOptions,
  DurablePolicies,
  DurableQueueOptions,
  StepRunOptions,
} from './durable-options.js';
export {
  createDurableRunner,
  type DecisionResult,
  type DurableRunner,
  type DurableRunnerOptions,
} from './durable-runner.js';
export {
  createDurableWorker,
  type DurableWorker,
  type DurableWorkerOptions,
} from './durable-worker.js';
export { BackpressureError, DurableRunTimeoutError } from './errors.js';
export type { StreamOptions } from './event-stream.js';
export type { DeltaStreamingOptions } from './model-streaming.js';
export type { WorkerStats } from './process-turn-job.js';
export type { DurableConnection } from './redis-clients.js';
export type { ImportOptions, StartOptions } from './run-creation.js';
export type { DurableRunInfo } from './run-info.js';
// Keys, trace context, errors
export { type RunKeys, runKeys } from './run-keys.js';
export type { RunStatus, StoredDecision } from './run-store.js';
export {
  kernelTraceId,
  newTraceparent,
  parseTraceparent,
  type TraceParent,
} from './traceparent.js';
