import type { FunctionToolResult } from '../agent/agent.js';
import { describeThrown, UserError } from '../errors/errors.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';

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
    const decision = await behavior(rt.state.context, results);
    if (typeof decision?.isFinalOutput !== 'boolean')
      throw new UserError(
        `Agent "${agent.name}": its toolUseBehavior function must return { isFinalOutput: boolean, finalOutput? } (got ${describeThrown(decision)}).`,
      );
    return decision.isFinalOutput ? { finalOutput: decision.finalOutput } : undefined;
  }
  const hit = results.find((r) => behavior.stopAtToolNames.includes(r.toolName));
  return hit ? { finalOutput: hit.output } : undefined;
}
