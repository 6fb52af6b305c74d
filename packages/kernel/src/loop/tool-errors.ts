/**
 * What the developer sees of a tool error the model saw only as text (invariant 7): the run's
 * `logger` (or `console` with `BATON_DEBUG` set) and the function span's error data — the class
 * always, the message and stack when the run includes sensitive data.
 */
import type { FunctionCallItem } from '../items/item-types.js';
import type { FunctionTool } from '../tool/tool.js';
import type { RunRuntime } from './run-runtime.js';

type Env = { process?: { env?: Record<string, string | undefined> } };

/** Logs the error the model was shown as `text`; returns the function span's error. */
export function recordToolError(
  rt: RunRuntime,
  tool: FunctionTool,
  call: FunctionCallItem,
  error: unknown,
  text: string,
): { message: string; data: Record<string, unknown> } {
  const debug = (globalThis as Env).process?.env?.BATON_DEBUG;
  const logger = rt.options.logger ?? (debug && !/^(0|false)$/i.test(debug) ? console : undefined);
  logger?.warn(
    `[baton] tool "${tool.name}" (call ${call.call_id}) failed; the model was shown: ${JSON.stringify(text)}. The error:`,
    error,
  );
  const real = error instanceof Error ? error : undefined;
  const data: Record<string, unknown> = { type: real ? real.constructor.name : typeof error };
  if (rt.tracer?.includeSensitiveData)
    Object.assign(data, { message: real ? real.message : String(error), stack: real?.stack });
  return { message: text, data };
}
