/** Common handoff input filters (OpenAI Agents SDK `handoff_filters`). */
import { extractText } from '../items/item-helpers.js';
import type { Item, MessageItem } from '../items/item-types.js';
import type { RunItem } from '../items/run-items.js';
import type { HandoffInputData, HandoffInputFilter } from './handoff.js';

const TOOL_ITEM_TYPES = new Set([
  'function_call',
  'function_call_output',
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'computer_call',
  'computer_call_output',
  'mcp_call',
  'mcp_list_tools',
  'hosted_tool_call',
]);
const TOOL_RUN_ITEMS = new Set([
  'tool_call_item',
  'tool_call_output_item',
  'handoff_call_item',
  'handoff_output_item',
  'tool_approval_item',
]);

/** Removes every tool call, tool output and handoff item from the next agent's view. */
export const removeAllTools: HandoffInputFilter = (data) => ({
  ...data,
  inputHistory: data.inputHistory.filter((i) => !TOOL_ITEM_TYPES.has(i.type)),
  preHandoffItems: data.preHandoffItems.filter((i) => !TOOL_RUN_ITEMS.has(i.type)),
  newItems: data.newItems.filter((i) => !TOOL_RUN_ITEMS.has(i.type)),
});

/**
 * Keeps only the last `n` items of the next agent's view (input history first, then earlier
 * turns, then the handing-off turn), never starting with an output whose call was cut off.
 */
export function keepLastN(n: number): HandoffInputFilter {
  return (data) => {
    const total = data.inputHistory.length + data.preHandoffItems.length + data.newItems.length;
    let drop = Math.max(0, total - n);
    const cut = <T>(list: T[]): T[] => {
      const d = Math.min(drop, list.length);
      drop -= d;
      return list.slice(d);
    };
    const inputHistory = cut(data.inputHistory);
    const preHandoffItems = cut(data.preHandoffItems);
    const newItems = cut(data.newItems);
    const calls = new Set<string>();
    const known = (item: Item) => {
      if (item.type === 'function_call') calls.add(item.call_id);
      return item.type !== 'function_call_output' || calls.has(item.call_id);
    };
    return {
      ...data,
      inputHistory: inputHistory.filter(known),
      preHandoffItems: preHandoffItems.filter(
        (i) => i.type === 'tool_approval_item' || known(i.raw_item),
      ),
      newItems: newItems.filter((i) => i.type === 'tool_approval_item' || known(i.raw_item)),
    };
  };
}

function describe(item: Item): string | undefined {
  switch (item.type) {
    case 'message':
      return `${item.role}: ${extractText(item as MessageItem)}`;
    case 'function_call':
      return `tool call ${item.name}(${item.arguments})`;
    case 'function_call_output':
      return `tool output: ${typeof item.output === 'string' ? item.output : JSON.stringify(item.output)}`;
    case 'reasoning':
      return undefined;
    default:
      return `${item.type}`;
  }
}

/** Default mapper of `nestHandoffHistory`: a text transcript in one developer-visible message. */
export function defaultHistoryMapper(items: Item[]): Item[] {
  const lines = items.map(describe).filter((l): l is string => l !== undefined);
  return [
    {
      type: 'message',
      role: 'user',
      content: `<conversation_history>\n${lines.join('\n')}\n</conversation_history>`,
    },
  ];
}

/**
 * Folds everything before the handoff into one summary message (a text transcript), so the
 * next agent starts from a compact view. `mapper` can replace the summary.
 */
export function nestHandoffHistory(
  options: { mapper?: (items: Item[]) => Item[] } = {},
): HandoffInputFilter {
  const mapper = options.mapper ?? defaultHistoryMapper;
  return (data: HandoffInputData) => {
    const all: Item[] = [...data.inputHistory];
    const raw = (list: RunItem[]) =>
      list.filter((i) => i.type !== 'tool_approval_item').map((i) => i.raw_item as Item);
    all.push(...raw(data.preHandoffItems), ...raw(data.newItems));
    return { ...data, inputHistory: mapper(all), preHandoffItems: [], newItems: [] };
  };
}
