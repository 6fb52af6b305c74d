/**
 * Events of a `RealtimeSession` (names follow the OpenAI Agents SDK realtime session events).
 * Plain data apart from the agent references.
 */
import type {
  BatonError,
  FunctionCallItem,
  GuardrailResult,
  Item,
  ToolApprovalRunItem,
} from '@baton/kernel';
import type { RealtimeAgent } from './realtime-agent.js';
import type { RealtimeTransportEvent } from './realtime-transport.js';

/** Session connection state; `reconnecting` while it reopens a dropped connection. */
export type RealtimeSessionStatus = 'disconnected' | 'connecting' | 'connected' | 'reconnecting';

/** Any event of a realtime session. */
export type RealtimeSessionEvent =
  /** The model started a response as `agent`. */
  | { type: 'agent_start'; agent: RealtimeAgent; responseId: string }
  /** The response ended (`status` as the vendor reported it). */
  | { type: 'agent_end'; agent: RealtimeAgent; responseId: string; status: string }
  | { type: 'handoff'; from: RealtimeAgent; to: RealtimeAgent }
  | { type: 'tool_start'; agent: RealtimeAgent; toolName: string; call: FunctionCallItem }
  /** `output` is the tool's return value (or the error text the model saw). */
  | {
      type: 'tool_end';
      agent: RealtimeAgent;
      toolName: string;
      call: FunctionCallItem;
      output: unknown;
    }
  /** Decide with `session.approve(item)` / `session.reject(item)`. */
  | { type: 'tool_approval_requested'; agent: RealtimeAgent; item: ToolApprovalRunItem }
  /** Audio to play, in the session's output format. */
  | {
      type: 'audio';
      responseId: string;
      itemId: string;
      contentIndex: number;
      audio: Uint8Array;
    }
  | { type: 'audio_end'; itemId: string; contentIndex: number }
  /** Stop playback now: the answer was interrupted after `playedMs` of its audio. */
  | { type: 'audio_interrupted'; itemId: string; contentIndex: number; playedMs: number }
  /** Assistant text as it arrives (the audio transcript, or text output). */
  | {
      type: 'transcript_delta';
      responseId: string;
      itemId: string;
      delta: string;
      modality: 'audio' | 'text';
    }
  /** An output guardrail tripped on `message` (the transcript so far); the answer was cut. */
  | {
      type: 'guardrail_tripped';
      responseId: string;
      guardrailResults: GuardrailResult[];
      message: string;
    }
  | { type: 'history_added'; item: Item }
  /** The history changed; `history` is `session.history` (a copy). */
  | { type: 'history_updated'; history: Item[] }
  | { type: 'connection_status'; status: RealtimeSessionStatus }
  | { type: 'error'; error: BatonError }
  | { type: 'input_audio_timeout' }
  /** Every transport event (only with the session option `emitTransportEvents: true`). */
  | { type: 'transport_event'; event: RealtimeTransportEvent };

/** The event of a given `type`. */
export type RealtimeSessionEventOf<T extends RealtimeSessionEvent['type']> = Extract<
  RealtimeSessionEvent,
  { type: T }
>;
