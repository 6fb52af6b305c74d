/**
 * Function tools: `tool({...})` turns a typed function into something the model can call.
 * Arguments are parsed and validated before `execute` runs; invalid input becomes a
 * model-visible error output and the function never runs.
 */
import { ToolInputError, ToolTimeoutError, UserError } from '../errors/errors.js';
import type { ToolInputGuardrail, ToolOutputGuardrail } from '../guardrail/tool-guardrail.js';
import type { ContentPart, FunctionCallItem, HostedItem, Item } from '../items/item-types.js';
import type { AgentRef } from '../items/run-items.js';
import type { RunContext } from '../loop/run-context.js';
import type { FunctionToolDefinition, HostedToolDefinition, JsonSchema } from '../model/model.js';
import {
  type InferSchema,
  type ResolvedSchema,
  resolveSchema,
  type SchemaLike,
  type Validation,
} from './schema.js';

/** How a tool's side effect behaves when a durable driver has to re-run it. Default `'unsafe'`. */
export type ToolEffect = 'pure' | 'idempotent' | 'unsafe';

/** Per-call information given to `execute`. */
export interface ToolCallDetails {
  /** The model's `call_id`. */
  callId: string;
  toolCall: FunctionCallItem;
  /** The agent whose turn asked for the call. */
  agent: AgentRef;
  /** `runId:callId`: give it to downstream APIs to make retries safe. */
  idempotencyKey: string;
  /** 1 on the first execution; more only when a durable driver re-runs a pure/idempotent call. */
  attempt: number;
  /** Aborted when the run is aborted or the tool times out. */
  signal: AbortSignal;
}

/**
 * Turns a tool failure into the text the model sees, or returns `undefined` to use the default.
 * Set `errorFunction: null` on a tool to raise instead (the run fails with `ToolCallError`);
 * an error function that itself throws fails the run with that error (e.g. an infrastructure
 * error such as a sandbox that went away).
 */
export type ToolErrorFunction = (
  ctx: RunContext<any>,
  error: unknown,
  details: { toolName: string; callId: string },
) => string | undefined | Promise<string | undefined>;

/** Fixed text shown to the model for errors it cannot correct (the message is redacted). */
export const REDACTED_TOOL_ERROR = 'An error occurred while running the tool. Please try again.';

/**
 * The default error policy (invariant 7): errors the model can correct (invalid arguments,
 * `ToolInputError`, a timeout) are shown with their message; anything else gets
 * {@link REDACTED_TOOL_ERROR} so internal details never reach the model (the developer gets the
 * real error: `onToolError`, the run's `logger`, the span when sensitive data is included).
 */
export function defaultToolErrorFunction(_ctx: RunContext<any>, error: unknown): string {
  if (ToolInputError.isInstance(error) || ToolTimeoutError.isInstance(error))
    return `Error: ${error.message}`;
  return REDACTED_TOOL_ERROR;
}

/**
 * A provider's own tool type that a function tool also answers (OpenAI Responses `shell`,
 * `apply_patch`, `computer`): a model that `supports('native_tool:<callType>')` is sent
 * `definition` instead of the function tool, calls it with `callType` items (`shell_call`, …),
 * and gets `toOutput`'s items back (`shell_call_output`, …). Approvals, guardrails, hooks, spans,
 * timeouts and the durability wrap apply as to a function call; the call item is the arguments.
 */
export interface NativeToolCall<TContext = any> {
  /** The call item type, e.g. `'shell_call'`; the call item must carry a string `call_id`. */
  readonly callType: string;
  /** Provider whose tool type it is (e.g. `'openai'`), for traces and errors. */
  readonly providerId: string;
  /** The provider's tool definition, sent as is (e.g. `{ type: 'shell' }`). */
  readonly definition: Record<string, unknown>;
  /** `false`: no function form, so a model without the native tool is refused (`UserError`) before its first call. Default true. */
  readonly portable?: boolean;
  /** Approval of one call item (default: the tool's `needsApproval` with the item as arguments). */
  needsApproval?(ctx: RunContext<TContext>, call: HostedItem): boolean | Promise<boolean>;
  /** Runs one call item; what it returns goes to `toOutput`. */
  execute(call: HostedItem, ctx: RunContext<TContext>, details: ToolCallDetails): unknown;
  /** The item answering `call`: from `execute`'s result (`ok`), or from an error / rejection text. */
  toOutput(call: HostedItem, value: unknown, ok: boolean): Item;
}

