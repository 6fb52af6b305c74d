/**
 * The `RealtimeTransport` v1 contract: what a vendor's live speech-to-speech connection must do
 * for `RealtimeSession`. The session (the transport-neutral core) speaks only the plain-data
 * events below; a transport maps them to and from its wire protocol. Items use the kernel's
 * vocabulary (OpenAI Responses item shapes), so history, tools and handoffs are vendor-neutral.
 *
 * Modelled on the OpenAI Realtime API (GA) event protocol and the OpenAI Agents SDK
 * `RealtimeModel` / `RealtimeTransportLayer` interfaces.
 */
import type {
  BatonError,
  FunctionCallItem,
  FunctionToolDefinition,
  Item,
  Usage,
} from '@baton/kernel';

/** Connection state of a transport or session. */
export type RealtimeConnectionStatus = 'disconnected' | 'connecting' | 'connected';

/**
 * Audio encoding on the wire. `pcm16`: 16-bit signed little-endian mono PCM at `sampleRate` Hz
 * (OpenAI: 24,000). `g711_ulaw` / `g711_alaw`: 8 kHz, one byte per sample.
 */
export type RealtimeAudioFormat =
  | { type: 'pcm16'; sampleRate: number }
  | { type: 'g711_ulaw' }
  | { type: 'g711_alaw' };

/** Server-side turn detection (voice activity detection). `null` in the config turns it off. */
export type RealtimeTurnDetection =
  | {
      type: 'server_vad';
      /** Activation threshold 0..1. */
      threshold?: number;
      prefixPaddingMs?: number;
      silenceDurationMs?: number;
      idleTimeoutMs?: number;
      /** Start a response when the user stops speaking. Server default `true`. */
      createResponse?: boolean;
      /** Cancel the ongoing response when the user starts speaking. Server default `true`. */
      interruptResponse?: boolean;
    }
  | {
      type: 'semantic_vad';
      eagerness?: 'low' | 'medium' | 'high' | 'auto';
      createResponse?: boolean;
      interruptResponse?: boolean;
    };

/** The session configuration a transport applies on connect and on every `session.update`. */
export interface RealtimeSessionConfig {
  /** The current agent's instructions. */
  instructions: string;
  /** The current agent's function tools and handoffs, as function tools. */
  tools: FunctionToolDefinition[];
  toolChoice?: 'auto' | 'none' | 'required' | { name: string };
  /** The vendor's model name (e.g. `'gpt-realtime'`). */
  model?: string;
  voice?: string;
  /** Default `['audio']` (audio plus its transcript). */
  outputModalities?: ('audio' | 'text')[];
  /** Default `{ type: 'pcm16', sampleRate: 24000 }`. */
  inputAudioFormat?: RealtimeAudioFormat;
  /** Default `{ type: 'pcm16', sampleRate: 24000 }`. */
  outputAudioFormat?: RealtimeAudioFormat;
  /** Transcription of the user's audio (needed for a text history of spoken turns). */
  inputTranscription?: { model: string; language?: string; prompt?: string } | null;
  /** Default: the vendor's (OpenAI: server VAD). `null`: the client commits turns itself. */
  turnDetection?: RealtimeTurnDetection | null;
  /** Vendor fields merged into the wire session object as they are. */
  providerData?: Record<string, unknown>;
}

/** What the session asks the transport to send. */
export type RealtimeClientEvent =
  | { type: 'session.update'; config: RealtimeSessionConfig }
  /** Adds an item to the conversation (a user message, a tool output, history being seeded). */
  | { type: 'item.create'; item: Item; previousItemId?: string }
  | { type: 'item.delete'; itemId: string }
  /** Cuts an assistant audio item at `audioEndMs` (the audio the user actually heard). */
  | { type: 'item.truncate'; itemId: string; contentIndex: number; audioEndMs: number }
  /** Raw audio in the input format. */
  | { type: 'audio.append'; audio: Uint8Array }
  | { type: 'audio.commit' }
  | { type: 'audio.clear' }
  | { type: 'response.create' }
  | { type: 'response.cancel'; responseId?: string }
  /** A vendor event sent as it is (escape hatch). */
  | { type: 'raw'; event: Record<string, unknown> };

