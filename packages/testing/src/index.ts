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