/** A function tool (the object `tool()` returns; other plugins may build these directly). */
export interface FunctionTool<TContext = any, TArgs = any, TResult = unknown> {
  readonly type: 'function';
  readonly name: string;
  readonly description: string;
  /** JSON Schema sent to the model (strict-converted when `strict`). */
  readonly parameters: JsonSchema;
  readonly strict: boolean;
  readonly effect: ToolEffect;
  readonly timeoutMs?: number;
  readonly timeoutBehavior: 'error_as_result' | 'raise';
  readonly errorFunction: ToolErrorFunction | null;
  readonly inputGuardrails: ToolInputGuardrail[];
  readonly outputGuardrails: ToolOutputGuardrail[];
  /** See `FunctionToolDefinition.deferLoading` / `.namespace`. */
  readonly deferLoading?: boolean;
  readonly namespace?: { name: string; description: string };
  /** The provider tool type this tool also answers (see {@link NativeToolCall}). */
  readonly native?: NativeToolCall<TContext>;
  /** Parses the JSON argument string and validates it; never throws (never rejects). */
  parseArguments(json: string): Validation<TArgs> | Promise<Validation<TArgs>>;
  needsApproval(ctx: RunContext<TContext>, args: TArgs, callId: string): boolean | Promise<boolean>;
  isEnabled(ctx: RunContext<TContext>, agent: AgentRef): boolean | Promise<boolean>;
  execute(
    args: TArgs,
    ctx: RunContext<TContext>,
    details: ToolCallDetails,
  ): TResult | Promise<TResult>;
}

/** A decision on a hosted tool's approval request: `reason` is sent with a rejection. */
export interface HostedApprovalDecision {
  approve: boolean;
  reason?: string;
}

/** A provider-side tool (web search, code interpreter, …); see `HostedToolDefinition`. */
export interface HostedTool extends HostedToolDefinition {
  readonly isEnabled?: (ctx: RunContext<any>, agent: AgentRef) => boolean | Promise<boolean>;
  /**
   * Decides the server's approval requests for this tool without pausing the run: called for
   * each Responses `mcp_approval_request` whose `server_label` is this tool's
   * `providerData.server_label` and that nobody decided yet. Without it, such a request pauses
   * the run with a `tool_approval_item` (tool name = the request's `name`, call id = its `id`).
   */
  readonly onApproval?: (
    ctx: RunContext<any>,
    request: HostedItem,
  ) => HostedApprovalDecision | Promise<HostedApprovalDecision>;
}

/** Anything an agent's `tools` may hold. */
export type Tool<TContext = any> = FunctionTool<TContext> | HostedTool;

type Infer<P> = InferSchema<P>;

