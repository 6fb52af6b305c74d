/** The kernel's own handoff input filter, behind the `nestHandoffHistory` run option. */
import { extractText } from '../items/item-helpers.js';
import type { Item, MessageItem } from '../items/item-types.js';
import type { RunItem } from '../items/run-items.js';
import type { HandoffInputData, HandoffInputFilter } from './handoff.js';

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
