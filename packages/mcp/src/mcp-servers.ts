/**
 * `MCPServers`: connects several MCP servers concurrently, keeps the ones that work, and closes
 * them all. The owner of the servers; `McpCapability` and `mcpTools` only use them.
 */
import { consoleMcpLogger, type McpLogger } from './mcp-logger.js';
import type { MCPServer } from './mcp-server.js';
import { MCPServerError, messageOf } from './mcp-server-error.js';

/** A server that failed to connect, and why. */
export interface McpConnectFailure {
  server: MCPServer;
  error: unknown;
}

/** Options of {@link MCPServers} (and of `McpCapability`'s own connecting). */
export interface MCPServersOptions {
  /** Fail when any server fails to connect (after closing the others). Default false: drop it with a warning. */
  strict?: boolean;
  /** Where warnings go. Default `consoleMcpLogger`. */
  logger?: McpLogger;
}

/**
 * Connects `servers` concurrently (skipping connected ones) and splits them into connected and
 * failed. Not strict: each failure is logged as a warning and dropped. Strict: throws.
 * @throws MCPServerError (strict) naming every failed server; the signal's reason when aborted.
 */
export async function connectServers(
  servers: readonly MCPServer[],
  options: MCPServersOptions & { signal?: AbortSignal },
): Promise<{ active: MCPServer[]; failed: McpConnectFailure[] }> {
  const results = await Promise.allSettled(
    servers.map((s) => s.connect({ signal: options.signal })),
  );
  options.signal?.throwIfAborted();
  const active: MCPServer[] = [];
  const failed: McpConnectFailure[] = [];
  results.forEach((r, i) => {
    if (r.status === 'fulfilled') active.push(servers[i]);
    else failed.push({ server: servers[i], error: r.reason });
  });
  if (failed.length > 0 && options.strict) {
    const names = failed.map((f) => `"${f.server.name}" (${messageOf(f.error)})`).join('; ');
    throw new MCPServerError(
      `${failed.length} of ${servers.length} MCP servers failed to connect: ${names}. Fix them, or pass strict: false to run without them.`,
      {
        serverName: failed.map((f) => f.server.name).join(', '),
        operation: 'connect',
        reason: 'unavailable',
        cause: new AggregateError(failed.map((f) => f.error)),
      },
    );
  }
  const logger = options.logger ?? consoleMcpLogger;
  for (const f of failed) {
    logger.warn(
      `MCP server "${f.server.name}" failed to connect and is left out: ${messageOf(f.error)}`,
      {
        server: f.server.name,
      },
    );
  }
  return { active, failed };
}

/**
 * Owns a set of MCP servers: `connect()` connects them all concurrently and reports which
 * failed; `close()` closes all of them. Pass it to `McpCapability` or `mcpTools`, which use
 * its connected servers.
 *
 * ```ts
 * const servers = new MCPServers([fs, everything]);
 * await servers.connect();
 * try { await run(agentWith(new McpCapability(servers)), 'hi'); } finally { await servers.close(); }
 * ```
 */
export class MCPServers {
  /** Every server, connected or not. */
  readonly servers: readonly MCPServer[];
  private readonly options: MCPServersOptions;
  private activeServers: MCPServer[] = [];
  private failures: McpConnectFailure[] = [];
  private connectedOnce = false;

  constructor(servers: MCPServer[], options: MCPServersOptions = {}) {
    this.servers = [...new Set(servers)];
    this.options = options;
  }

  /** Servers connected by the last `connect()` (in the given order). */
  get active(): MCPServer[] {
    return this.activeServers.slice();
  }

  /** True after a `connect()` finished (until `close()`). */
  get isConnected(): boolean {
    return this.connectedOnce;
  }

  /** Servers that failed in the last `connect()`, with their errors. */
  get failed(): McpConnectFailure[] {
    return this.failures.slice();
  }

  /**
   * Connects every server concurrently. Calling it again retries the failed ones.
   * On abort or (strict) failure every server is closed before the error is thrown.
   * @throws MCPServerError in strict mode when any server failed; the signal's reason on abort.
   */
  async connect(options: { signal?: AbortSignal } = {}): Promise<this> {
    try {
      const { active, failed } = await connectServers(this.servers, {
        ...this.options,
        signal: options.signal,
      });
      this.activeServers = active;
      this.failures = failed;
      this.connectedOnce = true;
      return this;
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /** Closes every server concurrently. Idempotent; never throws. */
  async close(): Promise<void> {
    this.activeServers = [];
    this.connectedOnce = false;
    await Promise.all(this.servers.map((s) => s.close()));
  }
}
