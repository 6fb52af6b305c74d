/**
 * Trace and span data handed to `TracingProcessor`s. Plain data: processors may keep, serialize
 * or forward it. Times are epoch milliseconds. Span kinds follow the OpenAI Agents SDK.
 */
import type { Usage } from '../model/usage.js';

/** One trace per `run()` (a resumed run continues the same `traceId`). */
export interface Trace {
  traceId: string;
  /** The workflow name (run option `workflowName`, default `'Agent workflow'`). */
  name: string;
  groupId?: string;
  metadata?: Record<string, unknown>;
  startedAt: number;
  endedAt?: number;
}

export interface AgentSpanData {
  kind: 'agent';
  name: string;
  tools?: string[];
  handoffs?: string[];
  outputType?: string;
  /** The calls a run paused in this agent waits on (`arguments` only with sensitive data). */
  interruptions?: SpanInterruption[];
}
/** A tool call a paused run waits on; `path` leads through agent-as-tool calls (`call_id`s). */
export interface SpanInterruption {
  toolName: string;
  callId: string;
  kind: 'approval' | 'in_doubt';
  path: string[];
  arguments?: string;
}
export interface TurnSpanData {
  kind: 'turn';
  turn: number;
  agentName: string;
}
export interface GenerationSpanData {
  kind: 'generation';
  model?: string;
  provider?: string;
  /** From `Model.endpoint`: the GenAI `gen_ai.provider.name`, and the API's host and port. */
  providerName?: string;
  serverAddress?: string;
  serverPort?: number;
  responseModel?: string;
  responseId?: string;
  modelSettings?: Record<string, unknown>;
  usage?: Partial<Usage>;
  /** Present only when sensitive data is included. */
  input?: unknown[];
  output?: unknown[];
  systemInstructions?: string;
}
export interface FunctionSpanData {
  kind: 'function';
  name: string;
  callId: string;
  /** Present only when sensitive data is included. */
  input?: string;
  output?: string;
}
export interface HandoffSpanData {
  kind: 'handoff';
  from: string;
  to?: string;
}
export interface GuardrailSpanData {
  kind: 'guardrail';
  name: string;
  triggered: boolean;
}
export interface McpListToolsSpanData {
  kind: 'mcp_list_tools';
  server: string;
  result?: string[];
}
export interface CustomSpanData {
  kind: 'custom';
  name: string;
  data?: Record<string, unknown>;
}
/** Speech to text of one audio input (OpenAI Agents SDK `transcription` span). */
export interface TranscriptionSpanData {
  kind: 'transcription';
  model?: string;
  modelConfig?: Record<string, unknown>;
  /** Present only when sensitive data is included: base64 audio and its format (e.g. `'pcm16'`). */
  input?: { data: string; format: string };
  /** The transcript; present only when sensitive data is included. */
  output?: string;
}
/** Text to speech of one text segment (OpenAI Agents SDK `speech` span). */
export interface SpeechSpanData {
  kind: 'speech';
  model?: string;
  modelConfig?: Record<string, unknown>;
  /** The text spoken; present only when sensitive data is included. */
  input?: string;
  /** Present only when sensitive audio data is included: base64 audio and its format. */
  output?: { data: string; format: string };
  /** When the first audio byte arrived (epoch ms). */
  firstContentAt?: number;
}
/** The speech of one voice turn: parent of its `speech` spans. */
export interface SpeechGroupSpanData {
  kind: 'speech_group';
  /** The turn's whole text; present only when sensitive data is included. */
  input?: string;
}
/** A live realtime (speech-to-speech) session: parent of its tool, handoff and guardrail spans. */
export interface RealtimeSessionSpanData {
  kind: 'realtime_session';
  /** The agent the session started with. */
  agentName: string;
  provider?: string;
  model?: string;
}

export type SpanData =
  | AgentSpanData
  | TurnSpanData
  | GenerationSpanData
  | FunctionSpanData
  | HandoffSpanData
  | GuardrailSpanData
  | McpListToolsSpanData
  | CustomSpanData
  | TranscriptionSpanData
  | SpeechSpanData
  | SpeechGroupSpanData
  | RealtimeSessionSpanData;

export type SpanKind = SpanData['kind'];

/** A span: `parentId` is the enclosing span's id, or `null` for a child of the trace root. */
export interface Span<D extends SpanData = SpanData> {
  spanId: string;
  traceId: string;
  parentId: string | null;
  data: D;
  startedAt: number;
  endedAt?: number;
  /** Set when the span's operation failed. The message is already redacted where required. */
  error?: { message: string; data?: Record<string, unknown> };
}

/**
 * The `TracingProcessor` v1 contract. The kernel calls these synchronously and catches
 * anything they throw (see `setTracingErrorHandler`); processors must not block.
 */
export interface TracingProcessor {
  onTraceStart(trace: Trace): void;
  onTraceEnd(trace: Trace): void;
  onSpanStart(span: Span): void;
  onSpanEnd(span: Span): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}
