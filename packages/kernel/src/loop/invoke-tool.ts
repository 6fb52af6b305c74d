/**
 * Invoking one tool: its `details` (idempotency key, attempt, abort signal), the timeout, the
 * span scope for user code, the runner an agent used as a tool needs, the durability wrap; and
 * what the developer sees of its error.
 */
import { type AgentToolRunner, RUN_AGENT_TOOL } from '../agent/as-tool.js';
import { ToolTimeoutError } from '../errors/errors.js';
import type { FunctionCallItem } from '../items/item-types.js';
import { nativeToolType } from '../tool/native-call.js';
import type { FunctionTool, ToolCallDetails } from '../tool/tool.js';
import { withSpanScope } from '../tracing/span-context.js';
import type { Span } from '../tracing/span-types.js';
import type { RunLogger, ToolErrorFormatterArgs } from './run-options.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';
import { linkedController, untilAborted } from './until-aborted.js';

/** Runs the tool's `execute` with its timeout, abort signal and durability wrap. */
export async function invokeTool(
  rt: RunRuntime,
  agent: AnyAgent,
  tool: FunctionTool,
  call: FunctionCallItem,
  args: unknown,
  span: Span | undefined,
  approved: boolean,
): Promise<unknown> {
  const { state } = rt;
  const { controller, unlink } = linkedController(rt.signal);
  const details: ToolCallDetails & { [RUN_AGENT_TOOL]?: AgentToolRunner } = {
    callId: call.call_id,
    toolCall: call,
    agent,
    idempotencyKey: `${state.runId}:${call.call_id}`,
    attempt: 1,
    signal: controller.signal,
  };
  // A symbol key (invisible to JSON.stringify and Object.keys): how an agent tool runs its agent.
  const runAgentTool = rt.runAgentTool;
  if (runAgentTool)
    details[RUN_AGENT_TOOL] = (request) => runAgentTool(rt, call, span, details.signal, request);
  const run = (override?: { attempt?: number }) => {
    if (override?.attempt) details.attempt = override.attempt;
    return Promise.resolve(tool.execute(args, state.context, details));
  };
  const wrap = rt.options.durability?.wrapToolCall;
  const { runId } = state;
  const key = { runId, callId: call.call_id, toolName: tool.name, effect: tool.effect, approved };
  const wrapped = wrap ? () => wrap(key, run) : () => run();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const scoped = () =>
      rt.tracer && span ? withSpanScope({ tracer: rt.tracer, span }, wrapped) : wrapped();
    if (tool.timeoutMs === undefined) return await untilAborted(scoped, rt.signal);
    return await Promise.race([
      untilAborted(scoped, rt.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new ToolTimeoutError(tool.name, call.call_id, tool.timeoutMs!);
          controller.abort(error);
          reject(error);
        }, tool.timeoutMs);
      }),
    ]);
  } finally {
    if (timer) clearTimeout(timer);
    unlink();
  }
}

type Env = { process?: { env?: Record<string, string | undefined> } };

/** The run's `logger`, else `console` when `BATON_DEBUG` is set (and not `0`/`false`). */
function runLogger(rt: RunRuntime): RunLogger | undefined {
  const debug = (globalThis as Env).process?.env?.BATON_DEBUG;
  return rt.options.logger ?? (debug && !/^(0|false)$/i.test(debug) ? console : undefined);
}

/**
 * The text the model sees for a call that cannot run: `toolErrorFormatter`'s string, else
 * `defaultMessage` — also when the formatter throws or returns a non-string (warned on the run's
 * logger), as in openai-agents-js. Not called without a formatter (no await on the hot path).
 */
export async function formatToolError(
  rt: RunRuntime,
  kind: ToolErrorFormatterArgs['kind'],
  call: FunctionCallItem,
  tool: FunctionTool | undefined,
  defaultMessage: string,
): Promise<string> {
  const format = rt.options.toolErrorFormatter;
  if (!format) return defaultMessage;
  const { name: toolName, call_id: callId } = call;
  const args = { kind, toolType: nativeToolType(tool), toolName, callId, defaultMessage };
  let text: unknown;
  try {
    text = await untilAborted(() => format({ ...args, runContext: rt.state.context }), rt.signal);
  } catch (error) {
    if (rt.signal?.aborted) throw error;
    runLogger(rt)?.warn(
      `[baton] toolErrorFormatter threw formatting ${kind}; using the default message:`,
      error,
    );
    return defaultMessage;
  }
  if (typeof text === 'string') return text;
  if (text !== undefined)
    runLogger(rt)?.warn(
      `[baton] toolErrorFormatter returned ${typeof text}, not a string or undefined; using the default message.`,
    );
  return defaultMessage;
}

/**
 * What the developer sees of a tool error the model saw only as text (invariant 7): the run's
 * `logger` (or `console` with `BATON_DEBUG` set) and the function span's error data — the class
 * always, the message and stack when the run includes sensitive data.
 */
export function recordToolError(
  rt: RunRuntime,
  tool: FunctionTool,
  call: FunctionCallItem,
  error: unknown,
  text: string,
): { message: string; data: Record<string, unknown> } {
  runLogger(rt)?.warn(
    `[baton] tool "${tool.name}" (call ${call.call_id}) failed; the model was shown: ${JSON.stringify(text)}. The error:`,
    error,
  );
  const real = error instanceof Error ? error : undefined;
  const data: Record<string, unknown> = { type: real ? real.constructor.name : typeof error };
  if (rt.tracer?.includeSensitiveData)
    Object.assign(data, { message: real ? real.message : String(error), stack: real?.stack });
  return { message: text, data };
}
