/**
 * What the developer sees of a tool that threw, while the model sees only the error-function
 * text (invariant 7): the `onToolError` hooks, the span's error data (class always; message and
 * stack when sensitive data is included) and the run's `logger` (or `console` with
 * `BATON_DEBUG=1`).
 */
import type { FunctionCallItem } from '../items/item-types.js';
import type { FunctionTool } from '../tool/tool.js';
import { callHooks } from './call-hooks.js';
import type { RunLogger } from './run-options.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';

/** The run's logger: the `logger` option, else `console` when `BATON_DEBUG` is set (not 0/false). */
function loggerOf(rt: RunRuntime): RunLogger | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  const debug = env?.BATON_DEBUG;
  return rt.options.logger ?? (debug && !/^(0|false)$/i.test(debug) ? console : undefined);
}

/** Calls the `onToolError` hooks (run hooks, then the agent's). */
export function reportToolError(
  rt: RunRuntime,
  agent: AnyAgent,
  tool: FunctionTool,
  call: FunctionCallItem,
  error: unknown,
): Promise<void> {
  return callHooks(rt, agent, (h) =>
    h.onToolError?.(rt.state.context, agent, tool.name, call, error),
  );
}

/** Logs an error the model was shown as `text`, and returns the function span's error. */
export function recordToolError(
  rt: RunRuntime,
  tool: FunctionTool,
  call: FunctionCallItem,
  error: unknown,
  text: string,
): { message: string; data: Record<string, unknown> } {
  const real = error instanceof Error ? error : undefined;
  loggerOf(rt)?.warn(
    `[baton] tool "${tool.name}" (call ${call.call_id}) failed; the model was shown: ${JSON.stringify(text)}. The error:`,
    error,
  );
  const data: Record<string, unknown> = { type: real ? real.constructor.name : typeof error };
  if (rt.tracer?.includeSensitiveData)
    Object.assign(data, { message: real ? real.message : String(error), stack: real?.stack });
  return { message: text, data };
}
