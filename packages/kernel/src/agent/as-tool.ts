/**
 * `agent.asTool()`: an agent as a function tool (OpenAI Agents SDK `as_tool`). The nested run
 * sees only the generated input, shares the parent's context object, adds its usage to the
 * parent's, and pauses the parent when it needs approval.
 */
import { extractText } from '../items/item-helpers.js';
import type { AgentInput, MessageItem } from '../items/item-types.js';
import { NestedRunInterruption, PARENT_RUN, type ParentRunLink } from '../loop/nested-run.js';
import type { RunContext } from '../loop/run-context.js';
import type { RunStreamEvent } from '../loop/run-events.js';
import type { RunResultBase } from '../loop/run-result.js';
import type { JsonSchema } from '../model/model.js';
import { addUsage, type Usage } from '../model/usage.js';
import type { SchemaLike } from '../tool/schema.js';
import { type FunctionTool, parseToolArguments, type ToolCallDetails, tool } from '../tool/tool.js';
import type { Agent } from './agent.js';
import { AS_TOOL_AGENT } from './agent-graph.js';
import { DEFAULT_AS_TOOL_PARAMETERS, validateDefaultAsToolArgs } from './as-tool-params.js';

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
  customOutputExtractor?: (result: RunResultBase<TContext, any>) => unknown | Promise<unknown>;
  needsApproval?:
    | boolean
    | ((ctx: RunContext<TContext>, args: any, callId: string) => boolean | Promise<boolean>);
  isEnabled?:
    | boolean
    | ((ctx: RunContext<TContext>, agent: { name: string }) => boolean | Promise<boolean>);
  /** Max turns of the nested run. Default 10. */
  maxTurns?: number;
  /** Receives the nested run's stream events while it runs, tagged with the parent's call id. */
  onStream?: (payload: {
    event: RunStreamEvent;
    toolCallId: string;
    agentName: string;
  }) => void | Promise<void>;
}

function snake(name: string): string {
  return (
    name
      .replace(/[^a-zA-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toLowerCase() || 'agent'
  );
}

function lastMessageText(result: RunResultBase): string {
  for (let i = result.newItems.length - 1; i >= 0; i--) {
    const item = result.newItems[i];
    if (item.type === 'message_output_item') return extractText(item.raw_item as MessageItem);
  }
  return '';
}

/** Builds the tool (see `Agent.asTool`). */
export function agentAsTool<TContext>(
  agent: Agent<TContext, any>,
  options: AsToolOptions<TContext>,
): FunctionTool<TContext> {
  const t = tool({
    name: options.toolName ?? snake(agent.name),
    description:
      options.toolDescription ?? agent.handoffDescription ?? `Ask the ${agent.name} agent.`,
    parameters: options.parameters ?? (DEFAULT_AS_TOOL_PARAMETERS as unknown as JsonSchema),
    needsApproval: options.needsApproval,
    isEnabled: options.isEnabled as any,
    execute: async (args: any, ctx: RunContext<TContext>, details: ToolCallDetails) => {
      const { run } = await import('../loop/run.js');
      const link = (details as ToolCallDetails & { [PARENT_RUN]?: ParentRunLink })[PARENT_RUN];
      const resume = link?.nestedState;
      const input =
        resume ??
        (options.inputBuilder ? await options.inputBuilder(args) : String(args?.input ?? ''));
      const before: Usage | undefined = resume ? { ...resume.usage } : undefined;
      const parentOptions = link?.options ?? {};
      const nestedOptions = {
        context: ctx.context,
        // Deterministic, so a durable driver's journal keys of the nested run survive a crash.
        runId: `${ctx.runId}.${details.callId}`,
        maxTurns: options.maxTurns ?? 10,
        signal: details.signal,
        modelProvider: parentOptions.modelProvider,
        retry: parentOptions.retry,
        toolNotFound: parentOptions.toolNotFound,
        maxToolConcurrency: parentOptions.maxToolConcurrency,
        tracing: parentOptions.tracing,
        [PARENT_RUN]: link
          ? { options: parentOptions, tracer: link.tracer, span: link.span }
          : undefined,
      };
      let result: RunResultBase<TContext, any>;
      if (options.onStream) {
        const streamed = await run(agent, input as any, { ...nestedOptions, stream: true } as any);
        for await (const event of streamed)
          await options.onStream({ event, toolCallId: details.callId, agentName: agent.name });
        await streamed.completed;
        result = streamed;
      } else {
        result = await run(agent, input as any, nestedOptions as any);
      }
      const delta = { ...result.state.usage };
      if (before) for (const k of Object.keys(before) as (keyof Usage)[]) delta[k] -= before[k];
      addUsage(ctx.usage, delta);
      if (result.interruptions.length > 0) throw new NestedRunInterruption(result.state);
      if (options.customOutputExtractor) return options.customOutputExtractor(result);
      const out = result.finalOutput;
      if (out === undefined || out === null || out === '') return lastMessageText(result);
      return out;
    },
  });
  if (!options.parameters) {
    const name = t.name;
    (t as { parseArguments: FunctionTool['parseArguments'] }).parseArguments = (json) =>
      parseToolArguments(name, json, { validate: validateDefaultAsToolArgs });
  }
  Object.defineProperty(t, AS_TOOL_AGENT, { value: agent, enumerable: false });
  return t as FunctionTool<TContext>;
}
