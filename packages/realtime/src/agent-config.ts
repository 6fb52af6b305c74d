/** An agent's part of the realtime session configuration: instructions, tools and handoffs. */
import {
  type FunctionToolDefinition,
  type Handoff,
  type RunContext,
  UserError,
} from '@baton/kernel';
import type { RealtimeAgent } from './realtime-agent.js';
import type { RealtimeSessionConfig } from './realtime-transport.js';

/** Session options a `RealtimeSession` merges under every agent's own part. */
export type RealtimeSessionSettings = Partial<
  Omit<RealtimeSessionConfig, 'instructions' | 'tools'>
>;

/**
 * The full session config while `agent` is current: its instructions (static or computed from
 * the context), its enabled function tools and handoffs as function tools, its voice.
 * @throws UserError for a hosted tool (realtime sessions run function tools only) or two tools
 *   or handoffs with one name.
 */
export async function agentSessionConfig(
  agent: RealtimeAgent,
  context: RunContext<any>,
  settings: RealtimeSessionSettings,
): Promise<RealtimeSessionConfig> {
  const tools: FunctionToolDefinition[] = [];
  const names = new Set<string>();
  const claim = (name: string) => {
    if (names.has(name))
      throw new UserError(
        `RealtimeAgent "${agent.name}": the name "${name}" is used by two tools or handoffs; names must be unique.`,
      );
    names.add(name);
  };
  for (const t of agent.tools) {
    if (t.type !== 'function') {
      throw new UserError(
        `RealtimeAgent "${agent.name}": hosted tool "${t.name}" cannot run in a realtime session; use function tools (tool()).`,
      );
    }
    if (!(await t.isEnabled(context, agent))) continue;
    claim(t.name);
    tools.push({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      strict: t.strict,
    });
  }
  for (const h of agent.getHandoffs() as Handoff<any, RealtimeAgent>[]) {
    if (!(await h.isEnabled(context, agent))) continue;
    claim(h.toolName);
    tools.push({
      type: 'function',
      name: h.toolName,
      description: h.toolDescription,
      parameters: h.parameters,
      strict: h.strict,
    });
  }
  const instructions = (await agent.getSystemPrompt(context)) ?? '';
  return {
    ...settings,
    ...(agent.voice !== undefined ? { voice: agent.voice } : {}),
    instructions,
    tools,
  };
}
