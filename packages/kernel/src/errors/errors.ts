/**
 * Baton's error classes. Every error carries a brand (`Symbol.for('baton.error')`) so
 * `BatonError.isInstance(e)` works even when two copies of the kernel are installed.
 */
import type { Item } from '../items/item-types.js';

const BRAND = Symbol.for('baton.error');

/** Base class of every error Baton throws. `kind` names the subclass across duplicated installs. */
export class BatonError extends Error {
  readonly [BRAND] = true;
  /** The subclass name, stable across bundles (e.g. `'UserError'`). */
  readonly kind: string;
  /**
   * For errors thrown by a run: the `RunState` it stopped in (typed loosely to avoid an import
   * cycle). Resumable when the cause is gone, e.g. `run(agent, error.state)` after an outage.
   */
  declare state?: unknown;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = new.target.name;
    this.name = new.target.name;
    // Large attachments stay off the enumerable surface, so logging an error stays readable.
    for (const key of ['state', 'history']) {
      Object.defineProperty(this, key, {
        value: undefined,
        writable: true,
        enumerable: false,
        configurable: true,
      });
    }
  }
  /**
   * True when `value` is an error of this class (or a subclass), even one thrown by another
   * copy of the kernel: `BatonError.isInstance(e)` matches every Baton error,
   * `ModelCallError.isInstance(e)` only model-call errors.
   */
  static isInstance<T extends BatonError>(
    this: abstract new (
      ...args: any[]
    ) => T,
    value: unknown,
  ): value is T {
    if (typeof value !== 'object' || value === null || (value as any)[BRAND] !== true) return false;
    if ((this as unknown) === BatonError || value instanceof this) return true;
    for (
      let proto = Object.getPrototypeOf(value);
      proto && proto !== Object.prototype;
      proto = Object.getPrototypeOf(proto)
    ) {
      if (proto.constructor?.name === this.name) return true;
    }
    return false;
  }
}

/** The caller used the API wrongly (bad agent config, unknown agent name, bad RunState). Fix the code. */
export class UserError extends BatonError {}

/**
 * The model did something the run cannot accept: an unknown tool, invalid structured output,
 * a response cut by `max_tokens` inside a tool call. `rawText` holds the offending text if any.
 */
export class ModelBehaviorError extends BatonError {
  readonly rawText?: string;
  readonly toolName?: string;
  constructor(
    message: string,
    fields: { rawText?: string; toolName?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: fields.cause });
    this.rawText = fields.rawText;
    this.toolName = fields.toolName;
  }
}

/**
 * A model API call failed. `statusCode`: the HTTP status, if any; `retryable`: whether the same
 * request may succeed (429, 5xx, reset before output); `retryAfterMs`: from `retry-after(-ms)`;
 * `replaySafe`: see `RetryAdvice.replaySafe`. When the run gives up, the message ends with the
 * attempt count and the retry advice.
 */
export class ModelCallError extends BatonError {
  readonly statusCode?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly code?: string;
  readonly replaySafe?: boolean;
  constructor(
    message: string,
    fields: {
      statusCode?: number;
      retryable?: boolean;
      retryAfterMs?: number;
      code?: string;
      replaySafe?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: fields.cause });
    this.statusCode = fields.statusCode;
    this.retryable = fields.retryable ?? false;
    this.retryAfterMs = fields.retryAfterMs;
    this.code = fields.code;
    this.replaySafe = fields.replaySafe;
  }
}

/** Carries the serializable state of a run that stopped, so the caller can inspect or resume it. */
export interface StateCarrier {
  /** The run's `RunState` at the moment of failure (typed loosely to avoid an import cycle). */
  readonly state?: unknown;
  /** The replayable history at the moment of failure: no dangling function call. */
  readonly history?: Item[];
}

/** The run used `maxTurns` model calls without a final output. `state` can be resumed with a larger limit. */
export class MaxTurnsExceededError extends BatonError implements StateCarrier {
  declare history?: Item[];
  constructor(readonly maxTurns: number) {
    super(
      `Max turns (${maxTurns}) exceeded without a final output. Raise \`maxTurns\`, or handle it with \`errorHandlers.maxTurns\`.`,
    );
  }
}

/**
 * The run was aborted through its `signal` (also while a session call hangs). `history` is
 * replayable (no call without output); `state` resumes it — absent only when the abort came
 * during a new run's session read, before anything ran (run again).
 */
