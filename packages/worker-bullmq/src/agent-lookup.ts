/** Finding agents: the registry entry a run started with, and its registry key by agent name. */
import { type Agent, UserError } from '@baton/kernel';
import type { AgentRegistry } from './durable-options.js';

/** The registered agent `name`. @throws UserError naming the registered agents. */
export function registeredAgent(agents: AgentRegistry, name: string): Agent<any, any> {
  const agent = agents[name];
  if (!agent) {
    throw new UserError(
      `No agent "${name}" in the durable registry (registered: ${Object.keys(agents).join(', ') || 'none'}). Register the same agents in the runner and every worker.`,
    );
  }
  return agent;
}

/** The registry key whose agent is named `agentName` (or is the key). */
export function registryKeyFor(agents: AgentRegistry, agentName: string): string | undefined {
  if (agents[agentName]) return agentName;
  return Object.keys(agents).find((k) => agents[k].name === agentName);
}