/** Options of {@link tool}. */
export interface ToolOptions<P extends SchemaLike, TContext, TResult> {
  /** Name the model calls; `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  description: string;
  /** A zod object schema (any Standard Schema with Standard JSON Schema) or a JSON Schema object; default: no arguments. */
  parameters?: P;
  /** Runs the tool. Its return value is the output: a string, content parts, or JSON-serialized. */
  execute: (
    args: Infer<P>,
    ctx: RunContext<TContext>,
    details: ToolCallDetails,
  ) => TResult | Promise<TResult>;
  /** OpenAI-strict schema. Default: strict when the schema allows it; `true` throws if it cannot. */
  strict?: boolean;
  /** `true`, or a function deciding per call. Default `false`. */
  needsApproval?:
    | boolean
    | ((ctx: RunContext<TContext>, args: Infer<P>, callId: string) => boolean | Promise<boolean>);
  /** Hides the tool for a turn when false. Default `true`. */
  isEnabled?:
    | boolean
    | ((ctx: RunContext<TContext>, agent: AgentRef) => boolean | Promise<boolean>);
  /** Wall-clock limit per call in milliseconds. Default: none. */
  timeoutMs?: number;
  /** On timeout: report to the model (default) or fail the run with `ToolTimeoutError`. */
  timeoutBehavior?: 'error_as_result' | 'raise';
  /** Error policy; default {@link defaultToolErrorFunction}; `null` raises `ToolCallError`. */
  errorFunction?: ToolErrorFunction | null;
  /** Side-effect class for durable drivers. Default `'unsafe'`. */
  effect?: ToolEffect;
  inputGuardrails?: ToolInputGuardrail[];
  outputGuardrails?: ToolOutputGuardrail[];
  /** Load only through tool search (OpenAI Responses `defer_loading`; other providers refuse it). */
  deferLoading?: boolean;
  /** List the tool in a group (OpenAI Responses `namespace`; other providers list it flat). */
  namespace?: { name: string; description: string };
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const EMPTY_OBJECT: JsonSchema = {
  type: 'object',
  properties: {},
  required: [],
  additionalProperties: false,
};

/**
 * Declares a function tool.
 * @throws UserError for an invalid name, a missing `execute`, an unknown `timeoutBehavior`, or
 *   `strict: true` with a schema that cannot be made OpenAI-strict.
 */
export function tool<P extends SchemaLike = JsonSchema, TContext = any, TResult = unknown>(
  options: ToolOptions<P, TContext, TResult>,
): FunctionTool<TContext, Infer<P>, TResult> {
  if (!options || typeof options.name !== 'string' || !TOOL_NAME.test(options.name)) {
    throw new UserError(
      `tool(): invalid name ${JSON.stringify(options?.name)}; use 1-64 letters, digits, "_" or "-".`,
    );
  }
  if (typeof options.execute !== 'function')
    throw new UserError(`tool "${options.name}": execute must be a function.`);
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) {
    throw new UserError(
      `tool "${options.name}": timeoutMs must be a positive number of milliseconds.`,
    );
  }
  const schema: ResolvedSchema<Infer<P>> = options.parameters
    ? resolveSchema(options.parameters, `tool "${options.name}" parameters`, options.strict)
    : {
        jsonSchema: EMPTY_OBJECT,
        strict: options.strict !== false,
        validate: (v) => ({ ok: true, value: v as Infer<P> }),
      };
  const timeoutBehavior = options.timeoutBehavior ?? 'error_as_result';
  if (timeoutBehavior !== 'error_as_result' && timeoutBehavior !== 'raise')
    throw new UserError(
      `tool "${options.name}": timeoutBehavior must be 'error_as_result' or 'raise' (openai-agents' 'raise_exception'), got ${JSON.stringify(timeoutBehavior)}.`,
    );
  const approval = options.needsApproval ?? false;
  const enabled = options.isEnabled ?? true;
  return {
    type: 'function',
    name: options.name,
    description: options.description ?? '',
    parameters: schema.jsonSchema,
    strict: schema.strict,
    effect: options.effect ?? 'unsafe',
    timeoutMs: options.timeoutMs,
    timeoutBehavior,
    errorFunction:
      options.errorFunction === undefined ? defaultToolErrorFunction : options.errorFunction,
    inputGuardrails: options.inputGuardrails ?? [],
    outputGuardrails: options.outputGuardrails ?? [],
    ...(options.deferLoading ? { deferLoading: true } : {}),
    ...(options.namespace ? { namespace: options.namespace } : {}),
    parseArguments: (json) => parseToolArguments(options.name, json, schema),
    needsApproval: typeof approval === 'function' ? approval : () => approval,
    isEnabled: typeof enabled === 'function' ? enabled : () => enabled,
    execute: options.execute,
  };
}

/** Parses a JSON argument string (empty means `{}`) and validates it against `schema`. */
export function parseToolArguments<T>(
  toolName: string,
  json: string,
  schema: Pick<ResolvedSchema<T>, 'validate'>,
): Validation<T> | Promise<Validation<T>> {
  let value: unknown;
  if (typeof json !== 'string') {
    return {
      ok: false,
      message: `Invalid arguments for tool "${toolName}": expected a JSON string, got ${typeof json}.`,
    };
  }
  try {
    value = json.trim() === '' ? {} : JSON.parse(json);
  } catch (e) {
    return {
      ok: false,
      message: `Invalid JSON arguments for tool "${toolName}": ${(e as Error).message}. Send a JSON object matching the tool's schema.`,
    };
  }
  const label = (result: Validation<T>): Validation<T> =>
    result.ok
      ? result
      : { ok: false, message: `Invalid arguments for tool "${toolName}":\n${result.message}` };
  const result = schema.validate(value);
  return result instanceof Promise ? result.then(label) : label(result);
}

/** The model-facing definition of a function tool. */
export function toFunctionToolDefinition(t: FunctionTool): FunctionToolDefinition {
  const d: FunctionToolDefinition = {
    type: 'function',
    name: t.name,
    description: t.description,
    parameters: t.parameters,
    strict: t.strict,
  };
  if (t.deferLoading) d.deferLoading = true;
  if (t.namespace) d.namespace = t.namespace;
  return d;
}

/**
 * Turns a tool's return value into `function_call_output.output`: strings as is, a list of
 * content parts as parts, `undefined` as `''`, anything else as JSON.
 */
export function toToolOutput(value: unknown): string | ContentPart[] {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (Array.isArray(value) && value.length > 0 && value.every(isContentPart))
    return value as ContentPart[];
  if (isContentPart(value)) return [value as ContentPart];
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch (error) {
    return `[tool output could not be serialized: ${(error as Error).message}]`;
  }
  return `[tool output could not be serialized: ${typeof value}]`;
}

function isContentPart(v: unknown): boolean {
  const t = (v as { type?: unknown })?.type;
  return t === 'input_text' || t === 'input_image' || t === 'input_file';
}
