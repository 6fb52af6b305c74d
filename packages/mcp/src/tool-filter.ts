/**
 * Which MCP tools an agent gets: static allow/deny lists, or a function of the run context and
 * the agent. Names are the server's own tool names (before any prefix).
 */
import type { AgentRef, RunContext } from '@baton/kernel';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';

/** What a filter function receives. */
export interface McpToolFilterContext<TContext = any> {
  runContext: RunContext<TContext>;
  agent: AgentRef;
  serverName: string;
  /** The tool as the server listed it. */
  tool: McpTool;
}

/** Static lists: a tool is kept when it is in `allowedToolNames` (if given) and not blocked. */
export interface McpStaticToolFilter {
  allowedToolNames?: string[];
  blockedToolNames?: string[];
}

/**
 * A tool filter. A function filter is evaluated per run by `McpCapability`, and per turn
 * (through the tool's `isEnabled`) for tools built by `mcpTools`.
 */
export type McpToolFilter<TContext = any> =
  | McpStaticToolFilter
  | ((context: McpToolFilterContext<TContext>) => boolean | Promise<boolean>);

/** True when the static part of `filter` keeps `toolName` (function filters: always true). */
export function staticFilterAllows(filter: McpToolFilter | undefined, toolName: string): boolean {
  if (!filter || typeof filter === 'function') return true;
  if (filter.allowedToolNames && !filter.allowedToolNames.includes(toolName)) return false;
  if (filter.blockedToolNames?.includes(toolName)) return false;
  return true;
}

/** The function filters among `filters`. */
export function functionFilters<TContext>(
  filters: (McpToolFilter<TContext> | undefined)[],
): ((context: McpToolFilterContext<TContext>) => boolean | Promise<boolean>)[] {
  return filters.filter(
    (f): f is Exclude<typeof f, McpStaticToolFilter | undefined> => typeof f === 'function',
  );
}
