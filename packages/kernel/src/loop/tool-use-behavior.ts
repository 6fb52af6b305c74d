import type { FunctionToolResult } from '../agent/agent.js';
import { describeThrown, UserError } from '../errors/errors.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';
import { untilAborted } from './until-aborted.js';

/**
 * Applies the agent's `toolUseBehavior` to the tool results of a turn. Returns the final
 * output when the tools end the run, `undefined` to call the model again.
 */
export async function decideToolUseFinalOutput(
  rt: RunRuntime,
  agent: AnyAgent,
  results: FunctionToolResult[],
): Promise<{ finalOutput: unknown } | undefined> {
  const behavior = agent.toolUseBehavior;
  if (behavior === 'run_llm_again') return undefined;
  if (behavior === 'stop_on_first_tool') return { finalOutput: results[0].output };
  if (typeof behavior === 'function') {
    // An abort ends a decision that hangs (the turn stays pending: a resume decides again).
    const decision = await untilAborted(() => behavior(rt.state.context, results), rt.signal);
    if (typeof decision?.isFinalOutput !== 'boolean')
      throw new UserError(
        `Agent "${agent.name}": its toolUseBehavior function must return { isFinalOutput: boolean, finalOutput? } (got ${describeThrown(decision)}).`,
      );
    return decision.isFinalOutput ? { finalOutput: decision.finalOutput } : undefined;
  }
  const hit = results.find((r) => behavior.stopAtToolNames.includes(r.toolName));
  return hit ? { finalOutput: hit.output } : undefined;
}
