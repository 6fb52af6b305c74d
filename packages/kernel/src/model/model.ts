/**
 * The `Model` v1 contract: what a provider plugin implements. A change to these shapes is a new
 * version beside this one, never an edit in place.
 */
import type { Item } from '../items/item-types.js';
import type { Usage } from './usage.js';

/** A JSON Schema object (draft 2020-12 subset as accepted by the model APIs). */
export type JsonSchema = { [key: string]: unknown };

/** A function tool as the model sees it. Handoffs arrive as function tools too. */
export interface FunctionToolDefinition {
  type: 'function';
  name: string;
  description: string;
  /** JSON Schema of the arguments object; OpenAI-strict when `strict` is true. */
  parameters: JsonSchema;
  strict: boolean;
  /** Loaded only when a tool search finds it (OpenAI Responses `defer_loading`); feature `'tool_search'`. */
  deferLoading?: boolean;
  /** A group the tool is listed under (OpenAI Responses `namespace` tools); others list it flat. */
  namespace?: { name: string; description: string };
}

/**
 * A tool that runs on the provider's side (web search, file search, code interpreter, hosted
 * MCP, …). `providerData` is the provider's own tool definition, sent as is. A provider that
 * cannot run it must throw `UserError` naming the tool when it builds the request.
 */
export interface HostedToolDefinition {
  type: 'hosted_tool';
  /** Tool kind, e.g. `'web_search'`. */
  name: string;
  /** Which provider understands it, e.g. `'openai'`. */
  providerId: string;
  providerData: Record<string, unknown>;
}

export type ToolDefinition = FunctionToolDefinition | HostedToolDefinition;

/** The final output's JSON Schema, requested as native structured output when the API has it. */
export interface OutputSchemaDefinition {
  name: string;
  schema: JsonSchema;
  strict: boolean;
}

/**
 * Model settings. Units are in the names. Unknown provider options go in `providerOptions[id]`.
 * `toolChoice` is `'auto' | 'required' | 'none'` or the name of one tool to force.
 */
export interface ModelSettings {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  toolChoice?: 'auto' | 'required' | 'none' | (string & {});
  parallelToolCalls?: boolean;
  reasoning?: {
    effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
    summary?: 'auto' | 'concise' | 'detailed';
  };
  /** Anthropic-style thinking budget; providers that have no such knob ignore it. */
  thinking?: { budgetTokens: number };
  store?: boolean;
  include?: string[];
  truncation?: 'auto' | 'disabled';
  /**
   * Wall-clock limit of one call attempt in ms (kernel-enforced): past it, a retryable
   * `ModelCallError` (code `'timeout'`) for the run's retry policy. Default: none.
   */
  timeoutMs?: number;
  /**
   * Longest wait for the next event of a streamed call in ms (kernel-enforced): past it, a
   * `ModelCallError` (code `'stream_idle_timeout'`), retried only while nothing streamed yet.
   */
  streamIdleTimeoutMs?: number;
  /**
   * Server-side compaction once the input passes `compactThreshold` tokens (OpenAI Responses
   * `context_management`); other providers ignore it.
   */
  contextManagement?: { compactThreshold?: number };
  /** Provider-specific request fields, keyed by provider id: `{ openai: { … } }`. */
  providerOptions?: Record<string, Record<string, unknown>>;
}

/** Tracing flags the model may use to decide what to log. */
export interface ModelTracing {
  enabled: boolean;
  includeSensitiveData: boolean;
}

/**
 * A prompt stored on the provider's side (OpenAI Responses prompt objects): its id, an optional
 * version, and values for its variables (strings or input content parts). Feature `'prompt'`.
 */
export interface Prompt {
  id: string;
  version?: string;
  variables?: Record<string, unknown>;
}

