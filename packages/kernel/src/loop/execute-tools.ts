/**
 * Function calls (invariants 2, 7, 10): approvals, tool guardrails, bounded concurrency, the
 * error policy, outputs in call order. A call id that has an output never runs again.
 */
import type { FunctionToolResult } from '../agent/agent.js';
import {
  BatonError,
  DurabilityError,
  ToolCallError,
  ToolCallInDoubtError,
  ToolGuardrailTripwireTriggered,
  ToolTimeoutError,
  UserError,
} from '../errors/errors.js';
import type {
  ToolGuardrailResult,
  ToolInputGuardrail,
  ToolOutputGuardrail,
  ToolOutputGuardrailArgs,
} from '../guardrail/tool-guardrail.js';
import type { FunctionCallItem } from '../items/item-types.js';
import type { RunItem, ToolApprovalRunItem, ToolCallOutputRunItem } from '../items/run-items.js';
import { nativeOutput } from '../tool/native-call.js';
import { defaultToolErrorFunction, type FunctionTool, toToolOutput } from '../tool/tool.js';
import type { FunctionSpanData } from '../tracing/span-types.js';
import { callHooks } from './call-hooks.js';
import { formatToolError, invokeTool, recordToolError } from './invoke-tool.js';
import { NestedRunStop } from './nested-run.js';
import type { TurnPlan } from './prepare-turn.js';
import { toAbortError } from './retry.js';
import { type AnyAgent, isAnswered, outputItem, type RunRuntime } from './run-runtime.js';
import { checkAborted, untilAborted } from './until-aborted.js';

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
type ToolPlan = Pick<TurnPlan, 'agent' | 'functionTools'> & Partial<Pick<TurnPlan, 'handoffs'>>;

/** The output text for a call to a tool that does not exist (or no longer does, on a resume). */
export function toolNotFoundText(name: string, plan: ToolPlan): string {
  const names = [...plan.functionTools.keys(), ...(plan.handoffs?.keys() ?? [])];
  return `Error: tool "${name}" not found. Available tools: ${names.length ? names.join(', ') : '(none)'}. Call one of these.`;
}

/** What became of one call: an output (`ran`: the tool ran), approvals to wait for, or nothing. */
type CallOutcome =
  | { output: RunItem<AnyAgent>; ran: boolean; value: unknown }
  | { approvals: ToolApprovalRunItem<AnyAgent>[] }
  | undefined;

/** Runs the calls concurrently (bounded by `maxToolConcurrency`, default 8). */
export async function executeFunctionCalls(
  rt: RunRuntime,
  plan: ToolPlan,
  calls: FunctionCallItem[],
): Promise<ToolExecutionResult> {
  // A person approved a side effect: a tool gone since the pause fails the resume, before any call.
  for (const { name, call_id } of calls)
    if (
      !plan.functionTools.has(name) &&
      !isAnswered(rt, call_id) &&
      rt.state.isApproved(name, call_id) === true
    )
      throw new UserError(
        `Call ${call_id} was approved for tool "${name}", which agent "${plan.agent.name}" does not have (or has disabled) now. Resume with the agent the run paused with, or reject the call.`,
      );
  const outcomes: CallOutcome[] = new Array(calls.length);
  const agent = plan.agent;
  let next = 0;
  let error: { value: unknown } | undefined;
  const worker = async () => {
    while (next < calls.length && !error) {
      const index = next++;
      const call = calls[index];
      try {
        const o = await executeOne(rt, plan, call);
        outcomes[index] = o;
        // After the output is kept: a run stopped in the hook (an abort) does not run the tool again.
        if (o && 'ran' in o && o.ran)
          await callHooks(
            rt,
            agent,
            'onToolEnd',
            rt.state.context,
            agent,
            call.name,
            call,
            o.value,
          );
      } catch (e) {
        error ??= { value: e };
      }
    }
  };
  const limit = Math.min(rt.options.maxToolConcurrency ?? 8, calls.length);
  await Promise.all(Array.from({ length: limit }, worker));
  const result: ToolExecutionResult = { outputs: [], approvals: [], toolResults: [], error };
  for (let i = 0; i < calls.length; i++) {
    const o = outcomes[i];
    const { name: toolName, call_id: callId } = calls[i];
    if (o && 'approvals' in o) result.approvals.push(...o.approvals);
    else if (o) {
      result.outputs.push(o.output);
      if (o.ran) result.toolResults.push({ toolName, callId, output: o.value });
    } else if (!error && isAnswered(rt, callId)) {
      const earlier = await earlierResult(rt, plan, calls[i]);
      if (earlier) result.toolResults.push(earlier);
    }
  }
  return result;
}

/**
 * The result of a call of this turn that ran before the run paused or failed (a resumed turn),
 * so `toolUseBehavior` sees the same results, in call order, as when the turn ran in one go.
 * The output is the tool's value (after a JSON round trip, the text the model saw).
 */
