/**
 * The run loop — wiring only: dispatch on `NextStep` until a final output or an interruption,
 * with the agent spans, the max-turns rule, and cleanup on every exit path.
 */
import type { RunOutcome } from '../capability/capability.js';
import {
  BatonError,
  describeThrown,
  GuardrailExecutionError,
  MaxTurnsExceededError,
  nonErrorThrown,
  RunAbortedError,
  UserError,
} from '../errors/errors.js';
import { assistantMessage } from '../items/item-helpers.js';
import type { RunItem } from '../items/run-items.js';
import type { RunState } from '../run-state/run-state.js';
import type { AgentSpanData, SpanInterruption } from '../tracing/span-types.js';
import { callHooks } from './call-hooks.js';
import { teardownAgents } from './prepare-turn.js';
import { handledOutput } from './resolve-turn.js';
import { toAbortError } from './retry.js';
import { runOutputGuardrails } from './run-guardrails.js';
import { replayableHistory } from './run-result.js';
import { type AnyAgent, appendItems, itemEvent, type RunRuntime } from './run-runtime.js';
import { runTurn } from './run-turn.js';
import { saveNewItemsToSession } from './session-io.js';
import { untilAborted } from './until-aborted.js';

function startAgentSpan(rt: RunRuntime, agent: AnyAgent): void {
  if (!rt.tracer) return;
  rt.agentSpan = rt.tracer.startSpan<AgentSpanData>(
    {
      kind: 'agent',
      name: agent.name,
      tools: agent.tools.map((t) => t.name),
      handoffs: agent.getHandoffs().map((h) => h.agent.name),
      outputType: agent.outputType === undefined ? 'text' : 'json',
    },
    rt.parentSpan,
  );
}

function spanInterruptions(rt: RunRuntime): SpanInterruption[] {
  return rt.state.interruptions.map((i) => ({
    toolName: i.tool_name,
    callId: i.call_id,
    kind: i.kind ?? 'approval',
    path: [...i.path],
    ...(rt.tracer!.includeSensitiveData ? { arguments: i.arguments } : {}),
  }));
}

function endSpans(rt: RunRuntime, error?: { message: string }): void {
  if (!rt.tracer) return;
  if (rt.turnSpan) rt.tracer.endSpan(rt.turnSpan, error);
  if (rt.agentSpan) rt.tracer.endSpan(rt.agentSpan, error);
  rt.turnSpan = undefined;
  rt.agentSpan = undefined;
}

/** Drives the run to a final output or an interruption, emitting its stream events; resolves to its state. */
export async function runLoop(rt: RunRuntime): Promise<RunState<any, AnyAgent>> {
  const { state } = rt;
  const topLevel = !rt.nested;
  state.inUse = true;
  if (topLevel) rt.tracer?.startTrace();
  let failure: { message: string } | undefined;
  let thrown: unknown;
  try {
    startAgentSpan(rt, state.currentAgent);
    rt.emit({ type: 'agent_updated_stream_event', agent: state.currentAgent });
    // Resuming a final output whose session write failed: only that write is left to do.
    if (state.hasFinalOutput) return await complete(rt);
    // Stopped while its output guardrails judged a final output: judge it again (no model call).
    if (!state.pendingTurn && state.finalOutput !== undefined)
      return await finish(rt, state.finalOutput, trailingToolOutputIds(state));
    for (;;) {
      const { maxTurns } = state;
      if (!state.pendingTurn && maxTurns !== null && state.currentTurn >= maxTurns) {
        // A handler returning `undefined` keeps the error (as in openai-agents-js).
        const handler = rt.options.errorHandlers?.maxTurns;
        const handled =
          handler && (await untilAborted(() => handler(state.context, { maxTurns }), rt.signal));
        if (handled === undefined) throw new MaxTurnsExceededError(maxTurns);
        const output = handledOutput('maxTurns', handled);
        // No empty assistant message for an output without text (`undefined`, a function).
        const text =
          handled.includeInHistory === false
            ? undefined
            : typeof output === 'string'
              ? output
              : historyText(output);
        if (text) {
          const item: RunItem<AnyAgent> = {
            type: 'message_output_item',
            agent: state.currentAgent,
            raw_item: assistantMessage(text),
          };
          appendItems(rt, [item]);
          rt.emit(itemEvent(item));
        }
        return await finish(rt, output);
      }
      const step = await runTurn(rt);
      rt.lastStep = step.type;
      if (rt.turnSpan) rt.tracer!.endSpan(rt.turnSpan);
      rt.turnSpan = undefined;
      const budgetLeft = rt.turnBudget === undefined || --rt.turnBudget > 0;
      if (step.type === 'run_again') {
        if (budgetLeft) continue;
        return state;
      }
      if (step.type === 'interruption') {
        if (rt.agentSpan)
          (rt.agentSpan.data as AgentSpanData).interruptions = spanInterruptions(rt);
        return state;
      }
      if (step.type === 'final_output') return await finish(rt, step.output, step.toolCallIds);
      endSpans(rt);
      state.currentAgent = step.newAgent;
      state.agentStarted = false;
      if (!budgetLeft) return state;
      startAgentSpan(rt, step.newAgent);
      rt.emit({ type: 'agent_updated_stream_event', agent: step.newAgent });
    }
  } catch (error) {
    const final =
      rt.signal?.aborted && !RunAbortedError.isInstance(error)
        ? toAbortError(rt.signal, error)
        : nonErrorThrown(
            error,
            'Code the run called (a custom model, a tool error function or a tool guardrail)',
          );
    failure = { message: final instanceof Error ? final.message : String(final) };
    thrown = final;
    // Every Baton error carries the state it stopped in (resumable after e.g. a model outage).
    if (BatonError.isInstance(final)) (final as { state?: unknown }).state ??= state;
    if (final instanceof MaxTurnsExceededError || final instanceof RunAbortedError)
      final.history = replayableHistory(state);
    throw final;
  } finally {
    endSpans(rt, failure);
    const outcome: RunOutcome = failure
      ? { type: 'error', error: thrown }
      : state.hasFinalOutput
        ? { type: 'final_output' }
        : state.interruptions.length > 0
          ? { type: 'interruption' }
          : { type: 'step' };
    state.inUse = false;
    await teardownAgents(rt, outcome);
    if (topLevel) rt.tracer?.endTrace();
  }
}

