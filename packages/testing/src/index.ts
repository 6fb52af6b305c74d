/**
 * `@baton/testing`: what tests, demos and offline trials need, importable with no test runner:
 * `ScriptedModel`, item builders, `RecordingTraceProcessor`, the wire-fixture server and the
 * real-Redis helper. The conformance suites (which need vitest) are in `@baton/testing/vitest`.
 */
export { fc, fco, msg, reasoning } from './builders.js';
export { type FaultProxy, startFaultProxy } from './fault-proxy.js';
export {
  chunksToSse,
  type FixtureResponse,
  type FixtureServer,
  type FixtureServerOptions,
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
  type FakeConversation,
  type OpenAIConversationsFake,
  openAIConversationsFake,
} from './openai-conversations-fake.js';
export { RecordingTraceProcessor } from './recording-trace-processor.js';
export { ScriptedModel, type ScriptedModelOptions, type ScriptStep } from './scripted-model.js';
export { conformanceItems, unicodeItems } from './session-conformance-items.js';
export {
  clusterReady,
  processAlive,
  startTestRedis,
  type TestRedis,
  waitFor,
} from './test-redis.js';
