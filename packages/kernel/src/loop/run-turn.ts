/**
 * The step function: one turn = one model call → classification → side effects → `NextStep`.
 * A paused turn resumes at its side effects without calling the model again (invariant 3).
 */
import { UserError } from '../errors/errors.js';
import type { MessageItem } from '../items/item-types.js';
import type { ModelRequest, ModelResponse } from '../model/model.js';
import type { PendingTurn } from '../run-state/run-state.js';
import type { TurnSpanData } from '../tracing/span-types.js';
import { callHooks } from './call-hooks.js';
import { callModel } from './call-model.js';
import { executeHandoff, IGNORED_HANDOFF_TEXT } from './execute-handoff.js';
import { executeFunctionCalls } from './execute-tools.js';
import { decideHostedApprovals } from './hosted-approvals.js';
import type { NextStep } from './next-step.js';
import { prepareTurn, type TurnPlan } from './prepare-turn.js';
import { finalOutputOf, processResponse } from './resolve-turn.js';
import { runInputGuardrails, startParallelInputGuardrails } from './run-guardrails.js';
import {
  appendItems,
  currentModelInput,
  isAnswered,
  itemEvent,
  outputItem,
  type RunRuntime,
} from './run-runtime.js';
import { saveInputToSession, saveNewItemsToSession } from './session-io.js';
import { decideToolUseFinalOutput } from './tool-use-behavior.js';
import { checkAborted, untilAborted } from './until-aborted.js';

/** `request.tracing` of every untraced call (one shared, frozen object). */
const UNTRACED = Object.freeze({ enabled: false, includeSensitiveData: false });
const RUN_AGAIN: NextStep = Object.freeze({ type: 'run_again' }); // shared: only read

function emitSince(rt: RunRuntime, from: number): void {
  const items = rt.state.generatedItems;
  for (let i = from; i < items.length; i++) rt.emit(itemEvent(items[i]));
}

/**
 * The assistant message a paused turn ended with (reasoning after it skipped): a turn stopped
 * before its final output was taken resumes with it as the candidate, not with a model call.
 */
function trailingMessage(rt: RunRuntime): MessageItem | undefined {
  const items = rt.state.generatedItems;
  let i = items.length - 1;
  while (i >= 0 && items[i].type === 'reasoning_item') i--;
  const raw = items[i]?.raw_item as MessageItem | undefined;
  return items[i]?.type === 'message_output_item' && raw?.role === 'assistant' ? raw : undefined;
}

/** Runs one turn of the current agent and returns what comes next. */
export async function runTurn(rt: RunRuntime): Promise<NextStep> {
  const { state } = rt;
  const agent = state.currentAgent;
  checkAborted(rt.signal);
  rt.turnStartIndex = state.generatedItems.length;
  const { pendingTurn } = state;
  if (!pendingTurn && !state.agentStarted) {
    // Marked once the hooks returned: a run stopped in one (an abort) calls them again on resume.
    await callHooks(rt, agent, 'onAgentStart', state.context, agent);
    state.agentStarted = true;
  }
  // A paused turn resumes as the turn it was (its model call is not made again).
  const turn = pendingTurn ? state.currentTurn : state.currentTurn + 1;
  const data: TurnSpanData | false = !!rt.tracer && { kind: 'turn', turn, agentName: agent.name };
  if (data) rt.turnSpan = rt.tracer!.startSpan(data, rt.agentSpan); // no span data untraced
  const plan = await prepareTurn(rt, agent);
  if (pendingTurn) return finishTurn(rt, plan, pendingTurn, trailingMessage(rt));
  let input = currentModelInput(rt);
  for (const cap of plan.prepared.capabilities) {
    const run = plan.prepared.capabilityRun!;
    if (cap.processInput)
      input = await untilAborted(() => cap.processInput!(input, run), rt.signal);
  }
  let systemInstructions = plan.systemInstructions;
  const inputFilter = rt.options.callModelInputFilter;
  if (inputFilter) {
    const data = { systemInstructions, input: input.slice() };
    const filtered = await untilAborted(() => inputFilter(data, state.context), rt.signal);
    if (!Array.isArray(filtered?.input))
      throw new UserError(
        'callModelInputFilter must return { input: Item[], systemInstructions? }.',
      );
    input = filtered.input;
    systemInstructions = filtered.systemInstructions;
  }
  const firstTurn = state.currentTurn === 0 && agent === state.startingAgent;
  const guardrails = firstTurn
    ? [...agent.inputGuardrails, ...(rt.options.inputGuardrails ?? [])]
    : [];
  // A first turn made again (its model call was aborted) judges its input afresh.
  if (firstTurn) state.inputGuardrailResults = [];
  const blocking = guardrails.filter((g) => !g.runInParallel);
  if (blocking.length > 0) await runInputGuardrails(rt, agent, blocking);
  const parallel = guardrails.filter((g) => g.runInParallel);
  // The new input is stored before the model call — or, while parallel guardrails still
  // judge it, once they all passed (a blocked prompt never reaches the session).
  if (parallel.length === 0) await saveInputToSession(rt);
  const racing =
    parallel.length > 0 ? startParallelInputGuardrails(rt, agent, parallel) : undefined;
  const signal = racing?.signal ?? rt.signal;
  const parallelDone = racing?.done;
  const conv = state.serverConversation;
  const request: ModelRequest = {
    systemInstructions,
    input: conv ? input.slice(conv.sentCount) : input,
    tools: plan.toolDefinitions,
    outputSchema: plan.outputSchema
      ? {
          name: plan.outputSchema.name,
          schema: plan.outputSchema.schema,
          strict: plan.outputSchema.strict,
        }
      : undefined,
    modelSettings: plan.modelSettings,
    signal,
    previousResponseId: conv?.previousResponseId,
    conversationId: conv?.conversationId,
    promptCacheKey: rt.promptCacheKey,
    prompt: plan.prompt,
    tracing: !rt.tracer
      ? UNTRACED
      : { enabled: true, includeSensitiveData: rt.tracer.includeSensitiveData },
  };
  // Continued by callbacks, not an await: while the model works, the turn holds no frame (S8).
  return callModel(rt, plan, request).then(
    (response) => answered(rt, plan, response, parallelDone),
    parallelDone &&
      (async (error) => {
        await parallelDone;
        throw error;
      }),
  );
}

