/**
 * One function call through the loop's tool machinery, outside a model turn: for plugins that
 * drive their own conversation (a realtime session answering the model's calls as they come).
 */
import type { RunHooks } from '../agent/hooks.js';
import type { FunctionCallItem, FunctionCallOutputItem } from '../items/item-types.js';
import type { ToolApprovalRunItem } from '../items/run-items.js';
import type { RunState } from '../run-state/run-state.js';
import type { FunctionTool } from '../tool/tool.js';
import type { Span } from '../tracing/span-types.js';
import type { Tracer } from '../tracing/tracer.js';
import { executeFunctionCalls } from './execute-tools.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';

/** What {@link runToolCall} runs. */
export interface ToolCallRequest<TContext = any> {
  /** Holds the context, the approval decisions and the tool-guardrail results. */
  state: RunState<TContext, AnyAgent>;
  /** The agent whose turn asked for the call; its hooks run. */
  agent: AnyAgent;
  /** The function tools the call may name. */
  tools: readonly FunctionTool[];
  call: FunctionCallItem;
  /** Run-level hooks (`onToolStart` / `onToolEnd`), called before the agent's own. */
  hooks?: RunHooks<TContext>;
  /** Aborts the tool (its `details.signal`) and the call (`RunAbortedError`). */
  signal?: AbortSignal;
  /** With a tracer, the call gets a `function` span under `parentSpan`. */
  tracer?: Tracer;
  parentSpan?: Span;
}

/** The output item (with the tool's raw return value), or the approval the call waits for. */
export type ToolCallOutcome =
  | { type: 'output'; item: FunctionCallOutputItem; output: unknown; ran: boolean }
  | { type: 'approval'; items: ToolApprovalRunItem<AnyAgent>[] };

/**
 * Runs one call as a turn of `run()` would: arguments validated (invalid: an error output),
 * approval (`state.isApproved`, else `needsApproval` → an approval outcome: decide with
 * `state.approve`/`reject` and call again), tool guardrails, hooks, timeout, abort, the error
 * policy and the `function` span. An unknown tool name becomes an error output naming it.
 * @throws like a run: `RunAbortedError`, `ToolCallError` (`errorFunction: null`), a raising
 *   `ToolTimeoutError`, `ToolGuardrailTripwireTriggered`, or what a hook throws.
 */
export async function runToolCall<TContext = any>(
  request: ToolCallRequest<TContext>,
): Promise<ToolCallOutcome> {
  const { state, agent, call } = request;
  const rt: RunRuntime = {
    state,
    options: { hooks: request.hooks },
    stream: false,
    signal: request.signal,
    tracer: request.tracer,
    turnSpan: request.parentSpan,
    modelInput: [],
    modelInputOwned: true,
    pendingModelItems: [],
    emit: () => {},
    newInput: [],
    turnStartIndex: 0,
    completedCallIds: new Set(),
    nested: false,
    resumed: false,
    promptCacheKey: '',
  };
  const functionTools = new Map(request.tools.map((t) => [t.name, t]));
  const result = await executeFunctionCalls(rt, { agent, functionTools }, [call]);
  if (result.error) throw result.error.value;
  if (result.approvals.length > 0) return { type: 'approval', items: result.approvals };
  const out = result.outputs[0];
  if (out?.type !== 'tool_call_output_item') throw new Error('runToolCall: no output'); // unreachable
  return {
    type: 'output',
    item: out.raw_item as FunctionCallOutputItem,
    output: out.output,
    ran: result.toolResults.length > 0,
  };
}
