/**
 * `agent.asTool()` (OpenAI Agents SDK `as_tool`): builds the nested input and the tool output;
 * the loop runs the nested agent (`loop/run-agent-tool.ts`), its runner passed in the details.
 */
import { UserError } from '../errors/errors.js';
import { extractText } from '../items/item-helpers.js';
import type { AgentInput, Item, MessageItem } from '../items/item-types.js';
import type { AgentRef, RunItem, ToolApprovalRunItem } from '../items/run-items.js';
import type { RunContext } from '../loop/run-context.js';
import type { RunStreamEvent } from '../loop/run-events.js';
import type { RunOptions } from '../loop/run-options.js';
import type { JsonSchema } from '../model/model.js';
import type { Usage } from '../model/usage.js';
import type { ResolvedSchema, SchemaLike } from '../tool/schema.js';
import { type FunctionTool, parseToolArguments, type ToolCallDetails, tool } from '../tool/tool.js';

/** Marks a tool made by `agent.asTool()` with the agent it runs. */
export const AS_TOOL_AGENT = Symbol.for('baton.asToolAgent');
/** Symbol key on `ToolCallDetails` where the run loop puts its {@link AgentToolRunner}. */
export const RUN_AGENT_TOOL = Symbol.for('baton.runAgentTool');

/** What `customOutputExtractor` reads of the nested run (a `RunResult` has all of it). */
export interface AgentToolRunResult {
  readonly finalOutput: unknown;
  readonly newItems: RunItem[];
  readonly history: Item[];
  readonly lastAgent: AgentRef;
  readonly interruptions: ToolApprovalRunItem[];
  readonly usage: Usage;
}

/**
 * Options of the nested run, set over the ones it inherits from the parent run (`model`,
 * `modelProvider`, `modelSettings`, `hooks`, `logger`, `tracing`, `toolNotFound`, `retry`,
 * `maxToolConcurrency`; each replaced as a whole). Context, run id and signal always come from
 * the parent call.
 */
export type AgentToolRunOptions<TContext = any> = Omit<
  RunOptions<TContext>,
  'context' | 'runId' | 'maxTurns' | 'signal'
>;

/** A nested agent-run request the tool hands to the loop's runner. */
export interface AgentToolRequest {
  agent: AgentRef;
  /** Builds the input (not called when a paused nested run is resumed). */
  input: () => AgentInput | Promise<AgentInput>;
  maxTurns?: number | null;
  runOptions?: AgentToolRunOptions;
  onStream?: AsToolOptions['onStream'];
}

/**
 * Runs the nested agent for one call (the run loop provides it). Rejects with the nested run's
 * error when that run fails; a nested run that pauses for approval pauses the parent.
 */
export type AgentToolRunner = (request: AgentToolRequest) => Promise<AgentToolRunResult>;

export interface AsToolOptions<TContext = any> {
  /** Default: the agent name in snake_case. */
  toolName?: string;
  /** Default: the agent's `handoffDescription`, or a generic text. */
  toolDescription?: string;
  /** Arguments schema. Default `{ input: string }`. */
  parameters?: SchemaLike;
  /** Builds the nested run's input from the arguments. Default: one user message with `args.input`. */
  inputBuilder?: (args: any) => AgentInput | Promise<AgentInput>;
  /** Turns the nested result into the tool output. Default: the final output, or the last message text. */
  customOutputExtractor?(result: AgentToolRunResult): unknown | Promise<unknown>;
  needsApproval?:
    | boolean
    | ((ctx: RunContext<TContext>, args: any, callId: string) => boolean | Promise<boolean>);
  isEnabled?:
    | boolean
    | ((ctx: RunContext<TContext>, agent: { name: string }) => boolean | Promise<boolean>);
  /** Max turns of the nested run. Default 10; `null` (or `Infinity`) means no limit. */
  maxTurns?: number | null;
  /** Options of the nested run over those it inherits from the parent run. */
  runOptions?: AgentToolRunOptions<TContext>;
  /**
   * Receives this tool's nested run events while it runs, tagged with the parent's call id
   * (calls are chained, so events arrive in order). A streaming parent also gets every nested
   * event on its own stream, as `nested_run_stream_event`.
   */
  onStream?: (payload: {
    event: RunStreamEvent;
    toolCallId: string;
    agentName: string;
  }) => void | Promise<void>;
}

/** The default arguments, `{ input: string }`, checked without a schema library. */
const DEFAULT_PARAMETERS = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The input for the agent.' } },
  required: ['input'],
  additionalProperties: false,
} as const;

const validateDefaultArgs: ResolvedSchema<{ input: string }>['validate'] = (value) =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as { input?: unknown }).input === 'string'
    ? { ok: true, value: value as { input: string } }
    : { ok: false, message: '✖ expected an object with a string "input"\n  → at input' };

function snake(name: string): string {
  return (
    name
      .replace(/[^a-zA-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toLowerCase() || 'agent'
  );
}

function lastMessageText(result: AgentToolRunResult): string {
  for (let i = result.newItems.length - 1; i >= 0; i--) {
    const item = result.newItems[i];
    if (item.type === 'message_output_item') return extractText(item.raw_item as MessageItem);
  }
  return '';
}

/** Builds the tool (see `Agent.asTool`). */
export function agentAsTool<TContext>(
  agent: AgentRef & { readonly handoffDescription?: string },
  options: AsToolOptions<TContext>,
): FunctionTool<TContext> {
  const t = tool({
    name: options.toolName ?? snake(agent.name),
    description:
      options.toolDescription ?? agent.handoffDescription ?? `Ask the ${agent.name} agent.`,
    parameters: options.parameters ?? (DEFAULT_PARAMETERS as unknown as JsonSchema),
    needsApproval: options.needsApproval,
    isEnabled: options.isEnabled as any,
    execute: async (args: any, _ctx: RunContext<TContext>, details: ToolCallDetails) => {
      const runNested = (details as ToolCallDetails & { [RUN_AGENT_TOOL]?: AgentToolRunner })[
        RUN_AGENT_TOOL
      ];
      if (!runNested)
        throw new UserError(
          `Agent tool "${t.name}" runs only inside a Baton run (run()/runStep()).`,
        );
      const result = await runNested({
        agent,
        input: () =>
          options.inputBuilder ? options.inputBuilder(args) : String(args?.input ?? ''),
        maxTurns: options.maxTurns,
        runOptions: options.runOptions,
        onStream: options.onStream,
      });
      if (options.customOutputExtractor) return options.customOutputExtractor(result);
      const out = result.finalOutput;
      if (out === undefined || out === null || out === '') return lastMessageText(result);
      return out;
    },
  });
  if (!options.parameters) {
    const name = t.name;
    (t as { parseArguments: FunctionTool['parseArguments'] }).parseArguments = (json) =>
      parseToolArguments(name, json, { validate: validateDefaultArgs });
  }
  Object.defineProperty(t, AS_TOOL_AGENT, { value: agent, enumerable: false });
  return t as FunctionTool<TContext>;
}
