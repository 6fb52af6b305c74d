/**
 * `Agent`: a declaration — instructions, tools, handoffs, guardrails, an output type and a
 * model. Agents hold no run state; one agent can serve many concurrent runs.
 */
import type { Capability } from '../capability/capability.js';
import { UserError } from '../errors/errors.js';
import type { InputGuardrail, OutputGuardrail } from '../guardrail/guardrail.js';
import { type Handoff, handoff } from '../handoff/handoff.js';
import type { MaybePromise, RunContext } from '../loop/run-context.js';
import type { Model, ModelSettings, OutputSchemaDefinition, Prompt } from '../model/model.js';
import {
  type InferSchema,
  type ResolvedSchema,
  resolveSchema,
  type SchemaLike,
} from '../tool/schema.js';
import type { FunctionTool, Tool } from '../tool/tool.js';
import { type AsToolOptions, agentAsTool } from './as-tool.js';
import type { AgentHooks } from './hooks.js';

/** A tool call result as seen by `toolUseBehavior` functions. */
export interface FunctionToolResult {
  toolName: string;
  callId: string;
  /** The tool's return value (or the error text the model saw). */
  output: unknown;
}

/**
 * Decides whether tool results end the run. It sees the results of the turn's calls that ran,
 * in call order (`stop_on_first_tool`: the first of them); in a turn resumed after an approval
 * pause or a failure, that includes the calls that ran before it (whose `output`, after a
 * RunState JSON round trip, is the same value when it is plain JSON, else the text the model saw).
 */
export type ToolUseBehavior<TContext = any> =
  | 'run_llm_again'
  | 'stop_on_first_tool'
  | { stopAtToolNames: string[] }
  | ((
      ctx: RunContext<TContext>,
      results: FunctionToolResult[],
    ) => MaybePromise<{ isFinalOutput: boolean; finalOutput?: unknown }>);

/** Instructions: a string, or a (sync/async) function of the run context and the agent. */
export type Instructions<TContext = any> =
  | string
  | ((ctx: RunContext<TContext>, agent: Agent<TContext, any>) => string | Promise<string>);

/** A prompt object, or a (sync/async) function of the run context and the agent returning one. */
export type AgentPrompt<TContext = any> =
  | Prompt
  | ((ctx: RunContext<TContext>, agent: Agent<TContext, any>) => Prompt | Promise<Prompt>);

/** Output type: a zod schema or JSON Schema; absent means plain text. */
export type OutputType = SchemaLike | undefined;

/** The parsed final output of an agent with output type `T`. */
export type OutputOf<T> = T extends undefined
  ? string
  : T extends { readonly '~standard': unknown }
    ? InferSchema<T>
    : unknown;

/** Anything an agent's `handoffs` list may hold. */
export type HandoffLike<TContext = any> =
  | Agent<TContext, any>
  | Handoff<TContext, Agent<TContext, any>>;

