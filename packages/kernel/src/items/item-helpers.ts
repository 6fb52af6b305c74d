/** Pure helpers over transcript items. None of them mutates its input. */
import type { AgentInput, Item, MessageItem } from './item-types.js';

/** A user message item with plain text content. */
export function userMessage(text: string): MessageItem {
  return { type: 'message', role: 'user', content: text };
}

/** An assistant message item with one `output_text` part. */
export function assistantMessage(text: string): MessageItem {
  return {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text }],
    status: 'completed',
  };
}

/**
 * Normalizes run input: a string becomes one user message; a list is used as is (not copied —
 * the run never mutates it, and the caller must not mutate it while the run is in progress).
 */
export function toInputList(input: AgentInput): Item[] {
  return typeof input === 'string' ? [userMessage(input)] : input;
}

/**
 * The text of a message: a string content as is, or the concatenated `output_text` /
 * `input_text` parts. Refusals are not text (see {@link extractRefusal}).
 */
export function extractText(item: MessageItem): string {
  if (typeof item.content === 'string') return item.content;
  let text = '';
  for (const part of item.content) {
    if (part.type === 'output_text' || part.type === 'input_text') text += part.text;
  }
  return text;
}

/** The refusal text of an assistant message, if it has a `refusal` part. */
export function extractRefusal(item: MessageItem): string | undefined {
  if (typeof item.content === 'string') return undefined;
  for (const part of item.content) if (part.type === 'refusal') return part.refusal;
  return undefined;
}

/**
 * An item as it may be sent back as input: a shallow copy without `status` (a field the
 * Responses API accepts but other APIs do not need). Everything else is kept.
 */
export function toInputItem(item: Item): Item {
  if (!('status' in item)) return item;
  const { status: _status, ...rest } = item as Item & { status?: unknown };
  return rest as Item;
}

/** Call item types a local tool answers, with the item type of their outputs (paired by `call_id`). */
const CALL_OUTPUTS: Record<string, string> = {
  function_call: 'function_call_output',
  computer_call: 'computer_call_output',
  shell_call: 'shell_call_output',
  local_shell_call: 'local_shell_call_output',
  apply_patch_call: 'apply_patch_call_output',
  custom_tool_call: 'custom_tool_call_output',
};
const OUTPUT_TYPES = new Set(Object.values(CALL_OUTPUTS));
const callIdOf = (it: Item): string | undefined => {
  const id = (it as { call_id?: unknown }).call_id;
  return typeof id === 'string' ? id : undefined;
};

/** The `call_id` of a call item that needs an output (`function_call`, `shell_call`, …), else `undefined`. */
export function pendingCallId(it: Item): string | undefined {
  return it.type in CALL_OUTPUTS ? callIdOf(it) : undefined;
}

/** The `call_id` an output item answers (`function_call_output`, `shell_call_output`, …), else `undefined`. */
export function outputCallIdOf(it: Item): string | undefined {
  return OUTPUT_TYPES.has(it.type) ? callIdOf(it) : undefined;
}

/**
 * Removes calls without an output and outputs without a call (function calls and the native
 * call items of `CALL_OUTPUTS`, paired by `call_id`), so the list can be sent to any model API
 * (ARCHITECTURE invariant 5). A reasoning item directly before a removed call is removed with
 * it: reasoning stays with the item that followed it.
 */
export function dropOrphanCalls(items: readonly Item[]): Item[] {
  const calls = new Set<string>();
  const outputs = new Set<string>();
  for (const it of items) {
    const call = pendingCallId(it);
    if (call !== undefined) calls.add(call);
    else {
      const out = outputCallIdOf(it);
      if (out !== undefined) outputs.add(out);
    }
  }
  const out: Item[] = [];
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const call = pendingCallId(it);
    if (call !== undefined && !outputs.has(call)) {
      if (out.length > 0 && out[out.length - 1].type === 'reasoning') out.pop();
      continue;
    }
    const answered = outputCallIdOf(it);
    if (answered !== undefined && !calls.has(answered)) continue;
    out.push(it);
  }
  return out;
}

/**
 * Trims a history window (e.g. the newest N session items) to a clean start: outputs whose
 * call is outside it, and calls whose output is, are dropped (as `dropOrphanCalls`).
 */
export const trimToCleanStart: (items: readonly Item[]) => Item[] = dropOrphanCalls;
