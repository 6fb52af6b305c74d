/**
 * Side effects of function calls (invariants 2, 7, 10): approval decisions, tool guardrails,
 * concurrent bounded execution with timeouts and abort, the error policy, and outputs in the
 * model's call order. A call id that already has an output is never executed again.
 */

import type { FunctionToolResult } from '../agent/agent.js';
import {
  DurabilityError,
  ToolCallError,
  ToolCallInDoubtError,
  ToolGuardrailTripwireTriggered,
  ToolTimeoutError,
} from '../errors/errors.js';
import type {
  ToolGuardrailResult,
  ToolInputGuardrail,
  ToolOutputGuardrail,
  ToolOutputGuardrailArgs,
} from '../guardrail/tool-guardrail.js';
import type { FunctionCallItem, FunctionCallOutputItem } from '../items/item-types.js';
import type { RunItem, ToolApprovalRunItem } from '../items/run-items.js';
import { defaultToolErrorFunction, type FunctionTool, toToolOutput } from '../tool/tool.js';
import type { FunctionSpanData } from '../tracing/span-types.js';
import { callHooks } from './call-hooks.js';
import { invokeTool } from './invoke-tool.js';
import { NestedRunInterruption } from './nested-run.js';
import type { TurnPlan } from './prepare-turn.js';
import { toAbortError } from './retry.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';

/** Default text the model sees for a rejected call. */
export const DEFAULT_REJECTION_TEXT = 'The user rejected this tool call; it was not executed.';

export interface ToolExecutionResult {
  /** Output items in the model's call order (calls that completed). */
  outputs: RunItem<AnyAgent>[];
  approvals: ToolApprovalRunItem<AnyAgent>[];
  /** Results of tools that actually ran (for `toolUseBehavior`). */
  toolResults: FunctionToolResult[];
  /** The first error of a call that failed the run (abort, fatal tool error); others finished. */
  error?: { value: unknown };
}

/** The part of a turn's plan that tool execution reads. */
type ToolPlan = Pick<TurnPlan, 'agent' | 'functionTools'>;

type CallOutcome =
  | { kind: 'output'; item: RunItem<AnyAgent>; ran: boolean; value: unknown }
  | { kind: 'approval'; items: ToolApprovalRunItem<AnyAgent>[] }
  | { kind: 'skip' };

/** Runs the calls concurrently (bounded by `maxToolConcurrency`, default 8). */
export async function executeFunctionCalls(
  rt: RunRuntime,
  plan: ToolPlan,
  calls: FunctionCallItem[],
): Promise<ToolExecutionResult> {
  const outcomes: CallOutcome[] = new Array(calls.length);
  const limit = Math.max(1, rt.options.maxToolConcurrency ?? 8);
  let next = 0;
  let error: { value: unknown } | undefined;
  const worker = async () => {
    while (next < calls.length && !error) {
      const index = next++;
      try {
        outcomes[index] = await executeOne(rt, plan, calls[index]);
      } catch (e) {
        error ??= { value: e };
        outcomes[index] = { kind: 'skip' };
      }
    }
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < Math.min(limit, calls.length); i++) workers.push(worker());
  await Promise.all(workers);
  const result: ToolExecutionResult = { outputs: [], approvals: [], toolResults: [], error };
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i];
    if (!o) continue;
    if (o.kind === 'output') {
      result.outputs.push(o.item);
      if (o.ran)
        result.toolResults.push({
          toolName: calls[i].name,
          callId: calls[i].call_id,
          output: o.value,
        });
    } else if (o.kind === 'approval') result.approvals.push(...o.items);
  }
  return result;
}

function outputItem(
  agent: AnyAgent,
  call: FunctionCallItem,
  value: unknown,
  ran: boolean,
): CallOutcome {
  const raw: FunctionCallOutputItem = {
    type: 'function_call_output',
    call_id: call.call_id,
    output: toToolOutput(value),
  };
  return {
    kind: 'output',
    item: { type: 'tool_call_output_item', agent, raw_item: raw, output: value },
    ran,
    value,
  };
}

function approvalOutcome(
  agent: AnyAgent,
  tool: FunctionTool,
  call: FunctionCallItem,
  kind?: 'in_doubt',
): CallOutcome {
  const item: ToolApprovalRunItem<AnyAgent> = {
    type: 'tool_approval_item',
    agent,
    raw_item: call,
    tool_name: tool.name,
    call_id: call.call_id,
    arguments: call.arguments,
    path: [],
  };
  if (kind) item.kind = kind;
  return { kind: 'approval', items: [item] };
}

/**
 * Runs tool guardrails in order. Returns the rejection text of the first `reject_content`, or
 * `undefined` when all allow; throws `ToolGuardrailTripwireTriggered` for `throw`.
 */
