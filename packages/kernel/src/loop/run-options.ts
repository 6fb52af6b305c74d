/** Options of `run()` (and defaults of a `Runner`). */
import type { RunHooks } from '../agent/hooks.js';
import type { InputGuardrail, OutputGuardrail } from '../guardrail/guardrail.js';
import type { HandoffInputFilter } from '../handoff/handoff.js';
import type { Item } from '../items/item-types.js';
import type {
  Model,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelSettings,
  ModelStreamEvent,
} from '../model/model.js';
import type { Session, SessionInputCallback, SessionSettings } from '../session/session.js';
import type { ToolEffect } from '../tool/tool.js';
import type { MaybePromise, RunContext } from './run-context.js';

/** Exponential backoff with jitter. Delays in milliseconds. */
export interface BackoffOptions {
  /** Delay before the first retry. Default 500 ms. */
  initialDelayMs?: number;
  /** Cap of any delay. Default 8,000 ms. */
  maxDelayMs?: number;
  /** Growth per attempt. Default 2. */
  multiplier?: number;
  /** Random share of each delay (0..1, "equal jitter"). Default 0.5. */
  jitter?: number;
}

/** Model-call retry policy. Retries are not turns and never duplicate items or usage. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  backoff?: BackoffOptions;
}

/** What `callModelInputFilter` may change before each model call. */
export interface ModelInputData {
  systemInstructions?: string;
  input: Item[];
}

/**
 * Wrap points for durable drivers (journaling). In process they pass straight through.
 * `wrapModelCall` receives the turn's key (`runId/turn`); `wrapToolCall` the call's key and
 * the tool's declared effect. A driver may return a journaled result instead of calling `fn`.
 */
export interface DurabilityHooks {
  /**
   * `fn` makes the call (with the kernel's retries); give it `onEvent` to stream it — the model's
   * stream events reach `onEvent` (and the run's own stream, when it streams) as they arrive.
   */
  wrapModelCall?(
    key: { runId: string; turn: number; agentName: string },
    request: ModelRequest,
    fn: (options?: { onEvent?: (event: ModelStreamEvent) => void }) => Promise<ModelResponse>,
  ): Promise<ModelResponse>;
  /**
   * `approved` is true when a person approved this call (an approval or an in-doubt
   * interruption). `fn` may be given an `attempt` number (passed to the tool's details).
   * Throw `ToolCallInDoubtError` to pause the run with an `'in_doubt'` interruption.
   */
  wrapToolCall?(
    key: { runId: string; callId: string; toolName: string; effect: ToolEffect; approved: boolean },
    fn: (override?: { attempt?: number }) => Promise<unknown>,
  ): Promise<unknown>;
}

/** Where a run reports what it keeps from the model (e.g. a tool's real error); `console` fits. */
export interface RunLogger {
  warn(message: string, ...details: unknown[]): void;
}

/** What `toolErrorFormatter` is given (the fields of openai-agents-js's `ToolErrorFormatterArgs`). */
export interface ToolErrorFormatterArgs<TContext = any> {
  /** A call a person rejected, or one naming a tool the agent does not have. */
  kind: 'approval_rejected' | 'tool_not_found';
  /** `'function'`, or the native kind of a call run natively (`'shell'`, `'computer'`, …). */
  toolType: 'function' | 'computer' | 'shell' | 'apply_patch' | (string & {});
  toolName: string;
  callId: string;
  /** The message the model sees without a formatter. */
  defaultMessage: string;
  runContext: RunContext<TContext>;
}

/** See `RunOptions.toolErrorFormatter`. */
export type ToolErrorFormatter<TContext = any> = (
  args: ToolErrorFormatterArgs<TContext>,
) => MaybePromise<string | undefined>;

/** What `errorHandlers.maxTurns` returns: the final output; `includeInHistory` default true. */
export interface MaxTurnsHandled {
  finalOutput: unknown;
  includeInHistory?: boolean;
}

/** An error handler: the final output to end the run with instead of the error, or `undefined` to keep the error. */
type OutputHandler<TContext, TInfo> = (
  ctx: RunContext<TContext>,
  info: TInfo,
) => MaybePromise<{ finalOutput: unknown } | undefined>;

