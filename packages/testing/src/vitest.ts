/**
 * `@baton/testing/vitest`: the conformance suites every plugin of a kind runs — models (and their
 * streamed bodies),
 * sessions, tracing processors, capabilities, MCP servers, sandbox backends, memory stores,
 * realtime transports and speech models. Each registers
 * vitest `describe` blocks, so import this entry only from test files run by vitest (an optional
 * peer of `@baton/testing`).
 */
export {
  type CapabilityConformanceOptions,
  type CapabilityFactory,
  describeCapabilityConformance,
} from './capability-conformance.js';
export {
  describeMcpServerConformance,
  type McpConformanceCall,
  type McpServerConformanceOptions,
  type McpServerLike,
} from './mcp-server-conformance.js';
export {
  describeMemoryStoreConformance,
  type MemoryEntryLike,
  type MemoryStoreConformanceOptions,
  type MemoryStoreFactory,
  type MemoryStoreLike,
} from './memory-store-conformance.js';
export {
  describeModelConformance,
  type ExpectedFunctionCall,
  type ModelConformanceFixtures,
  type ModelFactory,
} from './model-conformance.js';
export {
  describeModelStreamConformance,
  type ModelStreamConformanceFixtures,
  type StreamModelFactory,
} from './model-stream-conformance.js';
export {
  describeRealtimeTransportConformance,
  type RealtimeClientEventLike,
  type RealtimeConformancePeer,
  type RealtimePeerFactory,
  type RealtimeScriptedResponse,
  type RealtimeTransportConformanceOptions,
  type RealtimeTransportEventLike,
  type RealtimeTransportLike,
} from './realtime-transport-conformance.js';
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
export {
  describeSessionConformance,
  type SessionConformanceOptions,
  type SessionFactory,
  type SessionFixture,
} from './session-conformance.js';
export {
  describeSTTModelConformance,
  type STTModelFactory,
} from './stt-model-conformance.js';
export {
  describeTracingConformance,
  type ExportedSpan,
  type TracingConformanceContext,
  type TracingConformanceOptions,
  type TracingProcessorFactory,
} from './tracing-conformance.js';
export { exportedName } from './tracing-conformance-exported.js';
export {
  describeTTSModelConformance,
  type TTSModelFactory,
} from './tts-model-conformance.js';
export type {
  AudioInputLike,
  SpeechBackendHooks,
  STTModelConformanceOptions,
  STTModelLike,
  TTSModelConformanceOptions,
  TTSModelLike,
} from './voice-model-conformance-support.js';