async function earlierResult(
  rt: RunRuntime,
  plan: ToolPlan,
  call: FunctionCallItem,
): Promise<FunctionToolResult | undefined> {
  const { state } = rt;
  const tool = plan.functionTools.get(call.name);
  if (!tool || state.isApproved(call.name, call.call_id) === false) return undefined;
  const items = state.generatedItems;
  let item: ToolCallOutputRunItem<AnyAgent> | undefined;
  for (let i = items.length - 1; i >= 0 && !item; i--) {
    const candidate = items[i];
    if (
      candidate.type === 'tool_call_output_item' &&
      (candidate.raw_item as { call_id?: string }).call_id === call.call_id
    )
      item = candidate;
  }
  if (!item) return undefined;
  // Not run: its arguments were invalid, or a tool input guardrail replaced its output.
  if (!(await tool.parseArguments(call.arguments)).ok) return undefined;
  const guarded = state.toolInputGuardrailResults.some(
    (r) => r.callId === call.call_id && r.output.behavior.type !== 'allow',
  );
  if (guarded) return undefined;
  return { toolName: call.name, callId: call.call_id, output: item.output };
}

const output = (
  agent: AnyAgent,
  call: FunctionCallItem,
  value: unknown,
  ran = false,
  tool?: FunctionTool,
  ok = ran,
) => {
  const native = nativeOutput(tool, call, value, ok);
  const item = outputItem(agent, call.call_id, value);
  if (native) item.raw_item = native as typeof item.raw_item;
  return { output: item, ran, value };
};

function approval(agent: AnyAgent, tool: FunctionTool, call: FunctionCallItem, inDoubt = false) {
  const item: ToolApprovalRunItem<AnyAgent> = {
    type: 'tool_approval_item',
    agent,
    raw_item: call,
    tool_name: tool.name,
    call_id: call.call_id,
    arguments: call.arguments,
    path: [],
  };
  if (inDoubt) item.kind = 'in_doubt';
  return { approvals: [item] };
}

/**
 * Runs tool guardrails in order. Returns the rejection text of the first `reject_content`, or
 * `undefined` when all allow; throws `ToolGuardrailTripwireTriggered` for `throw`. The results
 * are recorded once a verdict is reached (a check stopped by an abort records none: judged again).
 */
async function checkToolGuardrails(
  rt: RunRuntime,
  guardrails: (ToolInputGuardrail | ToolOutputGuardrail)[],
  results: ToolGuardrailResult[],
  args: ToolOutputGuardrailArgs,
): Promise<string | undefined> {
  const { name: toolName, call_id: callId } = args.toolCall;
  const judged: ToolGuardrailResult[] = [];
  for (const guardrail of guardrails) {
    const out = await untilAborted(() => guardrail.execute(args), rt.signal);
    judged.push({ guardrailName: guardrail.name, toolName, callId, output: out });
    const { behavior } = out;
    if (behavior.type !== 'reject_content' && behavior.type !== 'throw') continue;
    results.push(...judged);
    if (behavior.type === 'reject_content') return behavior.message;
    throw new ToolGuardrailTripwireTriggered(guardrail.name, toolName, callId, behavior.message);
  }
  results.push(...judged);
  return undefined;
}

