/**
 * `mcpTools(servers, options)`: the tools of several MCP servers as kernel function tools,
 * filtered, named without collisions, strict where possible.
 */
import { type CapabilityRun, type FunctionTool, UserError } from '@baton/kernel';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpApprovalPolicy } from './approval-policy.js';
import { mcpFunctionTool } from './mcp-function-tool.js';
import type { MCPServer } from './mcp-server.js';
import { MCPServers } from './mcp-servers.js';
import {
  functionFilters,
  type McpToolFilter,
  type McpToolFilterContext,
  staticFilterAllows,
} from './tool-filter.js';

/** Options of {@link mcpTools} and `McpCapability`; they apply on top of each server's own. */
export interface McpToolsOptions<TContext = any> {
  /**
   * Send tools with OpenAI-strict schemas when the server's schema can be made strict (optional
   * keys become nullable; a null for an optional key is removed before the call). Schemas that
   * cannot be made strict are sent as they are, non-strict. Default false.
   */
  convertSchemasToStrict?: boolean;
  /** Name tools `<server name>__<tool name>` (sanitized to `[a-zA-Z0-9_-]`, max 64). Default false. */
  includeServerInToolNames?: boolean;
  /** Applied to every server's tools, after the server's own `toolFilter`. */
  toolFilter?: McpToolFilter<TContext>;
  /** Applied to every server; a call needs approval when this or the server's policy says so. */
  requireApproval?: McpApprovalPolicy<TContext>;
}

/**
 * Lists the tools of `servers` and returns them as function tools for `new Agent({ tools })`.
 * Servers never connected are connected first (the caller still owns and closes them); an
 * `MCPServers` manager is connected if it was not, and contributes its connected servers. Tools that require MCP task-based
 * execution are left out. Function filters are evaluated per turn through each tool's
 * `isEnabled`. The list is taken once: for a list that follows the servers, use `McpCapability`.
 * @throws UserError when two servers expose the same tool name (set `toolNamePrefix` on one or
 *   pass `includeServerInToolNames: true`); MCPServerError when a server cannot be listed.
 */
export async function mcpTools<TContext = any>(
  servers: MCPServer<TContext>[] | MCPServers,
  options: McpToolsOptions<TContext> = {},
): Promise<FunctionTool<TContext>[]> {
  if (servers instanceof MCPServers) {
    if (!servers.isConnected) await servers.connect();
    return buildMcpTools(servers.active as MCPServer<TContext>[], options);
  }
  await Promise.all(servers.filter((s) => s.status === 'idle').map((s) => s.connect()));
  return buildMcpTools(servers, options);
}

/**
 * Shared by `mcpTools` and `McpCapability`. With `run`, function filters are evaluated now;
 * with `onListError`, a server whose listing fails is skipped instead of failing everything.
 */
export async function buildMcpTools<TContext>(
  servers: MCPServer<TContext>[],
  options: McpToolsOptions<TContext>,
  run?: CapabilityRun<TContext>,
  onListError?: (server: MCPServer<TContext>, error: unknown) => void,
): Promise<FunctionTool<TContext>[]> {
  const unique = [...new Set(servers)];
  const listed = await Promise.all(
    unique.map(async (server) => {
      try {
        return { server, tools: await server.listTools({ signal: run?.signal }) };
      } catch (error) {
        if (!onListError || run?.signal?.aborted) throw error;
        onListError(server, error);
        return { server, tools: [] as McpTool[] };
      }
    }),
  );
  const owners = new Map<string, { server: string; tool: string }>();
  const out: FunctionTool<TContext>[] = [];
  for (const { server, tools } of listed) {
    const filters = [server.toolFilter, options.toolFilter];
    const dynamic = functionFilters(filters);
    for (const mcpTool of tools) {
      if (mcpTool.execution?.taskSupport === 'required') continue;
      if (!filters.every((f) => staticFilterAllows(f, mcpTool.name))) continue;
      if (
        run &&
        !(await passes(dynamic, {
          runContext: run.runContext,
          agent: run.agent,
          serverName: server.name,
          tool: mcpTool,
        }))
      ) {
        continue;
      }
      const name = exposedToolName(server, mcpTool.name, options.includeServerInToolNames ?? false);
      const owner = owners.get(name);
      if (owner) {
        throw new UserError(
          `MCP tool name "${name}" is exposed by server "${owner.server}" (tool "${owner.tool}") and by server "${server.name}" (tool "${mcpTool.name}"). Set toolNamePrefix on one of the servers or pass includeServerInToolNames: true.`,
        );
      }
      owners.set(name, { server: server.name, tool: mcpTool.name });
      out.push(
        mcpFunctionTool({
          server,
          mcpTool,
          exposedName: name,
          convertSchemasToStrict: options.convertSchemasToStrict ?? false,
          requireApproval: [server.requireApproval, options.requireApproval],
          isEnabled:
            !run && dynamic.length > 0
              ? (runContext, agent) =>
                  passes(dynamic, { runContext, agent, serverName: server.name, tool: mcpTool })
              : undefined,
        }),
      );
    }
  }
  return out;
}

async function passes<TContext>(
  filters: ((context: McpToolFilterContext<TContext>) => boolean | Promise<boolean>)[],
  context: McpToolFilterContext<TContext>,
): Promise<boolean> {
  for (const filter of filters) if (!(await filter(context))) return false;
  return true;
}

/**
 * The name the model sees: `toolNamePrefix` + (`<server name>__` when asked) + the tool name,
 * with characters outside `[a-zA-Z0-9_-]` replaced by `_`; names over 64 characters are cut
 * and end with a hash of the full name.
 */
export function exposedToolName(
  server: Pick<MCPServer, 'name' | 'toolNamePrefix'>,
  toolName: string,
  includeServer: boolean,
): string {
  const raw = `${server.toolNamePrefix ?? ''}${includeServer ? `${server.name}__` : ''}${toolName}`;
  const name = raw.replace(/[^a-zA-Z0-9_-]/g, '_');
  return name.length <= 64 ? name : `${name.slice(0, 55)}_${fnv1a(raw)}`;
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
