import { UserError } from '../errors/errors.js';
import type { Agent } from './agent.js';
import { AS_TOOL_AGENT } from './as-tool.js';

type AnyAgent = Agent<any, any>;

/**
 * Every agent reachable from `start` through handoffs and agents used as tools, by name.
 * @throws UserError when two different agents share a name (RunState could not rebind them).
 */
export function collectAgents(start: AnyAgent): Map<string, AnyAgent> {
  const byName = new Map<string, AnyAgent>();
  const stack: AnyAgent[] = [start];
  while (stack.length > 0) {
    const agent = stack.pop()!;
    const seen = byName.get(agent.name);
    if (seen && seen !== agent)
      throw new UserError(
        `Two different agents are named "${agent.name}"; give agents unique names so a RunState can rebind them.`,
      );
    if (seen) continue;
    byName.set(agent.name, agent);
    for (const h of agent.getHandoffs()) stack.push(h.agent);
    for (const t of agent.tools) {
      const nested = (t as unknown as Record<symbol, AnyAgent | undefined>)[AS_TOOL_AGENT];
      if (nested) stack.push(nested);
    }
  }
  return byName;
}
