/**
 * Native call items (see `NativeToolCall`): the view of a function tool that the loop runs for a
 * provider's own call items, and the output item it answers with.
 */
import type { FunctionCallItem, HostedItem, Item } from '../items/item-types.js';
import type { FunctionTool } from './tool.js';

const VIEW = Symbol('baton.nativeCallView');

/**
 * The tool as the loop runs it for `tool.native.callType` items: the synthetic function call's
 * `arguments` is the call item's JSON, which is what approvals, guardrails and `execute` see.
 */
export function nativeCallView(tool: FunctionTool): FunctionTool {
  const native = tool.native!;
  return {
    ...tool,
    [VIEW]: true,
    parseArguments: (json: string) => {
      try {
        const item = JSON.parse(json);
        if (item?.type === native.callType) return { ok: true, value: item };
      } catch {}
      return { ok: false, message: `Invalid ${native.callType} item for tool "${tool.name}".` };
    },
    needsApproval: (ctx, item, callId) =>
      native.needsApproval
        ? native.needsApproval(ctx, item)
        : tool.needsApproval(ctx, item, callId),
    execute: (item, ctx, details) => native.execute(item as HostedItem, ctx, details),
  } as FunctionTool;
}

/** The native output item of a call run through a {@link nativeCallView}, else `undefined`. */
export function nativeOutput(
  tool: FunctionTool | undefined,
  call: FunctionCallItem,
  value: unknown,
  ok: boolean,
): Item | undefined {
  if (!tool || !(tool as { [VIEW]?: boolean })[VIEW]) return undefined;
  return tool.native!.toOutput(JSON.parse(call.arguments), value, ok);
}

/**
 * The tool type `toolErrorFormatter` is told (as in openai-agents-js): the native kind of a call
 * run natively (`shell_call` items → `'shell'`), else `'function'`.
 */
export function nativeToolType(tool: FunctionTool | undefined): string {
  const native = tool && (tool as { [VIEW]?: boolean })[VIEW] ? tool.native : undefined;
  return native ? native.callType.replace(/_call$/, '') : 'function';
}
