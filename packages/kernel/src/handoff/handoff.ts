/**
 * Handoffs (OpenAI Agents SDK `handoffs/`): a function tool that, when called, makes another
 * agent the current one. Default tool name `transfer_to_<snake_case agent name>`, output
 * `{"assistant": "<name>"}`.
 */
import { UserError } from '../errors/errors.js';
import type { Item } from '../items/item-types.js';
import type { AgentRef, RunItem } from '../items/run-items.js';
import type { RunContext } from '../loop/run-context.js';
import type { JsonSchema } from '../model/model.js';
import {
  type InferSchema,
  type ResolvedSchema,
  resolveSchema,
  type SchemaLike,
  type Validation,
} from '../tool/schema.js';
import { parseToolArguments } from '../tool/tool.js';

/**
 * What a handoff `inputFilter` sees and returns. `inputHistory` is the run's input (session
 * history included); `preHandoffItems` the items of earlier turns; `newItems` those of the turn
 * that handed off. The filter changes only what the next agent's model sees.
 */
export interface HandoffInputData<TContext = any> {
  inputHistory: Item[];
  preHandoffItems: RunItem[];
  newItems: RunItem[];
  runContext: RunContext<TContext>;
}

export type HandoffInputFilter = (
  data: HandoffInputData,
) => HandoffInputData | Promise<HandoffInputData>;

/** Anything with an agent's shape that a handoff can target (the `Agent` class). */
export interface HandoffTarget extends AgentRef {
  readonly handoffDescription?: string;
}

export interface Handoff<TContext = any, TAgent extends HandoffTarget = HandoffTarget> {
  readonly type: 'handoff';
  readonly toolName: string;
  readonly toolDescription: string;
  readonly parameters: JsonSchema;
  readonly strict: boolean;
  readonly agent: TAgent;
  readonly inputFilter?: HandoffInputFilter;
  parseArguments(json: string): Validation<unknown> | Promise<Validation<unknown>>;
  onHandoff?(ctx: RunContext<TContext>, input: unknown): void | Promise<void>;
  isEnabled(ctx: RunContext<TContext>, agent: AgentRef): boolean | Promise<boolean>;
}

export interface HandoffOptions<TContext = any, P extends SchemaLike = JsonSchema> {
  toolName?: string;
  toolDescription?: string;
  /** zod (or JSON Schema) for arguments the model must give; validated and passed to `onHandoff`. */
  inputType?: P;
  onHandoff?: (ctx: RunContext<TContext>, input: InferSchema<P>) => void | Promise<void>;
  inputFilter?: HandoffInputFilter;
  isEnabled?:
    | boolean
    | ((ctx: RunContext<TContext>, agent: AgentRef) => boolean | Promise<boolean>);
}

/** `"Refund Agent"` → `"refund_agent"`. */
export function toSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/** The default handoff tool name for an agent. */
export function defaultHandoffToolName(agentName: string): string {
  return `transfer_to_${toSnakeCase(agentName)}`.slice(0, 64);
}

const NO_ARGS: JsonSchema = {
  type: 'object',
  properties: {},
  required: [],
  additionalProperties: false,
};

/**
 * Declares a handoff to `agent`.
 * @throws UserError when `inputType` cannot be converted or `onHandoff` is missing while `inputType` is set.
 */
export function handoff<
  TContext = any,
  TAgent extends HandoffTarget = HandoffTarget,
  P extends SchemaLike = JsonSchema,
>(agent: TAgent, options: HandoffOptions<TContext, P> = {}): Handoff<TContext, TAgent> {
  if (!agent || typeof agent.name !== 'string')
    throw new UserError('handoff(): the target must be an Agent.');
  const toolName = options.toolName ?? defaultHandoffToolName(agent.name);
  const description =
    options.toolDescription ??
    `Handoff to the ${agent.name} agent to handle the request.${agent.handoffDescription ? ` ${agent.handoffDescription}` : ''}`;
  const schema: ResolvedSchema | undefined = options.inputType
    ? resolveSchema(options.inputType, `handoff "${toolName}" inputType`)
    : undefined;
  if (schema && !options.onHandoff)
    throw new UserError(
      `handoff "${toolName}": inputType needs an onHandoff to receive the input.`,
    );
  const enabled = options.isEnabled ?? true;
  return {
    type: 'handoff',
    toolName,
    toolDescription: description,
    parameters: schema?.jsonSchema ?? NO_ARGS,
    strict: schema?.strict ?? true,
    agent,
    inputFilter: options.inputFilter,
    parseArguments: (json) =>
      schema ? parseToolArguments(toolName, json, schema) : { ok: true, value: undefined },
    onHandoff: options.onHandoff as Handoff<TContext>['onHandoff'],
    isEnabled: typeof enabled === 'function' ? enabled : () => enabled,
  };
}

/** The handoff tool's output text. */
export function handoffOutputText(agentName: string): string {
  return JSON.stringify({ assistant: agentName });
}
