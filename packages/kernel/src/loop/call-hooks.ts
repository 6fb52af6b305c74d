import type { RunHooks } from '../agent/hooks.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';

/** Calls a hook on the run hooks, then on the agent's own hooks (the documented order). */
export async function callHooks(
  rt: RunRuntime,
  agent: AnyAgent,
  call: (hooks: RunHooks) => void | Promise<void> | undefined,
): Promise<void> {
  const runHooks = rt.options.hooks;
  if (runHooks) await call(runHooks);
  if (agent.hooks) await call(agent.hooks);
}
