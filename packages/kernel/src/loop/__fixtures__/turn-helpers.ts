/** Helpers of the turn and run-end detail tests. */
import type { FunctionCallOutputItem, Item } from '../../items/item-types.js';
import { tool } from '../../tool/tool.js';

export const user = (content: string): Item => ({ type: 'message', role: 'user', content });

export const outputsOf = (input: Item[]) =>
  input.filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output');

/** A tool `name` that counts its runs per call id in `runs`. */
export function counter(name: string, runs: Record<string, number>, needsApproval = false) {
  return tool({
    name,
    description: '',
    needsApproval,
    execute: (_a, _c, { callId }) => {
      runs[callId] = (runs[callId] ?? 0) + 1;
      return `${name} ran`;
    },
  });
}