/** The rest of a turn once the model answered. */
async function answered(
  rt: RunRuntime,
  plan: TurnPlan,
  response: ModelResponse,
  parallelDone: Promise<unknown> | undefined,
): Promise<NextStep> {
  const { state } = rt;
  const conv = state.serverConversation;
  if (parallelDone) {
    await parallelDone;
    await saveInputToSession(rt);
  }
  // Counted once answered and judged: a call that failed or was aborted (also while its
  // parallel input guardrails judged) is made again on resume, as the same (first) turn — its
  // input guardrails and input write still to come.
  state.currentTurn++;
  const processed = processResponse(rt, plan, response);
  const from = state.generatedItems.length;
  appendItems(rt, processed.items);
  if (conv) {
    conv.sentCount = currentModelInput(rt).length;
    // Whenever the run chains responses, the next call chains to the latest one (a call that
    // chained to an older one would fork: the server would not know the calls answered now).
    const chaining = conv.auto || conv.previousResponseId !== undefined;
    if (chaining && !conv.conversationId && response.responseId)
      conv.previousResponseId = response.responseId;
  }
  emitSince(rt, from);
  return finishTurn(rt, plan, processed.pending, processed.lastMessage);
}

/** Side effects of a turn (also the resume point of a paused turn). */
async function finishTurn(
  rt: RunRuntime,
  plan: TurnPlan,
  pending: PendingTurn,
  lastMessage: MessageItem | undefined,
): Promise<NextStep> {
  const { state } = rt;
  const agent = plan.agent;
  const from = state.generatedItems.length;
  // This turn's side effects are pending until they all happened: a failure (abort, fatal
  // tool error) leaves a state that resumes here, keeping the outputs of calls that finished.
  state.pendingTurn = pending;
  checkAborted(rt.signal);
  const exec = await executeFunctionCalls(rt, plan, pending.functionCalls);
  appendItems(rt, exec.outputs);
  if (exec.error) {
    emitSince(rt, from);
    throw exec.error.value;
  }
  const hosted = await decideHostedApprovals(rt, plan, pending.hostedApprovalRequests);
  appendItems(rt, hosted.outputs);
  if (pending.functionCalls.length > 0 && !state.agentsUsedTools.includes(agent.name))
    state.agentsUsedTools = state.agentsUsedTools.concat(agent.name); // exact size (S8)
  const approvals = [...exec.approvals, ...hosted.approvals];
  if (approvals.length > 0) {
    emitSince(rt, from);
    state.interruptions = approvals;
    for (const item of approvals) rt.emit(itemEvent(item));
    // Results toolUseBehavior may make a final output of are stored once output guardrails pass.
    const guarded = agent.outputGuardrails.length + (rt.options.outputGuardrails?.length ?? 0);
    if (agent.toolUseBehavior === 'run_llm_again' || !guarded) await saveNewItemsToSession(rt);
    return { type: 'interruption', interruptions: approvals };
  }
  state.interruptions = [];
  for (const call of pending.ignoredHandoffCalls)
    if (!isAnswered(rt, call.call_id))
      appendItems(rt, [outputItem(agent, call.call_id, IGNORED_HANDOFF_TEXT)]);
  let next: NextStep = RUN_AGAIN;
  const handoffCall =
    pending.handoffCall && !isAnswered(rt, pending.handoffCall.call_id)
      ? pending.handoffCall
      : undefined;
  // The turn stays pending while its handoff runs: one that fails before it is recorded (its
  // input filter threw) runs again on resume.
  const target = handoffCall ? await executeHandoff(rt, plan, handoffCall) : undefined;
  if (handoffCall) {
    if (target) next = { type: 'handoff', newAgent: target };
  } else if (exec.toolResults.length > 0) {
    const decided = await decideToolUseFinalOutput(rt, agent, exec.toolResults);
    if (decided)
      next = {
        type: 'final_output',
        output: decided.finalOutput,
        toolCallIds: exec.toolResults.map((r) => r.callId),
      };
  } else if (
    pending.functionCalls.length === 0 &&
    !pending.handoffCall &&
    !pending.hostedApprovalRequests &&
    lastMessage
  ) {
    next = { type: 'final_output', output: await finalOutputOf(rt, plan, lastMessage) };
  }
  // Pending until here: a run stopped while toolUseBehavior or an error handler decided resumes
  // to decide again (not with a model call).
  state.pendingTurn = undefined;
  emitSince(rt, from);
  // A final output is stored once the output guardrails passed (see run-loop finish()).
  if (next.type !== 'final_output')
    await saveNewItemsToSession(rt).catch((error) => {
      // The handoff happened: a resume sends the pending write, then goes on with the new agent.
      if (next.type === 'handoff') {
        state.currentAgent = next.newAgent;
        state.agentStarted = false;
      }
      throw error;
    });
  return next;
}
