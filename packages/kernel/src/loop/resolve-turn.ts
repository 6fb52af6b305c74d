/**
 * Classifies a model response into run items (messages, reasoning, tool calls, handoff calls,
 * hosted items) and decides the final output. Pure over its inputs except for `toolNotFound`.
 * A call of a tool the agent does not have is a pending call like the others (with
 * `toolNotFound: 'return_error_to_model'`): its error output is made with the turn's tools.
 */
import { ModelBehaviorError, UserError } from '../errors/errors.js';
import { extractRefusal, extractText } from '../items/item-helpers.js';
import type { FunctionCallItem, Item, MessageItem } from '../items/item-types.js';
import type { RunItem } from '../items/run-items.js';
import type { ModelResponse } from '../model/model.js';
import type { PendingTurn } from '../run-state/run-state.js';
import type { TurnPlan } from './prepare-turn.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';
import { untilAborted } from './until-aborted.js';

/** A classified response. `pending` is what side effects must still happen this turn. */
export interface ProcessedResponse {
  items: RunItem<AnyAgent>[];
  pending: PendingTurn;
  lastMessage?: MessageItem;
}

const NO_IDS: ReadonlySet<string> = new Set<string>();
const callIn = (items: RunItem<AnyAgent>[], callId: string) =>
  items.some((i) => i.raw_item.type === 'function_call' && i.raw_item.call_id === callId);

/**
 * Whether `callId` was used already: in the input (a set made on first use, none when the
 * input has no calls), an earlier turn, or earlier in this response (`items`).
 */
function usedCallId(rt: RunRuntime, callId: string, items: RunItem<AnyAgent>[]): boolean {
  if (!rt.seenCallIds) {
    const ids = rt.state.originalInput.flatMap((i) =>
      i.type === 'function_call' ? i.call_id : [],
    );
    rt.seenCallIds = ids.length > 0 ? new Set(ids) : NO_IDS;
  }
  return (
    rt.seenCallIds.has(callId) || callIn(rt.state.generatedItems, callId) || callIn(items, callId)
  );
}

/**
 * Turns the response into run items. Function calls without a `call_id` get the deterministic
 * id `t{turn}.{index}`. Only the first handoff is taken; the others are answered later.
 * @throws ModelBehaviorError for an unknown tool when the run's `toolNotFound` is `'raise'`.
 */
export function processResponse(
  rt: RunRuntime,
  plan: TurnPlan,
  response: ModelResponse,
): ProcessedResponse {
  const agent = plan.agent;
  const items: RunItem<AnyAgent>[] = [];
  const pending: PendingTurn = { functionCalls: [], ignoredHandoffCalls: [] };
  let lastMessage: MessageItem | undefined;
  const output = response.output;
  for (let index = 0; index < output.length; index++) {
    let item: Item = output[index];
    switch (item.type) {
      case 'message':
        if (item.role === 'assistant') lastMessage = item;
        items.push({ type: 'message_output_item', agent, raw_item: item });
        break;
      case 'reasoning':
        items.push({ type: 'reasoning_item', agent, raw_item: item });
        break;
      case 'function_call': {
        // Some servers send no call id, or one per turn: every call is answered once (inv. 2, 5).
        if (!item.call_id || usedCallId(rt, item.call_id, items))
          item = { ...item, call_id: `t${rt.state.currentTurn}.${index}` };
        const call = item as FunctionCallItem;
        if (plan.handoffs.has(call.name)) {
          items.push({ type: 'handoff_call_item', agent, raw_item: call });
          if (pending.handoffCall) pending.ignoredHandoffCalls.push(call);
          else pending.handoffCall = call;
        } else {
          if (
            !plan.functionTools.has(call.name) &&
            (rt.options.toolNotFound ?? 'raise') === 'raise'
          )
            throw new ModelBehaviorError(
              `The model called tool "${call.name}", which agent "${agent.name}" does not have. Check the agent's tools, or run with toolNotFound: 'return_error_to_model'.`,
              { toolName: call.name },
            );
          items.push({ type: 'tool_call_item', agent, raw_item: call });
          pending.functionCalls.push(call);
        }
        break;
      }
      case 'mcp_approval_request':
        // A hosted MCP call the server runs only once it is approved (see hosted-approvals.ts).
        items.push({ type: 'tool_call_item', agent, raw_item: item });
        pending.hostedApprovalRequests = [...(pending.hostedApprovalRequests ?? []), item];
        break;
      default: {
        // A provider's own call item of a tool offered natively: run as a call of that tool.
        const native = plan.nativeCalls.get(item.type);
        const callId = (item as { call_id?: unknown }).call_id;
        if (native && typeof callId === 'string' && callId !== '') {
          const args = JSON.stringify(item);
          pending.functionCalls.push({
            type: 'function_call',
            call_id: callId,
            name: native.name,
            arguments: args,
          });
        }
        // Hosted-tool items (web_search_call, mcp_call, compaction, …) pass through.
        items.push({ type: 'tool_call_item', agent, raw_item: item as any });
      }
    }
  }
  return { items, pending, lastMessage };
}

/**
 * The `{ finalOutput }` an error handler returned (one returning `undefined` keeps the error).
 * @throws UserError for anything else.
 */
export function handledOutput(name: string, handled: unknown): unknown {
  if (!handled || typeof handled !== 'object' || !('finalOutput' in handled))
    throw new UserError(`errorHandlers.${name} must return { finalOutput }.`);
  return handled.finalOutput;
}

/**
 * The final output of a message: plain text, or parsed JSON validated against the agent's
 * output type. A refusal goes to `errorHandlers.modelRefusal` when the run has one (else a
 * structured output refused is invalid); invalid output to `errorHandlers.invalidFinalOutput`.
 * @throws ModelBehaviorError (with `rawText`) when the output is invalid and no handler takes it.
 */
export async function finalOutputOf(
  rt: RunRuntime,
  plan: TurnPlan,
  message: MessageItem,
): Promise<unknown> {
  const handlers = rt.options.errorHandlers ?? {};
  const ctx = rt.state.context;
  const text = extractText(message);
  const refusal = text === '' ? extractRefusal(message) : undefined;
  const { modelRefusal, invalidFinalOutput } = handlers;
  const refused =
    refusal === undefined || !modelRefusal
      ? undefined
      : await untilAborted(() => modelRefusal(ctx, { refusal }), rt.signal);
  if (refused !== undefined) return handledOutput('modelRefusal', refused);
  if (!plan.outputSchema) return text;
  const agent = `Agent "${plan.agent.name}"`;
  const invalid = async (rawText: string, message: string) => {
    const handled =
      invalidFinalOutput &&
      (await untilAborted(() => invalidFinalOutput(ctx, { rawText, message }), rt.signal));
    if (handled === undefined) throw new ModelBehaviorError(message, { rawText });
    return handledOutput('invalidFinalOutput', handled);
  };
  if (refusal !== undefined)
    return invalid(
      refusal,
      `${agent}: the model refused to produce the structured output: ${refusal}`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return invalid(
      text,
      `${agent}: the final output is not valid JSON (${(e as Error).message}). Raw text is on error.rawText.`,
    );
  }
  const result = await plan.outputSchema.validate(value);
  if (result.ok) return result.value;
  return invalid(
    text,
    `${agent}: the final output does not match its outputType:\n${result.message}`,
  );
}
