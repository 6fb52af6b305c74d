/**
 * `McpCapability`: the main way to give an agent MCP tools. Per run it connects servers that
 * were never connected, lists their tools (respecting filters, names, strictness and approval
 * policies) and adds them to the execution agent. Connections stay open after the run: the
 * owner (you, or an `MCPServers` manager) closes them.
 */
import type { Capability, CapabilityRun, Tool } from '@baton/kernel';
import { consoleMcpLogger, type McpLogger } from './mcp-logger.js';
import type { MCPServer } from './mcp-server.js';
import { messageOf } from './mcp-server-error.js';
import { connectServers, MCPServers } from './mcp-servers.js';
import { buildMcpTools, type McpToolsOptions } from './mcp-tools.js';

/** Options of {@link McpCapability}. */
export interface McpCapabilityOptions<TContext = any> extends McpToolsOptions<TContext> {
  /** Capability name in errors and traces. Default `'mcp'`. */
  name?: string;
  /**
   * Fail the run when a server cannot be connected or listed. Default false: the server is
   * left out of this run with a warning.
   */
  strict?: boolean;
  /** Where warnings go. Default `consoleMcpLogger`. */
  logger?: McpLogger;
}

/**
 * Gives an agent the tools of MCP servers (Capability v1):
 * ```ts
 * const agent = new Agent({ name: 'a', capabilities: [new McpCapability([server], { convertSchemasToStrict: true })] });
 * ```
 * `setup` connects servers that were never connected (concurrently; an `MCPServers` manager
 * that was not connected yet is connected with its own `strict`/`logger`); `tools` lists tools once
 * per run (use `cacheToolsList` on the server to avoid a round trip per run); `teardown` leaves
 * connections open. A function `toolFilter` receives the run's context and the agent.
 * @throws UserError (from `tools`) on a tool name collision between servers;
 *   MCPServerError (strict mode) when a server cannot be connected or listed.
 */
export class McpCapability<TContext = any> implements Capability<TContext> {
  readonly specificationVersion = 'v1' as const;
  readonly name: string;
  private readonly source: MCPServer<TContext>[] | MCPServers;
  private readonly options: McpCapabilityOptions<TContext>;
  private readonly logger: McpLogger;

  constructor(
    servers: MCPServer<TContext>[] | MCPServers,
    options: McpCapabilityOptions<TContext> = {},
  ) {
    this.source = servers;
    this.options = options;
    this.name = options.name ?? 'mcp';
    this.logger = options.logger ?? consoleMcpLogger;
  }

  /** The servers this capability draws tools from (a manager's connected ones). */
  get servers(): MCPServer<TContext>[] {
    return this.source instanceof MCPServers
      ? (this.source.active as MCPServer<TContext>[])
      : this.source.slice();
  }

  async setup(run: CapabilityRun<TContext>): Promise<void> {
    if (this.source instanceof MCPServers) {
      if (!this.source.isConnected) await this.source.connect({ signal: run.signal });
      return;
    }
    const idle = this.source.filter((s) => s.status === 'idle');
    if (idle.length === 0) return;
    await connectServers(idle, {
      strict: this.options.strict,
      logger: this.logger,
      signal: run.signal,
    });
  }

  async tools(run: CapabilityRun<TContext>): Promise<Tool<TContext>[]> {
    const usable = this.servers.filter((s) => s.status !== 'idle');
    return buildMcpTools(
      usable,
      this.options,
      run,
      this.options.strict
        ? undefined
        : (server, error) => {
            this.logger.warn(
              `MCP server "${server.name}" could not list its tools and is left out of this run: ${messageOf(error)}`,
              {
                server: server.name,
              },
            );
          },
    );
  }

  /** Leaves connections open: close the servers (or their `MCPServers`) when you are done. */
  async teardown(): Promise<void> {}
}
