import type { RunHooks } from '../agent/hooks.js';
import { nonErrorThrown } from '../errors/errors.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';

/** Calls a hook on the run hooks, then on the agent's own hooks (the documented order). */
export async function callHooks(
  rt: RunRuntime,
  agent: AnyAgent,
  name: keyof RunHooks,
  call: (hooks: RunHooks) => void | Promise<void> | undefined,
): Promise<void> {
  const runHooks = rt.options.hooks;
  try {
    if (runHooks) await call(runHooks);
  } catch (error) {
    throw nonErrorThrown(error, `The run hook ${name}`);
  }
  try {
    if (agent.hooks) await call(agent.hooks);
  } catch (error) {
    throw nonErrorThrown(error, `The ${name} hook of agent "${agent.name}"`);
  }
}