async function finish(
  rt: RunRuntime,
  output: unknown,
  toolCallIds?: string[],
): Promise<RunState<any, AnyAgent>> {
  const { state } = rt;
  const agent = state.currentAgent;
  // Kept before the guardrails run and the session write, so a run stopped during either
  // resumes from this output: guardrails again, or the write alone (no second model call).
  state.finalOutput = output;
  await runOutputGuardrails(rt, agent, output, toolCallIds).catch((error) => {
    // Tripped: a resume asks the model; aborted or crashed (GuardrailExecutionError): judged again.
    if (!rt.signal?.aborted && !GuardrailExecutionError.isInstance(error))
      state.finalOutput = undefined;
    throw error;
  });
  state.hasFinalOutput = true;
  return complete(rt);
}

/**
 * The calls whose outputs end the generated items (a final output `toolUseBehavior` made from
 * them; a model's final message ends the items otherwise), for a resume that judges it again.
 */
function trailingToolOutputIds(state: RunState<any, AnyAgent>): string[] | undefined {
  // Tools never end a run_llm_again agent's run: its output came from a maxTurns handler.
  if (state.currentAgent.toolUseBehavior === 'run_llm_again') return undefined;
  const ids: string[] = [];
  for (let i = state.generatedItems.length - 1; i >= 0; i--) {
    const item = state.generatedItems[i];
    if (item.type !== 'tool_call_output_item') break;
    // Hosted approval answers of the turn follow its function call outputs.
    if (item.raw_item.type === 'function_call_output') ids.push(item.raw_item.call_id);
  }
  return ids.length > 0 ? ids.reverse() : undefined;
}

async function complete(rt: RunRuntime): Promise<RunState<any, AnyAgent>> {
  const { state } = rt;
  const agent = state.currentAgent;
  await saveNewItemsToSession(rt); // only an output that passed the guardrails is stored
  state.endHooksPending = true; // a state stopped in one (an abort) resumes to call them
  await callHooks(rt, agent, 'onAgentEnd', state.context, agent, state.finalOutput);
  state.endHooksPending = undefined;
  return state;
}

/** A maxTurns handler's non-string output as the assistant text put into the history. */
function historyText(output: unknown): string | undefined {
  try {
    return JSON.stringify(output);
  } catch (error) {
    throw new UserError(
      `errorHandlers.maxTurns returned a finalOutput that cannot be written to the history as JSON (${describeThrown(error)}). Return a string or a JSON value, or return { finalOutput, includeInHistory: false }.`,
      { cause: error },
    );
  }
}
