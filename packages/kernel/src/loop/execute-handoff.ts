/**
 * Performing a handoff (invariant 4): the handoff output item, `onHandoff`, hooks, the span,
 * and the input filter (which changes only the next agent's view, not `newItems`).
 */
import { UserError } from '../errors/errors.js';
import type { HandoffInputData, HandoffInputFilter } from '../handoff/handoff.js';
import { handoffOutputText } from '../handoff/handoff.js';
import { nestHandoffHistory } from '../handoff/handoff-filters.js';
import type { FunctionCallItem, FunctionCallOutputItem, Item } from '../items/item-types.js';
import { type RunItem, runItemsToInputItems } from '../items/run-items.js';
import type { HandoffSpanData } from '../tracing/span-types.js';
import { callHooks } from './call-hooks.js';
import type { TurnPlan } from './prepare-turn.js';
import { type AnyAgent, appendItems, outputItem, type RunRuntime } from './run-runtime.js';
import { untilAborted } from './until-aborted.js';

/** Output text for handoff calls beyond the first one of a response. */
export const IGNORED_HANDOFF_TEXT = 'Multiple handoffs detected, ignoring this one.';

/**
 * Executes the handoff call. Returns the new agent, or `undefined` when the arguments were
 * invalid (the model sees the error as the call's output and the current agent goes on).
 */
export async function executeHandoff(
  rt: RunRuntime,
  plan: TurnPlan,
  call: FunctionCallItem,
): Promise<AnyAgent | undefined> {
  const { state } = rt;
  const h = plan.handoffs.get(call.name)!;
  const from = plan.agent;
  const target = h.agent as AnyAgent;
  const span = rt.tracer?.startSpan<HandoffSpanData>(
    { kind: 'handoff', from: from.name, to: target.name },
    rt.turnSpan,
  );
  const parsed = await h.parseArguments(call.arguments);
  if (!parsed.ok) {
    appendItems(rt, [outputItem(from, call.call_id, parsed.message)]);
    if (span) rt.tracer!.endSpan(span, { message: 'invalid handoff arguments' });
    return undefined;
  }
  if (h.onHandoff) await untilAborted(() => h.onHandoff!(state.context, parsed.value), rt.signal);
  const raw_item: FunctionCallOutputItem = {
    type: 'function_call_output',
    call_id: call.call_id,
    output: handoffOutputText(target.name),
  };
  const item: RunItem<AnyAgent> = {
    type: 'handoff_output_item',
    agent: from,
    raw_item,
    source_agent: from,
    target_agent: target,
  };
  const { handoffInputFilter, nestHandoffHistory: nest } = rt.options;
  const filter =
    h.inputFilter ??
    handoffInputFilter ??
    (nest && !state.serverConversation ? nestHandoffHistory() : undefined);
  // The filter runs before anything is recorded: if it fails, a resume performs the handoff again.
  const view = filter ? await filteredView(rt, filter, item) : undefined;
  appendItems(rt, [item]);
  if (view) useView(rt, view);
  try {
    await callHooks(rt, target, 'onHandoff', state.context, from, target);
  } catch (error) {
    // The handoff is recorded: a resume goes on with the new agent (the turn is done).
    state.pendingTurn = undefined;
    state.currentAgent = target;
    state.agentStarted = false;
    throw error;
  }
  if (span) rt.tracer!.endSpan(span);
  return target;
}

/** The next agent's view: the filter's result over the history, with the handoff `item` last. */
async function filteredView(
  rt: RunRuntime,
  filter: HandoffInputFilter,
  item: RunItem<AnyAgent>,
): Promise<Item[]> {
  const { state } = rt;
  if (state.serverConversation)
    throw new UserError(
      'A handoff inputFilter cannot be used with a server-managed conversation (previousResponseId / conversationId): the server owns the history.',
    );
  const base = state.modelInputOverride;
  const inputHistory: Item[] = base ? base.items.slice() : state.originalInput.slice();
  const from = base ? base.fromGeneratedIndex : 0;
  const data: HandoffInputData = {
    inputHistory,
    preHandoffItems: state.generatedItems.slice(from, rt.turnStartIndex),
    newItems: [...state.generatedItems.slice(Math.max(from, rt.turnStartIndex)), item],
    runContext: state.context,
  };
  const filtered = await untilAborted(() => filter(data), rt.signal);
  return [
    ...filtered.inputHistory,
    ...runItemsToInputItems(filtered.preHandoffItems),
    ...runItemsToInputItems(filtered.newItems),
  ];
}

/** Makes `view` the model input from here on (items recorded after now are appended to it). */
function useView(rt: RunRuntime, view: Item[]): void {
  rt.state.modelInputOverride = {
    items: view.slice(),
    fromGeneratedIndex: rt.state.generatedItems.length,
  };
  rt.modelInput = view;
  rt.modelInputOwned = true;
  rt.pendingModelItems = [];
}