export interface RunOptions<TContext = any> {
  /**
   * The caller's context object, of the starting agent's context type; given to tools,
   * guardrails, hooks and instructions (`ctx.context`), never to the model. On a resume, replaces
   * the context (a RunState does not serialize it).
   */
  context?: TContext;
  /**
   * Model calls allowed for the whole run (all agents): a whole number ≥ 1, or `null` (or
   * `Infinity`) for no limit. Default 10. On a resume, replaces the limit the state stored.
   */
  maxTurns?: number | null;
  /** Aborts the run: `RunAbortedError` (with a resumable `state`); running tools get the abort. */
  signal?: AbortSignal;
  /** Resolves model names (agents' `model` strings and `model` below). */
  modelProvider?: ModelProvider;
  /** Overrides every agent's model. */
  model?: Model | string;
  /** Merged over every agent's settings. */
  modelSettings?: ModelSettings;
  /** Rewrites the instructions and input right before each model call (the state is unchanged). */
  callModelInputFilter?: (
    data: ModelInputData,
    ctx: RunContext<TContext>,
  ) => ModelInputData | Promise<ModelInputData>;
  /** What to do when the model calls a tool that does not exist. Default `'raise'`. */
  toolNotFound?: 'raise' | 'return_error_to_model';
  /**
   * Words the message the model sees for a call that did not run (as in openai-agents-js): a
   * call a person rejected without a message of their own (`state.reject(item, { message })`
   * wins), or one of a tool the agent does not have (`toolNotFound: 'return_error_to_model'`).
   * Return a string to use it, `undefined` to keep `defaultMessage`; a formatter that throws or
   * returns another value gets the default too (warned on `logger`). An abort of the run ends it.
   * Default: none (`'The user rejected this tool call; it was not executed.'` and
   * `'Error: tool "x" not found. Available tools: …'`). Called when the output is made, so a
   * call rejected on a resumed `RunState` (also after `RunState.fromString`) is formatted then.
   */
  toolErrorFormatter?: ToolErrorFormatter<TContext>;
  /** Concurrent tool calls of one response. Default 8. */
  maxToolConcurrency?: number;
  /** Model-call retries (retryable errors only). Default 2 retries, exponential backoff. */
  retry?: RetryOptions;
  /**
   * Turn some run errors into a final output: each returns `{ finalOutput }`, or `undefined` to
   * keep the error (as in openai-agents-js).
   */
  errorHandlers?: {
    /**
     * Instead of `MaxTurnsExceededError`. The final output is also appended to the run's items
     * (and so to `history` and the session) as an assistant message — its text, or its JSON —
     * unless the handler returns `includeInHistory: false` (as in the OpenAI Agents SDKs). An
     * output without text (`undefined`, `''`, a function) adds no message; one that is not JSON
     * (a BigInt, a circular object) throws `UserError` unless `includeInHistory` is false.
     */
    maxTurns?: (
      ctx: RunContext<TContext>,
      info: { maxTurns: number },
    ) => MaybePromise<MaxTurnsHandled | undefined>;
    /** Instead of `ModelBehaviorError` for invalid structured output. */
    invalidFinalOutput?: OutputHandler<TContext, { rawText: string; message: string }>;
    /**
     * When the model refuses (its last message holds only a `refusal` part): instead of
     * `ModelBehaviorError` for a structured output, instead of `''` for text.
     */
    modelRefusal?: OutputHandler<TContext, { refusal: string }>;
  };
  /** Input guardrails for the run, after the starting agent's own (same rules: first turn only). */
  inputGuardrails?: InputGuardrail<TContext>[];
  /** Output guardrails for the run, after the final agent's own. */
  outputGuardrails?: OutputGuardrail<TContext>[];
  /** Input filter of every handoff that has none of its own. */
  handoffInputFilter?: HandoffInputFilter;
  /**
   * Fold the history into one summary message at each handoff without an input filter (as
   * `nestHandoffHistory()`). Default false; skipped in a server-managed conversation.
   */
  nestHandoffHistory?: boolean;
  /** Lifecycle hooks for every agent of the run (before each agent's own `hooks`). */
  hooks?: RunHooks<TContext>;
  /**
   * Prints each tool error the model was shown only as text (the real error, its stack). Default:
   * `console` when the `BATON_DEBUG` environment variable is set (and not `0`/`false`), else none.
   */
  logger?: RunLogger;
  /**
   * Conversation memory: its history is read (and checked) before the first model call and put
   * before the input; the new input and each turn's items are appended once (v2 sessions with
   * an idempotent `appendId`). A resumed `RunState` needs the session it started with.
   */
  session?: Session;
  /**
   * Resume a `RunState` with another session than the one it started with, or without one
   * (its items then go to the new session, or nowhere). Default false: a `UserError`.
   */
  allowSessionChange?: boolean;
  /** How much history to read, and what to do with an invalid stored item. */
  sessionSettings?: SessionSettings;
  /** Combines the session history and the new input into the first model input. */
  sessionInputCallback?: SessionInputCallback;
  /**
   * Tracing for this run. Default: on when processors are registered, sensitive data (model and
   * tool inputs/outputs, tool error details) included, each processor deciding what it exports
   * (OTel only with `captureContent`); `includeSensitiveData: false` keeps content off all spans.
   */
  tracing?: { disabled?: boolean; includeSensitiveData?: boolean };
  /** The trace's name. Default `'Agent workflow'` (or the resumed state's). */
  workflowName?: string;
  /** The trace id (`trace_` + 32 hex). Default: new, or the resumed state's. */
  traceId?: string;
  /** Links the traces of one conversation (e.g. a thread id). */
  groupId?: string;
  /** Extra data of the trace. */
  traceMetadata?: Record<string, unknown>;
  /** Chain to a stored OpenAI response; only new items are sent each turn. */
  previousResponseId?: string;
  /** Server-managed conversation id; only new items are sent each turn. */
  conversationId?: string;
  /** Chain every turn to the previous response automatically. */
  autoPreviousResponseId?: boolean;
  /** Prompt cache key sent to providers that support it. Default: a stable key per run. */
  promptCacheKey?: string;
  /** Wrap points for durable drivers (journaling); see {@link DurabilityHooks}. */
  durability?: DurabilityHooks;
  /** The id of a new run (default: generated). Durable drivers use it to key journals. */
  runId?: string;
}

/** Non-streaming options. */
export type NonStreamRunOptions<TContext = any> = RunOptions<TContext> & { stream?: false };
/** Streaming options. */
export type StreamRunOptions<TContext = any> = RunOptions<TContext> & { stream: true };
