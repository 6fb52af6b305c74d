export { fc, fco, msg, reasoning } from './builders.js';
export { type FaultProxy, startFaultProxy } from './fault-proxy.js';
export {
  chunksToSse,
  type FixtureResponse,
  type FixtureServer,
  type RecordedRequest,
  readFixture,
  recordedFixturePath,
  recordedFixturesDir,
  type SseDialect,
  sseFromEvents,
  startFixtureServer,
} from './fixture-server.js';
export {
  itemSchemaViolations,
  publishedSchemas,
  publishedValidators,
} from './item-schema-check.js';
export {
  describeModelConformance,
  type ExpectedFunctionCall,
  type ModelConformanceFixtures,
  type ModelFactory,
} from './model-conformance.js';
export { RecordingTraceProcessor } from './recording-trace-processor.js';
export {
  describeSandboxConformance,
  type SandboxClientFactory,
  type SandboxClientLike,
  type SandboxConformanceOptions,
  type SandboxExecResultLike,
  type SandboxOutsideDir,
  type SandboxRaceOptions,
  type SandboxRaceReport,
  type SandboxSessionLike,
} from './sandbox-conformance.js';
export { ScriptedModel, type ScriptedModelOptions, type ScriptStep } from './scripted-model.js';
export {
  describeSessionConformance,
  type SessionConformanceOptions,
  type SessionFactory,
  type SessionFixture,
} from './session-conformance.js';
export { conformanceItems, unicodeItems } from './session-conformance-items.js';
export { processAlive, startTestRedis, type TestRedis, waitFor } from './test-redis.js';
export {
  describeTracingConformance,
  type TracingConformanceContext,
  type TracingConformanceOptions,
  type TracingProcessorFactory,
} from './tracing-conformance.js';