export interface AgentConfig<TContext = any, TOutputType extends OutputType = undefined> {
  /** Unique within a run's agent graph; used by RunState to rebind agents. */
  name: string;
  /**
   * The system prompt: a string, or a (sync or async) function of the run context and the agent,
   * called before every model call of this agent. Capability fragments are appended after it.
   */
  instructions?: Instructions<TContext>;
  /**
   * A prompt stored on the provider (OpenAI Responses: `{ id, version?, variables? }`), sent with
   * every call of this agent; `instructions` may then be omitted. A model that declares it cannot
   * serve prompts (`supports('prompt')` false) is refused with `UserError` before its first call.
   */
  prompt?: AgentPrompt<TContext>;
  /** Shown to other agents in the handoff tool's description. */
  handoffDescription?: string;
  /** Function tools (`tool()`, `agent.asTool()`, MCP tools) and hosted tools the model may call. */
  tools?: Tool<TContext>[];
  /**
   * Agents this one may hand the conversation to: each becomes a `transfer_to_<name>` tool. An
   * `Agent` uses the defaults; `handoff(agent, {...})` sets the tool name, input, filter, gate.
   */
  handoffs?: HandoffLike<TContext>[];
  /** A `Model` or a model name the run's model provider resolves (e.g. `'openai:gpt-5.1'`). */
  model?: Model | string;
  /** Model settings (temperature, toolChoice, …); run-level `modelSettings` merge over them. */
  modelSettings?: ModelSettings;
  /**
   * The final output's type: a zod object schema (any Standard Schema with JSON Schema) or a JSON
   * Schema object. The model is asked for that JSON (strict when possible) and the output is
   * validated and parsed (`result.finalOutput` is typed). Absent: plain text.
   * @throws UserError at construction when it does not describe a JSON object.
   */
  outputType?: TOutputType;
  /** Checks of the run's input, when this agent starts the run (first turn only). */
  inputGuardrails?: InputGuardrail<TContext>[];
  /** Checks of the final output, when this agent produces it. */
  outputGuardrails?: OutputGuardrail<TContext>[];
  /** Default `'run_llm_again'`. */
  toolUseBehavior?: ToolUseBehavior<TContext>;
  /** Reset a forced `toolChoice` to `auto` after a tool was used (default true). */
  resetToolChoice?: boolean;
  /** Lifecycle hooks of this agent (after the run's own; see `RunHooks`). */
  hooks?: AgentHooks<TContext>;
  /** Extensions (sandbox, MCP, memory, …) adding tools, instructions and input processing per run. */
  capabilities?: Capability<TContext>[];
}

const LIST_KEYS = [
  'tools',
  'handoffs',
  'inputGuardrails',
  'outputGuardrails',
  'capabilities',
] as const;

/**
 * An agent declaration.
 * @throws UserError at construction for invalid config (empty name, non-array tools, a tool
 *   that is not a tool, an invalid output type).
 */
export class Agent<TContext = any, TOutputType extends OutputType = undefined> {
  readonly name!: string;
  /** The system prompt (see `AgentConfig.instructions`). */
  instructions?: Instructions<TContext>;
  prompt?: AgentPrompt<TContext>;
  handoffDescription?: string;
  tools!: Tool<TContext>[];
  /** Agents (or `handoff()`s) this one may hand off to (see `AgentConfig.handoffs`). */
  handoffs!: HandoffLike<TContext>[];
  model?: Model | string;
  modelSettings!: ModelSettings;
  /** The final output's schema; absent means text (see `AgentConfig.outputType`). */
  outputType?: TOutputType;
  inputGuardrails!: InputGuardrail<TContext>[];
  outputGuardrails!: OutputGuardrail<TContext>[];
  toolUseBehavior!: ToolUseBehavior<TContext>;
  resetToolChoice!: boolean;
  hooks?: AgentHooks<TContext>;
  capabilities!: Capability<TContext>[];
  private resolvedOutput?: ResolvedSchema | null;

