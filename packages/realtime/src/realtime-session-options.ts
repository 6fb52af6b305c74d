/** Options of a `RealtimeSession`. */
import type { BackoffOptions, Item, OutputGuardrail, RunHooks } from '@baton/kernel';
import type { RealtimeSessionSettings } from './agent-config.js';
import type { RealtimePlaybackTracker } from './audio-playback.js';
import type { RealtimeTransport } from './realtime-transport.js';
import type { RealtimeGuardrailSettings } from './transcript-guardrails.js';

/** Options of `RealtimeSession`. */
export interface RealtimeSessionOptions<TContext = any> {
  /** The connection, e.g. `createOpenAIRealtimeTransport({ apiKey })`. */
  transport: RealtimeTransport;
  /** Given to tools, guardrails, hooks and dynamic instructions; never sent to the model. */
  context?: TContext;
  /** Model, voice, audio formats, turn detection, input transcription, vendor fields. */
  config?: RealtimeSessionSettings;
  /** Items to start the conversation with (e.g. `result.history` of a text run). */
  history?: Item[];
  /** Checked on every agent's transcript, after the agent's own `outputGuardrails`. */
  outputGuardrails?: OutputGuardrail<TContext>[];
  guardrailSettings?: RealtimeGuardrailSettings;
  /** After a tripwire, tell the model `guardrail triggered: <names>` (default true). */
  guardrailFeedback?: boolean;
  /** `onToolStart` / `onToolEnd` / `onHandoff` for every agent (before the agent's own hooks). */
  hooks?: RunHooks<TContext>;
  /** How much audio the listener heard (default: real-time playback from arrival). */
  playbackTracker?: RealtimePlaybackTracker;
  /**
   * Reopen a dropped connection up to `maxAttempts` times (default 0: a drop ends the session),
   * waiting `backoff` between attempts, then seed the new conversation with the history.
   */
  reconnect?: { maxAttempts?: number; backoff?: BackoffOptions };
  /** Default: on when trace processors are registered, sensitive data included. */
  tracing?: { disabled?: boolean; includeSensitiveData?: boolean };
  /** Trace name. Default `'Realtime session'`. */
  workflowName?: string;
  groupId?: string;
  traceMetadata?: Record<string, unknown>;
  /** Also emit every transport event as `transport_event` (default false). */
  emitTransportEvents?: boolean;
}
