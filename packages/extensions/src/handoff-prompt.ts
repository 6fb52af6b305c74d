/**
 * Instructions for agents that hand off (openai-agents-js `RECOMMENDED_PROMPT_PREFIX` /
 * `promptWithHandoffInstructions` in `@openai/agents-core/extensions`, same names here).
 */

/**
 * A system-prompt preamble for agents that use handoffs: it tells the model that it works in a
 * team of agents, that handing off means calling a `transfer_to_<agent_name>` tool, and that the
 * transfer should stay invisible to the user.
 */
export const RECOMMENDED_PROMPT_PREFIX = `# System context
You are one agent in a multi-agent system. Each agent has its own instructions and tools, and can pass the conversation to another agent through a handoff. A handoff is a tool call, usually named \`transfer_to_<agent_name>\`. Transfers happen in the background: do not mention them or draw the user's attention to them.`;

/**
 * `prompt` with {@link RECOMMENDED_PROMPT_PREFIX} in front, separated by a blank line.
 * @param prompt The agent's own instructions.
 */
export function promptWithHandoffInstructions(prompt: string): string {
  return `${RECOMMENDED_PROMPT_PREFIX}\n\n${prompt}`;
}
