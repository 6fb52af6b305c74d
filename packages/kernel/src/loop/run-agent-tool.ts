/**
 * Running an agent used as a tool for one parent call: inherited options, the caller's context,
 * run id `<runId>.<callId>` (stable for durable journals), usage added to the parent's, events
 * forwarded. A pause or failure stops the call with a `NestedRunStop` (the parent pauses/fails).
 */
import type { AgentToolRequest } from '../agent/as-tool.js';
import type { FunctionCallItem } from '../items/item-types.js';
import { addUsage, type Usage } from '../model/usage.js';
import type { Span } from '../tracing/span-types.js';
import { createRuntime } from './create-runtime.js';
import { NestedRunStop } from './nested-run.js';
import { runLoop } from './run-loop.js';
import type { RunOptions } from './run-options.js';
import { RunResult } from './run-result.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';

/** Parent run options a nested run inherits (each may be replaced by `asTool({ runOptions })`). */
const INHERITED = [
  'model',
  'modelProvider',
  'modelSettings',
  'hooks',
  'logger',
  'tracing',
  'toolNotFound',
  'retry',
  'maxToolConcurrency',
] as const;

export async function runAgentTool(
  parent: RunRuntime,
  call: FunctionCallItem,
  span: Span | undefined,
  signal: AbortSignal,
  request: AgentToolRequest,
): Promise<RunResult> {
  const { state } = parent;
  const options: RunOptions = {};
  for (const key of INHERITED)
    if (parent.options[key] !== undefined)
      (options as Record<string, unknown>)[key] = parent.options[key];
  Object.assign(options, request.runOptions, {
    context: state.context.context,
    runId: `${state.runId}.${call.call_id}`,
    maxTurns: request.maxTurns === undefined ? 10 : request.maxTurns,
    signal,
  });
  const resume = state.nestedStates[call.call_id];
  const before: Usage | undefined = resume ? { ...resume.usage } : undefined;
  const onStream = request.onStream;
  const input = resume ?? (await request.input());
  let rt: RunRuntime;
  try {
    rt = await createRuntime(
      request.agent as AnyAgent,
      input,
      options,
      parent.stream || onStream !== undefined,
      { tracer: parent.tracer, span },
    );
  } catch (error) {
    throw new NestedRunStop(undefined, { error });
  }
  rt.runAgentTool = runAgentTool;
  let forwarded: Promise<unknown> = Promise.resolve();
  rt.emit = (event) => {
    const agent = rt.state.currentAgent;
    if (parent.stream)
      parent.emit({ type: 'nested_run_stream_event', toolCallId: call.call_id, agent, event });
    if (onStream)
      forwarded = forwarded.then(() =>
        onStream({ event, toolCallId: call.call_id, agentName: agent.name }),
      );
  };
  try {
    await runLoop(rt);
  } catch (error) {
    forwarded.catch(() => {});
    throw new NestedRunStop(rt.state, { error });
  } finally {
    const delta = { ...rt.state.usage };
    if (before) for (const k of Object.keys(before) as (keyof Usage)[]) delta[k] -= before[k];
    addUsage(state.context.usage, delta);
  }
  await forwarded;
  if (rt.state.interruptions.length > 0) throw new NestedRunStop(rt.state);
  return new RunResult(rt.state);
}
