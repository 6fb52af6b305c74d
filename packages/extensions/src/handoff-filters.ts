/**
 * Handoff input filters to opt into (the OpenAI Agents SDK's `handoff_filters`); the kernel keeps
 * `nestHandoffHistory`, which its `nestHandoffHistory` run option uses.
 */
import type { HandoffInputFilter, Item } from '@baton/kernel';

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
