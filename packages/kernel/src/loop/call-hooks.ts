import type { RunHooks } from '../agent/hooks.js';
import { nonErrorThrown } from '../errors/errors.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';
import { untilAborted } from './until-aborted.js';

type Hook = (...args: unknown[]) => unknown;

/**
 * Calls a hook on the run hooks, then on the agent's own hooks (the documented order). An abort
 * of the run ends a hook that hangs; no hook starts once the run has aborted.
 */
export async function callHooks<K extends keyof RunHooks>(
  rt: RunRuntime,
  agent: AnyAgent,
  name: K,
  ...args: Parameters<NonNullable<RunHooks[K]>>
): Promise<void> {
  const runHooks = rt.options.hooks;
  const own = agent.hooks;
  const first = runHooks?.[name] as Hook | undefined;
  try {
    if (first) await untilAborted(() => first.apply(runHooks, args), rt.signal);
  } catch (error) {
    throw nonErrorThrown(error, `The run hook ${name}`);
  }
  const second = own?.[name] as Hook | undefined;
  try {
    if (second) await untilAborted(() => second.apply(own, args), rt.signal);
  } catch (error) {
    throw nonErrorThrown(error, `The ${name} hook of agent "${agent.name}"`);
  }
}