export class RunAbortedError extends BatonError implements StateCarrier {
  declare history?: Item[];
  constructor(message = 'The run was aborted by its AbortSignal.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A tool ran past its `timeoutMs` and its `timeoutBehavior` is `'raise'`. */
export class ToolTimeoutError extends BatonError {
  constructor(
    readonly toolName: string,
    readonly callId: string,
    readonly timeoutMs: number,
  ) {
    super(
      `Tool "${toolName}" (call ${callId}) timed out after ${timeoutMs} ms. Raise the tool's timeoutMs or make it faster.`,
    );
  }
}

/**
 * Throw from a tool's `execute` for an error the model can correct (bad input): its message is
 * shown to the model by the default error policy. Other errors show a fixed text.
 */
export class ToolInputError extends BatonError {}

/** A tool failed and its error policy says to raise instead of reporting to the model. */
export class ToolCallError extends BatonError {
  readonly toolName: string;
  readonly callId: string;
  constructor(message: string, fields: { toolName: string; callId: string; cause?: unknown }) {
    super(message, { cause: fields.cause });
    this.toolName = fields.toolName;
    this.callId = fields.callId;
  }
}

/**
 * Thrown by a durable driver's `wrapToolCall` when it cannot prove whether an `unsafe` call
 * already ran (its worker died mid-call). The run pauses with an interruption of kind
 * `'in_doubt'`: approving it runs the call again, rejecting it never runs it.
 */
export class ToolCallInDoubtError extends BatonError {
  constructor(
    readonly toolName: string,
    readonly callId: string,
  ) {
    super(
      `Tool call ${callId} (${toolName}) may or may not have run before a crash; a person or a policy must decide whether to run it again.`,
    );
  }
}

/**
 * Thrown by a durable driver's wrap points when its journal cannot be written or a fenced
 * write was refused: never shown to the model as a tool output; the run (step) fails.
 */
export class DurabilityError extends BatonError {}

/** A session store operation failed (`operation` e.g. `'addItems'`, `key` the storage key). */
export class SessionError extends BatonError {
  readonly operation: string;
  readonly key?: string;
  constructor(message: string, fields: { operation: string; key?: string; cause?: unknown }) {
    super(message, { cause: fields.cause });
    this.operation = fields.operation;
    this.key = fields.key;
  }
}

/**
 * An input or output guardrail threw instead of returning its verdict (the error is `cause`).
 * `state` resumes the run: an output guardrail that failed is run again on the same final output
 * (no model call); input guardrails run only on a new run's first input (start again).
 */
export class GuardrailExecutionError extends BatonError implements StateCarrier {}

/** An input guardrail's tripwire fired: the run stopped. `result` is the guardrail's result. */
export class InputGuardrailTripwireTriggered extends BatonError implements StateCarrier {
  constructor(
    guardrailName: string,
    readonly result: unknown,
  ) {
    super(
      `Input guardrail "${guardrailName}" triggered its tripwire; the run stopped before any tool ran.`,
    );
  }
}

/**
 * An output guardrail's tripwire fired on the final output. `result` is the guardrail's result
 * (without `outputInfo` when the output came from tool results, which `state` then withholds:
 * `OUTPUT_GUARDRAIL_WITHHELD_TEXT`).
 */
export class OutputGuardrailTripwireTriggered extends BatonError implements StateCarrier {
  constructor(
    guardrailName: string,
    readonly result: unknown,
  ) {
    super(`Output guardrail "${guardrailName}" triggered its tripwire on the final output.`);
  }
}

/** A tool guardrail chose to throw (`behavior: 'throw'`): the run stops. */
export class ToolGuardrailTripwireTriggered extends BatonError {
  constructor(
    readonly guardrailName: string,
    readonly toolName: string,
    readonly callId: string,
    message?: string,
  ) {
    super(
      `Tool guardrail "${guardrailName}" stopped the run at tool "${toolName}" (call ${callId})${message ? `: ${message}` : '.'}`,
    );
  }
}

/**
 * A thrown value as text for an error message, whatever it is (never throws): an Error's
 * message, a string as it is, else its JSON or `String()` (`[object Object]` for an object
 * that converts to neither, e.g. one without a prototype).
 */
export function describeThrown(value: unknown): string {
  try {
    if (value instanceof Error) return value.message;
    if (typeof value === 'string') return value;
    const json = value !== null && typeof value === 'object' ? JSON.stringify(value) : undefined;
    return json !== undefined && json !== '{}' ? json : String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/**
 * `error` when it is an `Error`; otherwise a `UserError` saying that `where` threw a value that is
 * not an Error (a string, `null`, a plain object), with the value as `cause`.
 */
export function nonErrorThrown(error: unknown, where: string): unknown {
  if (error instanceof Error) return error;
  let shown: string;
  try {
    shown = JSON.stringify(error) ?? describeThrown(error);
  } catch {
    shown = describeThrown(error);
  }
  return new UserError(
    `${where} threw ${shown.slice(0, 200)}, which is not an Error. Throw an Error object, so the failure carries a message and a stack.`,
    { cause: error },
  );
}