  constructor(config: AgentConfig<TContext, TOutputType>) {
    if (!config || typeof config.name !== 'string' || config.name.trim() === '')
      throw new UserError('new Agent(): `name` must be a non-empty string.');
    const where = `Agent "${config.name}"`;
    for (const key of LIST_KEYS)
      if (config[key] !== undefined && !Array.isArray(config[key]))
        throw new UserError(`${where}: \`${key}\` must be an array.`);
    for (const t of config.tools ?? []) {
      if (!t || (t.type !== 'function' && t.type !== 'hosted_tool'))
        throw new UserError(
          `${where}: every entry of \`tools\` must be created with tool() (or be a hosted tool).`,
        );
    }
    for (const h of config.handoffs ?? []) {
      if (!(h instanceof Agent) && (h as Handoff)?.type !== 'handoff')
        throw new UserError(
          `${where}: every entry of \`handoffs\` must be an Agent or a handoff().`,
        );
    }
    if (
      config.instructions !== undefined &&
      typeof config.instructions !== 'string' &&
      typeof config.instructions !== 'function'
    ) {
      throw new UserError(`${where}: \`instructions\` must be a string or a function.`);
    }
    const b = config.toolUseBehavior as { stopAtToolNames?: unknown } | string | undefined;
    const names = typeof b === 'object' ? b?.stopAtToolNames : undefined;
    if (b != null && b !== 'run_llm_again' && b !== 'stop_on_first_tool' && typeof b !== 'function')
      if (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))
        throw new UserError(
          `${where}: \`toolUseBehavior\` must be 'run_llm_again', 'stop_on_first_tool', { stopAtToolNames: string[] } or a function.`,
        );
    const p = config.prompt;
    if (
      p !== undefined &&
      typeof p !== 'function' &&
      (typeof p?.id !== 'string' ||
        p.id === '' ||
        (p.variables != null && typeof p.variables !== 'object'))
    )
      throw new UserError(
        `${where}: \`prompt\` must be { id: non-empty string, version?, variables?: object } or a function returning one.`,
      );
    if (
      config.model !== undefined &&
      typeof config.model !== 'string' &&
      (config.model as Model)?.specificationVersion !== 'v1'
    ) {
      throw new UserError(
        `${where}: \`model\` must be a model name or a Model with specificationVersion 'v1'.`,
      );
    }
    Object.assign(this, {
      ...config,
      tools: config.tools ?? [],
      handoffs: config.handoffs ?? [],
      modelSettings: config.modelSettings ?? {},
      inputGuardrails: config.inputGuardrails ?? [],
      outputGuardrails: config.outputGuardrails ?? [],
      toolUseBehavior: config.toolUseBehavior ?? 'run_llm_again',
      resetToolChoice: config.resetToolChoice ?? true,
      capabilities: config.capabilities ?? [],
    });
    if (this.outputType !== undefined) this.getOutputSchema();
  }

  /** A copy with some fields replaced. */
  clone<O extends OutputType = TOutputType>(
    overrides: Partial<AgentConfig<TContext, O>> = {},
  ): Agent<TContext, O> {
    return new Agent<TContext, O>({
      ...(this.toConfig() as AgentConfig<TContext, any>),
      ...overrides,
    });
  }

  /** The config this agent was built from (current field values). */
  toConfig(): AgentConfig<TContext, TOutputType> {
    const { resolvedOutput: _cache, ...config } = this as unknown as Record<string, unknown>;
    return config as unknown as AgentConfig<TContext, TOutputType>;
  }

  /** Resolves the instructions for one turn. */
  async getSystemPrompt(ctx: RunContext<TContext>): Promise<string | undefined> {
    if (typeof this.instructions === 'function') return this.instructions(ctx, this);
    return this.instructions;
  }

  /** The output JSON Schema (strict when possible) or `undefined` for plain text output. */
  getOutputSchema():
    | (OutputSchemaDefinition & { validate: ResolvedSchema['validate'] })
    | undefined {
    if (this.outputType === undefined) return undefined;
    if (this.resolvedOutput === undefined) {
      const resolved = resolveSchema(
        this.outputType as SchemaLike,
        `Agent "${this.name}" outputType`,
      );
      if ((resolved.jsonSchema.type ?? 'object') !== 'object')
        throw new UserError(
          `Agent "${this.name}": outputType must describe a JSON object (wrap other types in z.object).`,
        );
      this.resolvedOutput = resolved;
    }
    const r = this.resolvedOutput!;
    return { name: 'final_output', schema: r.jsonSchema, strict: r.strict, validate: r.validate };
  }

  /** The handoffs as `Handoff` objects (agents wrapped with default options). */
  getHandoffs(): Handoff<TContext, Agent<TContext, any>>[] {
    return this.handoffs.map((h) => (h instanceof Agent ? handoff(h) : h)) as Handoff<
      TContext,
      Agent<TContext, any>
    >[];
  }

  /**
   * This agent as a function tool: a nested `run()` with only the generated input; the parent
   * keeps control and receives the nested final output. See {@link AsToolOptions}.
   */
  asTool(options: AsToolOptions<TContext> = {}): FunctionTool<TContext> {
    return agentAsTool(this, options);
  }
}