/** One model call. */
export interface ModelRequest {
  systemInstructions?: string;
  /**
   * The transcript to send, oldest first. Owned by the run and passed by reference (the loop
   * appends to it after the call instead of copying history every turn): read it during the
   * call, copy it (`input.slice()`) if you keep it, never mutate it.
   */
  input: Item[];
  tools: ToolDefinition[];
  outputSchema?: OutputSchemaDefinition;
  modelSettings: ModelSettings;
  signal?: AbortSignal;
  /** Chain to a stored response (OpenAI Responses); only new items are in `input`. */
  previousResponseId?: string;
  /** Server-managed conversation id (OpenAI Conversations); only new items are in `input`. */
  conversationId?: string;
  /** Stable per-run prompt cache key. */
  promptCacheKey?: string;
  /** The agent's prompt object, when it has one. */
  prompt?: Prompt;
  tracing: ModelTracing;
}

/** A model's full answer to one call. */
export interface ModelResponse {
  output: Item[];
  usage: Partial<Usage>;
  responseId?: string;
  /** The model name the server reports, when it does. */
  modelName?: string;
}

/**
 * Stream events of `getStreamedResponse`. The stream must end with `response_done` carrying
 * the full response. Deltas are for display; the items in `response_done` are authoritative.
 */
export type ModelStreamEvent =
  | { type: 'text_delta'; delta: string; itemId?: string; outputIndex?: number }
  | {
      type: 'function_call_arguments_delta';
      delta: string;
      callId?: string;
      itemId?: string;
      outputIndex?: number;
    }
  | { type: 'reasoning_delta'; delta: string; itemId?: string; outputIndex?: number }
  | { type: 'output_item_added'; item: Item; outputIndex?: number }
  | { type: 'output_item_done'; item: Item; outputIndex?: number }
  | { type: 'response_started'; responseId?: string }
  | { type: 'response_done'; response: ModelResponse }
  /** Provider-specific event passed through for the curious (never needed by the loop). */
  | { type: 'raw'; providerId: string; event: unknown };

/** Whether and when to retry a failed call. `delayMs` overrides the backoff when given. */
export interface RetryAdvice {
  retry: boolean;
  delayMs?: number;
  /**
   * Whether resending cannot repeat work the server did: `true` when it surely did not take the
   * request (connection refused, 429/5xx before any response id), `false` when it may have (a
   * timeout, a connection cut after sending). A request chained to server state
   * (`previousResponseId` / `conversationId`) is retried only when this is not `false`. Default
   * `undefined`: safe unless the stream already carried a response id.
   */
  replaySafe?: boolean;
}

/** Where a model is served (GenAI `gen_ai.provider.name`, `server.address`, `server.port`). */
export interface ModelEndpoint {
  providerName?: string;
  serverAddress?: string;
  serverPort?: number;
}

/** The Model contract, version 1. */
export interface Model {
  readonly specificationVersion: 'v1';
  /** Provider id, e.g. `'openai'`, used for `provider_data` keys and traces. */
  readonly provider: string;
  /** The model name sent to the API. */
  readonly modelId: string;
  /** Optional: where the model is served; copied onto each generation span's data. */
  readonly endpoint?: ModelEndpoint;
  getResponse(request: ModelRequest): Promise<ModelResponse>;
  getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /**
   * Optional: whether this model serves a feature an agent uses — `'prompt'`, `'tool_search'`,
   * `'native_tool:<call item type>'` (e.g. `'native_tool:computer_call'`) or
   * `'hosted_tools:<provider id>'`. The run checks the agent's features before the first model
   * call and refuses one that returns `false` with a `UserError`. Absent: nothing is checked.
   */
  supports?(feature: string): boolean;
  /** Classifies an error for the retry policy; `undefined` means "use the default rule". */
  getRetryAdvice?(error: unknown, attempt: number): RetryAdvice | undefined;
}

/** Maps a model name to a `Model`. */
export interface ModelProvider {
  getModel(modelName?: string): Model | Promise<Model>;
}