async function checkToolGuardrails(
  guardrails: (ToolInputGuardrail | ToolOutputGuardrail)[],
  results: ToolGuardrailResult[],
  args: ToolOutputGuardrailArgs,
): Promise<string | undefined> {
  const toolName = args.toolCall.name;
  const callId = args.toolCall.call_id;
  for (const guardrail of guardrails) {
    const out = await guardrail.execute(args);
    results.push({ guardrailName: guardrail.name, toolName, callId, output: out });
    if (out.behavior.type === 'reject_content') return out.behavior.message;
    if (out.behavior.type === 'throw') {
      throw new ToolGuardrailTripwireTriggered(
        guardrail.name,
        toolName,
        callId,
        out.behavior.message,
      );
    }
  }
  return undefined;
}

async function executeOne(
  rt: RunRuntime,
  plan: ToolPlan,
  call: FunctionCallItem,
): Promise<CallOutcome> {
  const { state } = rt;
  const agent = plan.agent;
  if (rt.completedCallIds.has(call.call_id)) return { kind: 'skip' };
  const tool = plan.functionTools.get(call.name);
  if (!tool) {
    return outputItem(
      agent,
      call,
      `Error: tool "${call.name}" is not available to agent "${agent.name}" any more.`,
      false,
    );
  }
  const parsed = await tool.parseArguments(call.arguments);
  if (!parsed.ok) return outputItem(agent, call, parsed.message, false);
  const decision = state.isApproved(tool.name, call.call_id);
  if (decision === false) {
    return outputItem(
      agent,
      call,
      state.rejectionMessage(tool.name, call.call_id) ?? DEFAULT_REJECTION_TEXT,
      false,
    );
  }
  if (
    decision === undefined &&
    !state.nestedStates[call.call_id] &&
    (await tool.needsApproval(state.context, parsed.value, call.call_id))
  ) {
    return approvalOutcome(agent, tool, call);
  }
  const guardrailArgs = {
    context: state.context,
    agent,
    toolCall: call,
    args: parsed.value,
    output: undefined as unknown,
  };
  const rejected = await checkToolGuardrails(
    tool.inputGuardrails,
    state.toolInputGuardrailResults,
    guardrailArgs,
  );
  if (rejected !== undefined) return outputItem(agent, call, rejected, false);
  await callHooks(rt, agent, (h) => h.onToolStart?.(state.context, agent, tool.name, call));
  const span = rt.tracer?.startSpan<FunctionSpanData>(
    {
      kind: 'function',
      name: tool.name,
      callId: call.call_id,
      ...(rt.tracer.includeSensitiveData ? { input: call.arguments } : {}),
    },
    rt.turnSpan,
  );
  const endSpan = (error?: string) =>
    span && rt.tracer!.endSpan(span, error === undefined ? undefined : { message: error });
  let value: unknown;
  let failureText: string | undefined;
  try {
    value = await invokeTool(rt, agent, tool, call, parsed.value, span, decision === true);
  } catch (error) {
    if (ToolCallInDoubtError.isInstance(error)) {
      endSpan('in doubt');
      return approvalOutcome(agent, tool, call, 'in_doubt');
    }
    if (error instanceof NestedRunInterruption) {
      endSpan();
      state.nestedStates[call.call_id] = error.state;
      return {
        kind: 'approval',
        items: error.state.interruptions.map((i) => ({ ...i, path: [call.call_id, ...i.path] })),
      };
    }
    if (rt.signal?.aborted) {
      endSpan('aborted');
      throw toAbortError(rt.signal, error);
    }
    const fatal = fatalToolError(tool, call, error);
    if (fatal) {
      endSpan(fatal.message);
      throw fatal;
    }
    failureText =
      (await (tool.errorFunction ?? defaultToolErrorFunction)(state.context, error, {
        toolName: tool.name,
        callId: call.call_id,
      })) ?? defaultToolErrorFunction(state.context, error);
    value = failureText;
  }
  delete state.nestedStates[call.call_id];
  if (failureText === undefined) {
    guardrailArgs.output = value;
    try {
      value =
        (await checkToolGuardrails(
          tool.outputGuardrails,
          state.toolOutputGuardrailResults,
          guardrailArgs,
        )) ?? value;
    } catch (error) {
      endSpan((error as Error).message);
      throw error;
    }
  }
  if (span && rt.tracer!.includeSensitiveData) {
    const output = toToolOutput(value);
    span.data.output = typeof output === 'string' ? output : JSON.stringify(output);
  }
  endSpan(failureText);
  await callHooks(rt, agent, (h) => h.onToolEnd?.(state.context, agent, tool.name, call, value));
  return outputItem(agent, call, value, true);
}

/** Errors that fail the run instead of becoming model-visible output. */
function fatalToolError(
  tool: FunctionTool,
  call: FunctionCallItem,
  error: unknown,
): Error | undefined {
  if (ToolGuardrailTripwireTriggered.isInstance(error) || DurabilityError.isInstance(error))
    return error as Error;
  if (error instanceof ToolTimeoutError && tool.timeoutBehavior === 'raise') return error;
  if (tool.errorFunction === null) {
    return new ToolCallError(
      `Tool "${tool.name}" (call ${call.call_id}) failed and its errorFunction is null, so the run stops.`,
      { toolName: tool.name, callId: call.call_id, cause: error },
    );
  }
  return undefined;
}