/** Why a response ended (`response.done`). */
export type RealtimeResponseStatus = 'completed' | 'cancelled' | 'incomplete' | 'failed';

/** What the transport reports. Every event is plain data. */
export type RealtimeTransportEvent =
  | { type: 'connection_status'; status: RealtimeConnectionStatus }
  /**
   * The connection ended without `close()`. `error` says why (a `RealtimeConnectionError`
   * with the close code and reason).
   */
  | { type: 'connection_lost'; error: BatonError }
  | { type: 'response.created'; responseId: string }
  /** `output` holds the response's items (function calls with their final arguments). */
  | {
      type: 'response.done';
      responseId: string;
      status: RealtimeResponseStatus;
      output: Item[];
      usage?: Partial<Usage>;
    }
  /** An item was added to the conversation or changed (messages carry text/transcripts). */
  | { type: 'item.upserted'; item: Item & { id: string }; previousItemId?: string | null }
  | { type: 'item.deleted'; itemId: string }
  | { type: 'item.truncated'; itemId: string; contentIndex: number; audioEndMs: number }
  | {
      type: 'audio.delta';
      responseId: string;
      itemId: string;
      contentIndex: number;
      audio: Uint8Array;
    }
  | { type: 'audio.done'; responseId: string; itemId: string; contentIndex: number }
  /** Text of an assistant item as it is generated: the audio transcript or text output. */
  | {
      type: 'transcript.delta';
      responseId: string;
      itemId: string;
      delta: string;
      modality: 'audio' | 'text';
    }
  | {
      type: 'transcript.done';
      responseId: string;
      itemId: string;
      transcript: string;
      modality: 'audio' | 'text';
    }
  /** The model finished a function call's arguments (it runs when its response completes). */
  | { type: 'function_call.done'; responseId: string; itemId: string; call: FunctionCallItem }
  | { type: 'input_transcription.completed'; itemId: string; transcript: string }
  /** Server VAD heard the user start speaking (barge-in). */
  | { type: 'input_audio.speech_started'; itemId?: string; audioStartMs: number }
  | { type: 'input_audio.speech_stopped'; itemId?: string; audioEndMs: number }
  | { type: 'input_audio.timeout' }
  /** The vendor reported an error, or sent something the transport could not read. */
  | { type: 'error'; error: BatonError }
  /** Every wire event as received, for taps and debugging. */
  | { type: 'raw'; event: unknown };

/** Options of `RealtimeTransport.connect`. */
export interface RealtimeConnectOptions {
  /** Applied as the first `session.update` once the vendor's session exists. */
  config: RealtimeSessionConfig;
  signal?: AbortSignal;
}

/**
 * The `RealtimeTransport` v1 contract. One instance holds at most one live connection; after
 * `connection_lost` or `close()` it may `connect()` again (a reconnect).
 */
export interface RealtimeTransport {
  readonly specificationVersion: 'v1';
  /** Vendor id, e.g. `'openai'`. */
  readonly provider: string;
  readonly status: RealtimeConnectionStatus;
  /**
   * Opens the connection and applies `config`; resolves once the vendor session is ready.
   * @throws RealtimeConnectionError when the connection cannot be opened.
   */
  connect(options: RealtimeConnectOptions): Promise<void>;
  /**
   * Sends one event (in order, never reordered).
   * @throws RealtimeConnectionError when not connected.
   */
  send(event: RealtimeClientEvent): void;
  /** Receives every event until unsubscribed (the returned function). */
  subscribe(listener: (event: RealtimeTransportEvent) => void): () => void;
  /**
   * Closes the connection (no `connection_lost`); idempotent. A `connect()` still in progress
   * rejects with `RealtimeConnectionError` at once.
   */
  close(): Promise<void>;
}

/** Default audio format of both directions: PCM16 at 24 kHz. */
export const DEFAULT_AUDIO_FORMAT: RealtimeAudioFormat = { type: 'pcm16', sampleRate: 24_000 };

/** Duration in milliseconds of `byteLength` bytes of audio in `format`. */
export function audioDurationMs(byteLength: number, format: RealtimeAudioFormat): number {
  if (format.type === 'pcm16') return (byteLength / 2 / format.sampleRate) * 1000;
  return byteLength / 8;
}
