// Runner and worker
export { createDurableRunner, type DecisionResult, type DurableRunner, type DurableRunnerOptions } from './durable-runner.js';
export { createDurableWorker, type DurableWorker, type DurableWorkerOptions } from './durable-worker.js';
export type { ImportOptions, StartOptions } from './run-creation.js';
export type { DurableRunInfo } from './run-info.js';
export type { RunStatus, StoredDecision } from './run-store.js';
export type { WorkerStats } from './process-turn-job.js';
export type { AgentRegistry, DurableBaseOptions, DurablePolicies, DurableQueueOptions, StepRunOptions } from './durable-options.js';
export type { DurableConnection } from './redis-clients.js';
export type { StreamOptions } from './event-stream.js';
export type { DeltaStreamingOptions } from './model-streaming.js';
// Events
export {
  TERMINAL_EVENT_TYPES,
  transcriptFromEvents,
  type DurableRunEvent,
  type DurableRunEventData,
  type SerializedApprovalItem,
  type SerializedRunItem,
} from './durable-events.js';
// Keys, trace context, errors
export { runKeys, type RunKeys } from './run-keys.js';
export { kernelTraceId, newTraceparent, parseTraceparent, type TraceParent } from './traceparent.js';
export { BackpressureError, DurableRunTimeoutError } from './errors.js';