/** Decides one call (exists, valid arguments, approval, input guardrails), then runs it. */
async function executeOne(
  rt: RunRuntime,
  plan: ToolPlan,
  call: FunctionCallItem,
): Promise<CallOutcome> {
  const { state } = rt;
  const agent = plan.agent;
  if (isAnswered(rt, call.call_id)) return undefined;
  const tool = plan.functionTools.get(call.name);
  const decision = state.isApproved(call.name, call.call_id);
  if (decision === false) {
    const text =
      state.rejectionMessage(call.name, call.call_id) ??
      (await formatToolError(rt, 'approval_rejected', call, tool, DEFAULT_REJECTION_TEXT));
    return output(agent, call, text, false, tool);
  }
  if (!tool) {
    const text = toolNotFoundText(call.name, plan);
    return output(agent, call, await formatToolError(rt, 'tool_not_found', call, tool, text));
  }
  const parsed = await tool.parseArguments(call.arguments);
  if (!parsed.ok) return output(agent, call, parsed.message, false, tool);
  const judging = state.pendingTurn?.judging;
  if (judging && call.call_id in judging) {
    const ran = judging[call.call_id];
    const args = { context: state.context, agent, toolCall: call, args: parsed.value, output: ran };
    const results = state.toolOutputGuardrailResults;
    const value = (await checkToolGuardrails(rt, tool.outputGuardrails, results, args)) ?? ran;
    delete judging[call.call_id];
    return output(agent, call, value, true, tool);
  }
  if (
    decision === undefined &&
    !state.nestedStates[call.call_id] &&
    (await untilAborted(
      () => tool.needsApproval(state.context, parsed.value, call.call_id),
      rt.signal,
    ))
  )
    return approval(agent, tool, call);
  const guardrailArgs = {
    context: state.context,
    agent,
    toolCall: call,
    args: parsed.value,
    output: undefined as unknown,
  };
  const rejected = await checkToolGuardrails(
    rt,
    tool.inputGuardrails,
    state.toolInputGuardrailResults,
    guardrailArgs,
  );
  if (rejected !== undefined) return output(agent, call, rejected, false, tool);
  checkAborted(rt.signal); // an aborted (or cancelled) run starts no further tool
  await callHooks(rt, agent, 'onToolStart', state.context, agent, tool.name, call);
  const span = rt.tracer?.startSpan<FunctionSpanData>(
    {
      kind: 'function',
      name: tool.name,
      callId: call.call_id,
      ...(rt.tracer.includeSensitiveData ? { input: call.arguments } : {}),
    },
    rt.turnSpan,
  );
  let value: unknown;
  let failure: { message: string; data: Record<string, unknown> } | undefined; // model-visible
  try {
    try {
      value = await invokeTool(rt, agent, tool, call, parsed.value, span, decision === true);
    } catch (error) {
      if (ToolCallInDoubtError.isInstance(error)) {
        if (span) rt.tracer!.endSpan(span, { message: 'in doubt' });
        return approval(agent, tool, call, true);
      }
      if (error instanceof NestedRunStop && !error.failure) {
        // The nested run paused: its interruptions become the parent's, nested under this call.
        state.nestedStates[call.call_id] = error.state!;
        if (span) rt.tracer!.endSpan(span);
        return {
          approvals: error.state!.interruptions.map((i) => ({
            ...i,
            path: [call.call_id, ...i.path],
          })),
        };
      }
      if (!(error instanceof NestedRunStop) && !rt.signal?.aborted)
        await callHooks(rt, agent, 'onToolError', state.context, agent, tool.name, call, error);
      throwIfFatal(rt, tool, call, error);
      const errorFn = tool.errorFunction ?? defaultToolErrorFunction;
      const about = { toolName: tool.name, callId: call.call_id };
      const text = await untilAborted(() => errorFn(state.context, error, about), rt.signal);
      value = text ?? defaultToolErrorFunction(state.context, error);
      failure = recordToolError(rt, tool, call, error, value as string);
    }
    delete state.nestedStates[call.call_id];
    guardrailArgs.output = value;
    const { toolOutputGuardrailResults: results, pendingTurn: turn } = state;
    const judged =
      failure === undefined &&
      tool.outputGuardrails.length > 0 &&
      checkToolGuardrails(rt, tool.outputGuardrails, results, guardrailArgs);
    // Stopped while judging (an abort): the result is kept, so a resume judges it, not runs the tool.
    const keep = (error: unknown) => {
      if (rt.signal?.aborted && turn) turn.judging = { ...turn.judging, [call.call_id]: value };
      throw error;
    };
    if (judged) value = (await judged.catch(keep)) ?? value;
  } catch (error) {
    if (span) rt.tracer!.failSpan(span, error);
    throw error;
  }
  if (span) {
    const text = toToolOutput(value);
    if (rt.tracer!.includeSensitiveData)
      span.data.output = typeof text === 'string' ? text : JSON.stringify(text);
    rt.tracer!.endSpan(span, failure);
  }
  return output(agent, call, value, true, tool, failure === undefined);
}

/**
 * Throws what fails the run instead of becoming model-visible output: the abort, a nested run's
 * own failure, a tripwire, a durability failure, a `'raise'` timeout, any error of a tool whose
 * `errorFunction` is null.
 */
function throwIfFatal(
  rt: RunRuntime,
  tool: FunctionTool,
  call: FunctionCallItem,
  error: unknown,
): void {
  if (error instanceof NestedRunStop) {
    // Kept, so resuming the parent resumes the nested run; the error carries the parent state.
    if (error.state) rt.state.nestedStates[call.call_id] = error.state;
    const nested = error.failure!.error;
    if (BatonError.isInstance(nested)) (nested as { state?: unknown }).state = undefined;
    throw nested;
  }
  if (rt.signal?.aborted) throw toAbortError(rt.signal, error);
  if (ToolGuardrailTripwireTriggered.isInstance(error) || DurabilityError.isInstance(error))
    throw error;
  if (error instanceof ToolTimeoutError && tool.timeoutBehavior === 'raise') throw error;
  if (tool.errorFunction === null)
    throw new ToolCallError(
      `Tool "${tool.name}" (call ${call.call_id}) failed and its errorFunction is null, so the run stops.`,
      { toolName: tool.name, callId: call.call_id, cause: error },
    );
}
