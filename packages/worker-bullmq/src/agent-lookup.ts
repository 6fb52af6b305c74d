/**
 * Finding agents: the registry entry a run started with, agents reachable from it by name (the
 * same graph `RunState.fromString` rebinds: handoffs and agents used as tools), and the `Model`
 * a turn of an agent uses (run override > agent > provider), as the kernel resolves it.
 */
import { type Agent, type Model, type ModelProvider, UserError } from '@baton/kernel';
import type { AgentRegistry } from './durable-options.js';

const AS_TOOL_AGENT = Symbol.for('baton.asToolAgent');

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

/** The agent named `name` reachable from `start`, or undefined. */
export function findAgent(start: Agent<any, any>, name: string): Agent<any, any> | undefined {
  const seen = new Set<Agent<any, any>>();
  const stack = [start];
  while (stack.length > 0) {
    const agent = stack.pop()!;
    if (seen.has(agent)) continue;
    seen.add(agent);
    if (agent.name === name) return agent;
    for (const h of agent.getHandoffs()) stack.push(h.agent);
    for (const t of agent.tools) {
      const nested = (t as unknown as Record<symbol, Agent<any, any> | undefined>)[AS_TOOL_AGENT];
      if (nested) stack.push(nested);
    }
  }
  return undefined;
}

/** The model of `agent` for a run with these options; undefined when it needs a provider that is not given. */
export async function resolveAgentModel(
  agent: Agent<any, any>,
  options: { model?: Model | string; modelProvider?: ModelProvider },
): Promise<Model | undefined> {
  const spec = options.model ?? agent.model;
  if (spec && typeof spec === 'object') return spec;
  if (!options.modelProvider) return undefined;
  return options.modelProvider.getModel(spec);
}
