export { fc, fco, msg, reasoning } from './builders.js';
export { ScriptedModel, type ScriptedModelOptions, type ScriptStep } from './scripted-model.js';
export {
  chunksToSse,
  readFixture,
  recordedFixturePath,
  sseFromEvents,
  startFixtureServer,
  type FixtureResponse,
  type FixtureServer,
  type RecordedRequest,
  type SseDialect,
} from './fixture-server.js';
export {
  describeSessionConformance,
  type SessionConformanceOptions,
  type SessionFactory,
  type SessionFixture,
} from './session-conformance.js';
export {
  describeModelConformance,
  type ExpectedFunctionCall,
  type ModelConformanceFixtures,
  type ModelFactory,
} from './model-conformance.js';
export {
  describeTracingConformance,
  type TracingConformanceContext,
  type TracingConformanceOptions,
  type TracingProcessorFactory,
} from './tracing-conformance.js';
export { RecordingTraceProcessor } from './recording-trace-processor.js';
