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

/**
 * Removes function calls without an output and outputs without a call, so the list can be
 * sent to any model API (ARCHITECTURE invariant 5). A reasoning item directly before a removed
 * call is removed with it: reasoning stays with the item that followed it.
 */
export function dropOrphanCalls(items: readonly Item[]): Item[] {
  const calls = new Set<string>();
  const outputs = new Set<string>();
  for (const it of items) {
    if (it.type === 'function_call') calls.add(it.call_id);
    else if (it.type === 'function_call_output') outputs.add(it.call_id);
  }
  const out: Item[] = [];
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.type === 'function_call' && !outputs.has(it.call_id)) {
      if (out.length > 0 && out[out.length - 1].type === 'reasoning') out.pop();
      continue;
    }
    if (it.type === 'function_call_output' && !calls.has(it.call_id)) continue;
    out.push(it);
  }
  return out;
}

/**
 * Trims the start of a history window (e.g. the newest N session items) to a clean boundary:
 * outputs whose call is outside the window, and calls whose output is, are dropped (with a
 * reasoning item right before such a call), so the model never sees an orphan first.
 */
export function trimToCleanStart(items: readonly Item[]): Item[] {
  return dropOrphanCalls(items);
}
