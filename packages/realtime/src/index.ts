// Agents and sessions
export { agentSessionConfig, type RealtimeSessionSettings } from './agent-config.js';
// Playback tracking
export {
  createClockPlaybackTracker,
  createManualPlaybackTracker,
  type ManualPlaybackTracker,
  type RealtimePlaybackTracker,
} from './audio-playback.js';
// OpenAI transport
export {
  createOpenAIRealtimeTransport,
  type OpenAIRealtimeTransportOptions,
} from './openai/openai-realtime-transport.js';
export { RealtimeAgent, type RealtimeAgentConfig } from './realtime-agent.js';
// Errors
export {
  RealtimeConnectionError,
  RealtimeProtocolError,
  RealtimeServerError,
} from './realtime-errors.js';
export type {
  RealtimeSessionEvent,
  RealtimeSessionEventOf,
  RealtimeSessionStatus,
} from './realtime-events.js';
export {
  messageText,
  newItemId,
  type RealtimeItemData,
  realtimeData,
} from './realtime-history.js';
export { RealtimeSession } from './realtime-session.js';
export type { RealtimeSessionOptions } from './realtime-session-options.js';
// Transport contract
export {
  audioDurationMs,
  DEFAULT_AUDIO_FORMAT,
  type RealtimeAudioFormat,
  type RealtimeClientEvent,
  type RealtimeConnectionStatus,
  type RealtimeConnectOptions,
  type RealtimeResponseStatus,
  type RealtimeSessionConfig,
  type RealtimeTransport,
  type RealtimeTransportEvent,
  type RealtimeTurnDetection,
} from './realtime-transport.js';
export type { RealtimeGuardrailSettings } from './transcript-guardrails.js';
